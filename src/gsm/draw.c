/* draw.c: the picture of draw.h: a Graphviz graph built from a shape (a cluster per stage, nodes for
 * milestones and guards, edges for reads and alternatives), laid out by dot and rendered in a child
 * process (draw.h says why), the picture coming back through a pipe. */
#define _GNU_SOURCE /* pipe2 */
#include "gsm/draw.h"

#include <errno.h>
#include <fcntl.h>
#include <gvc.h>
#include <gvplugin.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FILL_NONE_EVEN "#fafafa" /* no instance: stages alternate by depth */
#define FILL_NONE_ODD "#eeeeee"
#define FILL_NOT_SET_UP "#ffffff"
#define FILL_INACTIVE "#e0e0e0"
#define FILL_ACTIVE "#b6e8b0"
#define FILL_COMPLETED "#c6dcff"
#define FILL_ACHIEVED "#ffd966"
#define FILL_MILESTONE "#ffffff"
#define WAITS_FOR_SHOWN 90

/* A stage's call (shape.h design note 7): its box's border and a line under its name; answered: none. */
static const char *const call_colours[] = {NULL, NULL, "#c62828", "#1565c0", "#ef6c00"};

/* The plugins an SVG or dot picture needs, linked in: the drawing child of a threaded server loads no
 * library (dlopen takes locks another thread may have held at the fork), and no text layout plugin
 * (pango, with fontconfig and threads of its own) is used: Graphviz estimates text widths from its
 * Helvetica metrics, the font the picture names. */
extern gvplugin_library_t gvplugin_core_LTX_library;
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
static const lt_symlist_t linked_plugins[] = {
    {"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
    {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
    {NULL, NULL},
};

/* Graphviz's last error message, in the drawing child (each child has its own copy). */
static char graphviz_error[512];

static int keep_graphviz_error(char *message) {
    snprintf(graphviz_error, sizeof graphviz_error, "%s", message);
    size_t len = strlen(graphviz_error);
    while (len && (graphviz_error[len - 1] == '\n' || graphviz_error[len - 1] == ' '))
        graphviz_error[--len] = '\0';
    return 0;
}

void gsm_draw_label_text(buf *out, const char *text) {
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&': buf_puts(out, "&amp;"); break;
        case '<': buf_puts(out, "&lt;"); break;
        case '>': buf_puts(out, "&gt;"); break;
        case '"': buf_puts(out, "&quot;"); break;
        case '\'': buf_puts(out, "&#39;"); break;
        case '\\': buf_puts(out, "\\\\"); break; /* Graphviz reads \N, \G... in a label as names, \\ as \ */
        default: buf_putc(out, (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p);
        }
    }
}

static void set(void *object, const char *name, const char *value) {
    agsafeset(object, (char *)name, (char *)value, "");
}

void gsm_draw_set_html_label(Agraph_t *g, void *object, buf *label) {
    char *html = agstrdup_html(g, buf_cstr(label));
    agsafeset(object, "label", html, "");
    agstrfree(g, html);
}

static const char *stage_fill(const gsm_shape *shape, const gsm_shape_stage *stage) {
    if (!shape->instance)
        return stage->depth % 2 ? FILL_NONE_ODD : FILL_NONE_EVEN;
    if (stage->state == GSM_STATE_ACTIVE)
        return FILL_ACTIVE;
    if (stage->completed == 1)
        return FILL_COMPLETED;
    return stage->state == GSM_STATE_INACTIVE ? FILL_INACTIVE : FILL_NOT_SET_UP;
}

typedef struct drawing {
    const gsm_shape *shape;
    Agraph_t *g;
    Agraph_t **clusters;  /* per stage */
    Agnode_t **endpoints; /* per stage: a node inside its cluster, for edges that end at the cluster */
    Agnode_t **milestones;
    Agnode_t **guards;
} drawing;

static void add_stage_cluster(drawing *d, size_t i) {
    const gsm_shape_stage *stage = &d->shape->stages[i];
    char name[64];
    snprintf(name, sizeof name, "cluster_s%zu", i);
    Agraph_t *parent = stage->parent == GSM_SHAPE_NONE ? d->g : d->clusters[stage->parent];
    Agraph_t *c = d->clusters[i] = agsubg(parent, name, 1);
    snprintf(name, sizeof name, "stage-%zu", i);
    set(c, "id", name);
    set(c, "style", "rounded,filled");
    set(c, "fillcolor", stage_fill(d->shape, stage));
    const char *call = call_colours[stage->call];
    set(c, "color", call ? call : stage->state == GSM_STATE_ACTIVE ? "#2e7d32" : "#555555");
    set(c, "penwidth", call ? "3" : stage->state == GSM_STATE_ACTIVE ? "2" : "1");
    buf label = {0};
    buf_puts(&label, "<B>");
    gsm_draw_label_text(&label, stage->name);
    buf_puts(&label, "</B>");
    if (d->shape->instance) {
        buf_puts(&label, "<BR/><I>");
        gsm_draw_label_text(&label, gsm_shape_stage_word(d->shape, stage));
        buf_puts(&label, "</I>");
    }
    if (call)
        buf_printf(&label, "<BR/><FONT COLOR=\"%s\">call %s</FONT>", call, gsm_shape_call_name(stage->call));
    gsm_draw_set_html_label(d->g, c, &label);
    buf_free(&label);
}

static void add_milestone_node(drawing *d, size_t i) {
    const gsm_shape_milestone *m = &d->shape->milestones[i];
    char name[64];
    snprintf(name, sizeof name, "m%zu", i);
    Agnode_t *n = d->milestones[i] = agnode(d->clusters[m->stage], name, 1);
    snprintf(name, sizeof name, "milestone-%zu", i);
    set(n, "id", name);
    set(n, "shape", "ellipse");
    set(n, "style", "filled");
    set(n, "fillcolor", m->achieved == 1 ? FILL_ACHIEVED : FILL_MILESTONE);
    buf label = {0};
    gsm_draw_label_text(&label, m->name);
    if (m->achieved == 1)
        buf_puts(&label, "<BR/><I>achieved</I>");
    gsm_draw_set_html_label(d->g, n, &label);
    buf_free(&label);
}

/* A guard is a diamond with its name beside it: one HTML-like label, whose diamond cell (port "d")
 * the reading arrows point at. */
static void add_guard_node(drawing *d, size_t i) {
    const gsm_shape_guard *guard = &d->shape->guards[i];
    char name[64];
    snprintf(name, sizeof name, "g%zu", i);
    Agnode_t *n = d->guards[i] = agnode(d->clusters[guard->stage], name, 1);
    snprintf(name, sizeof name, "guard-%zu", i);
    set(n, "id", name);
    set(n, "shape", "none");
    set(n, "margin", "0");
    buf label = {0};
    buf_puts(&label, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\"><TR>"
                     "<TD PORT=\"d\"><FONT POINT-SIZE=\"16\">&#9671;</FONT></TD><TD><FONT POINT-SIZE=\"9\">");
    gsm_draw_label_text(&label, guard->name);
    if (guard->waits_for) {
        /* at most WAITS_FOR_SHOWN bytes of it, cut between characters: a long description would widen
         * the whole picture */
        size_t len = strlen(guard->waits_for);
        bool cut = len > WAITS_FOR_SHOWN;
        if (cut)
            for (len = WAITS_FOR_SHOWN; len && ((unsigned char)guard->waits_for[len] & 0xC0) == 0x80; len--)
                ;
        char *shown = xstrndup(guard->waits_for, len);
        buf_puts(&label, "<BR/><I>waits for: ");
        gsm_draw_label_text(&label, shown);
        buf_puts(&label, cut ? "...</I>" : "</I>");
        free(shown);
    }
    buf_puts(&label, "</FONT></TD></TR></TABLE>");
    gsm_draw_set_html_label(d->g, n, &label);
    buf_free(&label);
}

/* Each stage's endpoint: its first milestone, else its first guard, else its first child's endpoint,
 * else an invisible point (which also keeps an empty stage drawn: Graphviz omits empty clusters).
 * Children come after their parents, so they are done first walking backwards. */
static void add_endpoints(drawing *d) {
    const gsm_shape *shape = d->shape;
    for (size_t i = shape->stage_count; i-- > 0;) {
        Agnode_t *endpoint = NULL;
        for (size_t m = 0; m < shape->milestone_count && !endpoint; m++)
            if (shape->milestones[m].stage == i)
                endpoint = d->milestones[m];
        for (size_t g = 0; g < shape->guard_count && !endpoint; g++)
            if (shape->guards[g].stage == i)
                endpoint = d->guards[g];
        for (size_t c = i + 1; c < shape->stage_count && !endpoint; c++)
            if (shape->stages[c].parent == i)
                endpoint = d->endpoints[c];
        if (!endpoint) {
            char name[64];
            snprintf(name, sizeof name, "a%zu", i);
            endpoint = agnode(d->clusters[i], name, 1);
            set(endpoint, "shape", "point");
            set(endpoint, "style", "invis");
            set(endpoint, "width", "0.3");
            set(endpoint, "label", "");
        }
        d->endpoints[i] = endpoint;
    }
}

static void add_invisible_edge(drawing *d, Agnode_t *tail, Agnode_t *head) {
    Agedge_t *e = agedge(d->g, tail, head, NULL, 1);
    set(e, "style", "invis");
}

/* Invisible edges that put each stage's guards before its child stages and those before its
 * milestones, left to right: a stage is entered through its guards and left through its milestones. */
static void add_order_edges(drawing *d) {
    const gsm_shape *shape = d->shape;
    for (size_t i = 0; i < shape->stage_count; i++) {
        Agnode_t *first = NULL, *last = NULL;
        for (size_t g = 0; g < shape->guard_count && !first; g++)
            if (shape->guards[g].stage == i)
                first = d->guards[g];
        for (size_t m = shape->milestone_count; m-- > 0 && !last;)
            if (shape->milestones[m].stage == i)
                last = d->milestones[m];
        for (size_t c = i + 1; c < shape->stage_count; c++)
            if (shape->stages[c].parent == i) {
                if (first)
                    add_invisible_edge(d, first, d->endpoints[c]);
                if (last)
                    add_invisible_edge(d, d->endpoints[c], last);
            }
        if (first && last)
            add_invisible_edge(d, first, last);
    }
}

static void add_edges(drawing *d) {
    const gsm_shape *shape = d->shape;
    add_order_edges(d);
    for (size_t g = 0; g < shape->guard_count; g++)
        for (size_t k = 0; k < shape->guards[g].read_count; k++) {
            const gsm_shape_read *read = &shape->guards[g].reads[k];
            Agedge_t *e = agedge(d->g, d->milestones[read->milestone], d->guards[g], NULL, 1);
            set(e, "headport", "d:w");
            if (read->negated) {
                set(e, "style", "dotted");
                set(e, "color", "#999999");
                set(e, "arrowhead", "tee");
                set(e, "constraint", "false");
            }
        }
    for (size_t i = 0; i < shape->stage_count; i++) {
        size_t next = shape->stages[i].next_alternative;
        if (next == GSM_SHAPE_NONE)
            continue;
        Agedge_t *e = agedge(d->g, d->endpoints[i], d->endpoints[next], NULL, 1);
        set(e, "style", "dashed");
        set(e, "label", "then");
        set(e, "ltail", agnameof(d->clusters[i]));
        set(e, "lhead", agnameof(d->clusters[next]));
    }
}

/* With an instance: the instance and what the colours mean, under the picture. */
static void add_legend(drawing *d) {
    if (!d->shape->instance)
        return;
    buf label = {0};
    buf_puts(&label, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"2\"><TR><TD BORDER=\"0\">");
    gsm_draw_label_text(&label, d->shape->instance);
    buf_puts(&label, "</TD><TD BGCOLOR=\"" FILL_ACTIVE "\">active</TD><TD BGCOLOR=\"" FILL_INACTIVE
                     "\">inactive</TD><TD BGCOLOR=\"" FILL_COMPLETED "\">completed</TD><TD BGCOLOR=\"" FILL_ACHIEVED
                     "\">achieved</TD>");
    /* the calls' colours, those of the calls drawn */
    for (int call = GSM_CALL_EXHAUSTED; call <= GSM_CALL_RETRYING; call++)
        for (size_t i = 0; i < d->shape->stage_count; i++)
            if ((int)d->shape->stages[i].call == call) {
                buf_printf(&label, "<TD BGCOLOR=\"%s\"><FONT COLOR=\"white\">call %s</FONT></TD>", call_colours[call],
                           gsm_shape_call_name((enum gsm_shape_call)call));
                break;
            }
    buf_puts(&label, "</TR></TABLE>");
    gsm_draw_set_html_label(d->g, d->g, &label);
    set(d->g, "labelloc", "b");
    buf_free(&label);
}

static Agraph_t *build_graph(const gsm_shape *shape, drawing *d) {
    *d = (drawing){
        .shape = shape,
        .g = agopen("workflow", Agdirected, NULL),
        .clusters = xcalloc(shape->stage_count + 1, sizeof *d->clusters),
        .endpoints = xcalloc(shape->stage_count + 1, sizeof *d->endpoints),
        .milestones = xcalloc(shape->milestone_count + 1, sizeof *d->milestones),
        .guards = xcalloc(shape->guard_count + 1, sizeof *d->guards),
    };
    set(d->g, "compound", "true");
    set(d->g, "rankdir", "LR");
    set(d->g, "fontname", "Helvetica");
    set(d->g, "fontsize", "12");
    agattr(d->g, AGNODE, "fontname", "Helvetica");
    agattr(d->g, AGNODE, "fontsize", "10");
    agattr(d->g, AGEDGE, "fontname", "Helvetica");
    agattr(d->g, AGEDGE, "fontsize", "9");
    for (size_t i = 0; i < shape->stage_count; i++)
        add_stage_cluster(d, i);
    for (size_t i = 0; i < shape->milestone_count; i++)
        add_milestone_node(d, i);
    for (size_t i = 0; i < shape->guard_count; i++)
        add_guard_node(d, i);
    add_endpoints(d);
    add_edges(d);
    add_legend(d);
    return d->g;
}

/* Writes all of data to fd; false when the reader is gone. */
static bool write_all(int fd, const char *data, size_t len) {
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* The child's work (nothing is freed: the process ends): builds the graph, lays it out and writes to fd
 * 'o' and the picture, or 'e' and a message. A PNG needs the cairo plugin, loaded as the installed
 * configuration lists it. */
static void draw_in_child(gsm_draw_build_fn build, const void *user, enum gsm_draw_format format, int fd) {
    static const char *const renderers[] = {"svg", "png", "dot"};
    agseterr(AGERR);
    agseterrf(keep_graphviz_error);
    GVC_t *context = format == GSM_DRAW_PNG ? gvContext() : gvContextPlugins(linked_plugins, 0);
    Agraph_t *g = build(user);
    char *data = NULL;
    unsigned len = 0;
    char message[700];
    if (gvLayout(context, g, "dot") != 0) {
        snprintf(message, sizeof message, "eGraphviz could not lay the picture out%s%s", graphviz_error[0] ? ": " : "",
                 graphviz_error);
    } else if (gvRenderData(context, g, (char *)renderers[format], &data, &len) != 0 || !data) {
        snprintf(message, sizeof message, "eGraphviz could not render %s%s%s", renderers[format],
                 graphviz_error[0] ? ": " : " (is its plugin installed?)", graphviz_error);
    } else {
        write_all(fd, "o", 1);
        write_all(fd, data, len);
        return;
    }
    write_all(fd, message, strlen(message));
}

/* Reads the child's answer until it closes the pipe or the deadline passes (then false). */
static bool read_answer(int fd, buf *answer) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char chunk[65536];
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long waited = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (waited >= GSM_DRAW_TIME_LIMIT_MS)
            return false;
        struct pollfd ready = {fd, POLLIN, 0};
        int polled = poll(&ready, 1, (int)(GSM_DRAW_TIME_LIMIT_MS - waited));
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled <= 0)
            return false;
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return true;
        buf_append(answer, chunk, (size_t)n);
    }
}

static Agraph_t *build_shape_graph(const void *shape) {
    drawing d;
    return build_graph(shape, &d);
}

int gsm_draw(const gsm_shape *shape, enum gsm_draw_format format, buf *out, char *error, size_t error_len) {
    if (!shape->has_model || !shape->stage_count) {
        snprintf(error, error_len, "no model to draw");
        return -1;
    }
    return gsm_draw_graph(build_shape_graph, shape, format, out, error, error_len);
}

int gsm_draw_graph(gsm_draw_build_fn build, const void *user, enum gsm_draw_format format, buf *out, char *error,
                   size_t error_len) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(error, error_len, "cannot draw: pipe: %s", strerror(errno));
        return -1;
    }
    pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        draw_in_child(build, user, format, fds[1]);
        _exit(0); /* no atexit handler, no stdio flush: the parent's buffers are not the child's to write */
    }
    close(fds[1]);
    if (child < 0) {
        snprintf(error, error_len, "cannot draw: fork: %s", strerror(errno));
        close(fds[0]);
        return -1;
    }
    buf answer = {0};
    bool in_time = read_answer(fds[0], &answer);
    close(fds[0]);
    if (!in_time)
        kill(child, SIGKILL);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    int rc = -1;
    if (!in_time)
        snprintf(error, error_len, "Graphviz took longer than %d s to draw the picture", GSM_DRAW_TIME_LIMIT_MS / 1000);
    else if (answer.len && answer.data[0] == 'o') {
        buf_append(out, answer.data + 1, answer.len - 1);
        rc = 0;
    } else if (answer.len && answer.data[0] == 'e')
        snprintf(error, error_len, "%.*s", (int)(answer.len - 1), answer.data + 1);
    else if (WIFSIGNALED(status))
        snprintf(error, error_len, "Graphviz failed (signal %d) drawing the picture", WTERMSIG(status));
    else
        snprintf(error, error_len, "Graphviz failed drawing the picture");
    buf_free(&answer);
    return rc;
}
