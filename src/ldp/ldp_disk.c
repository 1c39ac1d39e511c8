/* ldp_disk.c: atomic, durable file and directory operations for the LDP store, and the walk that
 * reads a data directory (or a fixtures folder) back. */
#define _GNU_SOURCE /* nftw's FTW_DEPTH/FTW_PHYS */
#include "ldp/ldp_disk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ldp/ldp_path.h"
#include "rdf/buf.h"

/* root + decoded path, without a container's trailing '/'. */
static char *fs_path(const char *root, const char *path) {
    buf b = {0};
    buf_puts(&b, root);
    size_t len = strlen(path);
    if (len > 1 && path[len - 1] == '/')
        len--;
    if (len > 1 || path[0] != '/')
        buf_append(&b, path, len);
    return buf_cstr(&b);
}

/* The directory holding fs path p (p has at least one '/' after root). */
static char *parent_of(const char *p) {
    const char *slash = strrchr(p, '/');
    return xstrndup(p, (size_t)(slash - p));
}

static void temp_name(const char *dir, buf *out) {
    /* A clash is harmless: O_EXCL and mkdir refuse it and the write fails. */
    buf_puts(out, dir);
    buf_puts(out, "/" LDP_DISK_TMP_PREFIX);
    ldp_path_random_name(out);
}

static int fail(char *message, size_t size, const char *what, const char *file) {
    snprintf(message, size, "%s %s: %s", what, file, strerror(errno));
    return -1;
}

static int fsync_dir(const char *dir, char *message, size_t size) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return fail(message, size, "cannot open directory", dir);
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc == 0 ? 0 : fail(message, size, "cannot fsync directory", dir);
}

/* Creates file (which must not exist) with data, fsync'd. */
static int write_new_file(const char *file, const char *data, size_t len, char *message, size_t size) {
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(message, size, "cannot create", file);
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fail(message, size, "cannot write", file);
            close(fd);
            unlink(file);
            return -1;
        }
        done += (size_t)n;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        fail(message, size, "cannot fsync", file);
        unlink(file);
        return -1;
    }
    return 0;
}

int ldp_disk_replace_file(const char *dir, const char *final, const char *data, size_t len, char *message,
                          size_t size) {
    buf tmp = {0};
    temp_name(dir, &tmp);
    int rc = write_new_file(buf_cstr(&tmp), data, len, message, size);
    if (rc == 0 && rename(tmp.data, final) != 0) {
        rc = fail(message, size, "cannot rename onto", final);
        unlink(tmp.data);
    }
    if (rc == 0)
        rc = fsync_dir(dir, message, size);
    buf_free(&tmp);
    return rc;
}

int ldp_disk_write_resource(const char *root, const char *path, const char *data, size_t len, char *message,
                            size_t size) {
    char *final = fs_path(root, path);
    char *dir = parent_of(final);
    int rc = ldp_disk_replace_file(dir, final, data, len, message, size);
    free(dir);
    free(final);
    return rc;
}

int ldp_disk_write_container_triples(const char *root, const char *path, const char *data, size_t len,
                                     char *message, size_t size) {
    char *dir = fs_path(root, path);
    buf final = {0};
    buf_printf(&final, "%s/" LDP_DISK_CONTAINER_FILE, dir);
    int rc;
    if (len > 0)
        rc = ldp_disk_replace_file(dir, buf_cstr(&final), data, len, message, size);
    else if (unlink(buf_cstr(&final)) != 0 && errno != ENOENT)
        rc = fail(message, size, "cannot remove", final.data);
    else
        rc = fsync_dir(dir, message, size);
    buf_free(&final);
    free(dir);
    return rc;
}

static int remove_entry(const char *file, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    return type == FTW_DP ? rmdir(file) : unlink(file);
}

static void remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

int ldp_disk_make_container(const char *root, const char *path, const char *data, size_t len, char *message,
                            size_t size) {
    char *final = fs_path(root, path);
    char *parent = parent_of(final);
    buf tmp = {0};
    temp_name(parent, &tmp);
    int rc = 0;
    if (mkdir(buf_cstr(&tmp), 0755) != 0) {
        rc = fail(message, size, "cannot create directory", tmp.data);
    } else {
        if (len > 0) {
            buf own = {0};
            buf_printf(&own, "%s/" LDP_DISK_CONTAINER_FILE, tmp.data);
            rc = write_new_file(buf_cstr(&own), data, len, message, size);
            buf_free(&own);
        }
        if (rc == 0)
            rc = fsync_dir(tmp.data, message, size);
        if (rc == 0 && rename(tmp.data, final) != 0)
            rc = fail(message, size, "cannot rename onto", final);
        if (rc != 0)
            remove_tree(tmp.data);
        else
            rc = fsync_dir(parent, message, size);
    }
    buf_free(&tmp);
    free(parent);
    free(final);
    return rc;
}

int ldp_disk_remove(const char *root, const char *path, char *message, size_t size) {
    char *final = fs_path(root, path);
    char *parent = parent_of(final);
    int rc = 0;
    size_t len = strlen(path);
    if (path[len - 1] == '/') {
        /* Renamed away first (design note 2): the container vanishes whole, the rest is tidying. */
        buf tmp = {0};
        temp_name(parent, &tmp);
        if (rename(final, buf_cstr(&tmp)) != 0)
            rc = fail(message, size, "cannot remove", final);
        else if ((rc = fsync_dir(parent, message, size)) == 0)
            remove_tree(tmp.data);
        buf_free(&tmp);
    } else if (unlink(final) != 0) {
        rc = fail(message, size, "cannot remove", final);
    } else {
        rc = fsync_dir(parent, message, size);
    }
    free(parent);
    free(final);
    return rc;
}

char *ldp_disk_read_file(const char *file, size_t *len) {
    /* O_NONBLOCK: opening a planted FIFO must not wait for a writer. */
    int fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    int rc = fstat(fd, &st);
    if (rc != 0 || !S_ISREG(st.st_mode)) {
        int saved = rc != 0 ? errno : EINVAL;
        close(fd);
        errno = saved;
        return NULL;
    }
    buf b = {0};
    char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int saved = errno;
            close(fd);
            buf_free(&b);
            errno = saved;
            return NULL;
        }
        buf_append(&b, chunk, (size_t)n);
    }
    close(fd);
    *len = b.len;
    return buf_cstr(&b);
}

/* Why a name the walk cannot use is skipped, from its lstat. */
static const char *unservable(const struct stat *st) {
    return S_ISLNK(st->st_mode) ? "a symbolic link (not followed)" : "not a regular file or directory";
}

static bool has_control(const char *name) {
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in dir (caller frees each and the array); NULL with errno on failure. */
static char **list_dir(const char *dir, size_t *count) {
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            names = xrealloc(names, cap * sizeof *names);
        }
        names[n++] = xstrndup(entry->d_name, strlen(entry->d_name));
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, compare_names);
    *count = n;
    return names ? names : xcalloc(1, sizeof *names);
}

time_t ldp_disk_modified(const char *root, const char *path) {
    char *file = fs_path(root, path);
    struct stat st;
    time_t modified = lstat(file, &st) == 0 ? st.st_mtime : 0;
    if (modified && S_ISDIR(st.st_mode)) {
        /* The directory's time moves with its membership, the own-triples file's with those triples. */
        buf own = {0};
        buf_printf(&own, "%s/" LDP_DISK_CONTAINER_FILE, file);
        if (lstat(own.data, &st) == 0 && st.st_mtime > modified)
            modified = st.st_mtime;
        buf_free(&own);
    }
    free(file);
    return modified;
}

typedef struct walk {
    const char *root;
    bool owned;
    const ldp_disk_visitor *visitor;
    char *message;
    size_t size;
} walk;

static int walk_container(walk *w, const char *path);

static bool is_server_record(const char *path, const char *name) {
    return strcmp(path, "/") == 0 &&
           (strcmp(name, LDP_DISK_IDEMPOTENCY_DIR) == 0 || strcmp(name, LDP_DISK_DELETED_FILE) == 0);
}

static int walk_entry(walk *w, const char *dir, const char *path, const char *name) {
    buf file = {0}, member = {0};
    buf_printf(&file, "%s/%s", dir, name);
    int rc = 0;
    struct stat st;
    if (name[0] == '.') {
        if (w->owned && strncmp(name, LDP_DISK_TMP_PREFIX, strlen(LDP_DISK_TMP_PREFIX)) == 0)
            remove_tree(file.data);
        else if (strcmp(name, LDP_DISK_CONTAINER_FILE) != 0 && !is_server_record(path, name) && w->visitor->skipped)
            w->visitor->skipped(w->visitor->user, file.data, "names beginning with '.' are not served");
    } else if (has_control(name) || strlen(name) > LDP_NAME_MAX || strlen(path) + strlen(name) + 1 > LDP_PATH_MAX) {
        if (w->visitor->skipped)
            w->visitor->skipped(w->visitor->user, file.data, "name not servable");
    } else if (lstat(file.data, &st) != 0) {
        rc = fail(w->message, w->size, "cannot stat", file.data);
    } else if (S_ISDIR(st.st_mode)) {
        buf_printf(&member, "%s%s/", path, name);
        rc = walk_container(w, member.data);
    } else if (S_ISREG(st.st_mode)) {
        size_t len;
        char *data = ldp_disk_read_file(file.data, &len);
        if (!data && (errno == ELOOP || errno == EINVAL)) {
            if (w->visitor->skipped) /* replaced since the lstat */
                w->visitor->skipped(w->visitor->user, file.data, "not a regular file");
        } else if (!data) {
            rc = fail(w->message, w->size, "cannot read", file.data);
        } else {
            buf_printf(&member, "%s%s", path, name);
            rc = w->visitor->resource(w->visitor->user, member.data, data, len);
            free(data);
        }
    } else if (w->visitor->skipped) {
        w->visitor->skipped(w->visitor->user, file.data, unservable(&st));
    }
    buf_free(&file);
    buf_free(&member);
    return rc;
}

static int walk_container(walk *w, const char *path) {
    char *dir = fs_path(w->root, path);
    buf own_file = {0};
    buf_printf(&own_file, "%s/" LDP_DISK_CONTAINER_FILE, dir);
    size_t own_len = 0;
    char *own = ldp_disk_read_file(own_file.data, &own_len);
    int rc = 0;
    struct stat st;
    if (!own && errno != ENOENT) {
        if (lstat(own_file.data, &st) != 0)
            rc = fail(w->message, w->size, "cannot stat", own_file.data);
        else if (!S_ISREG(st.st_mode) && w->visitor->skipped)
            w->visitor->skipped(w->visitor->user, own_file.data, unservable(&st));
        else if (S_ISREG(st.st_mode))
            rc = fail(w->message, w->size, "cannot read", own_file.data);
    }
    buf_free(&own_file);
    if (rc == 0)
        rc = w->visitor->container(w->visitor->user, path, own ? own : "", own ? own_len : 0);
    free(own);
    size_t count = 0;
    char **names = rc == 0 ? list_dir(dir, &count) : NULL;
    if (rc == 0 && !names)
        rc = fail(w->message, w->size, "cannot list", dir);
    for (size_t i = 0; i < count; i++) {
        if (rc == 0)
            rc = walk_entry(w, dir, path, names[i]);
        free(names[i]);
    }
    free(names);
    free(dir);
    return rc;
}

int ldp_disk_walk(const char *root, bool owned, const ldp_disk_visitor *visitor, char *message, size_t size) {
    struct stat st;
    if (stat(root, &st) != 0) {
        if (!owned || errno != ENOENT)
            return fail(message, size, "cannot open", root);
        if (mkdir(root, 0755) != 0)
            return fail(message, size, "cannot create directory", root);
    } else if (!S_ISDIR(st.st_mode)) {
        snprintf(message, size, "%s: not a directory", root);
        return -1;
    }
    walk w = {root, owned, visitor, message, size};
    return walk_container(&w, "/");
}
