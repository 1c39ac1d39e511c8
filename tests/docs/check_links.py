#!/usr/bin/env python3
"""Every relative link in README.md and docs/**/*.md names a file or folder of the tree, and every
#anchor into a markdown file names one of its headings (GitHub's heading ids). Links inside code (fenced
blocks, `spans`) are not links. Prints FILE:LINE: the link and what is wrong, one line each, and exits 1
when any is broken. Usage: check_links.py [ROOT] [FILE.md ...] (default: this checkout, README.md and
docs/**/*.md)."""
import os
import re
import sys
import urllib.parse

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
SPAN = re.compile(r"(`+)(.+?)\1", re.S)
INLINE = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)", re.M)
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
HTML_ID = re.compile(r"<a\s[^>]*(?:name|id)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


def blank(text):
    """TEXT with code replaced by spaces, newlines kept, so offsets and line numbers stay."""
    lines = text.split("\n")
    fence = None
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            lines[i] = ""
        elif m:
            fence = m.group(1)
            lines[i] = ""
    text = "\n".join(lines)
    return SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def slug(heading):
    """GitHub's id for a heading: the rendered text lowercased, punctuation dropped, spaces as '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


anchor_cache = {}


def anchors(path):
    """The ids of PATH's headings (outside fenced code; a repeated heading gets -1, -2, ...) and of its
    HTML anchors."""
    if path not in anchor_cache:
        found, seen, fence = set(), {}, None
        with open(path, encoding="utf-8") as f:
            text = f.read()
        found.update(HTML_ID.findall(text))
        for line in text.split("\n"):
            m = FENCE.match(line)
            if fence:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            m = HEADING.match(line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        anchor_cache[path] = found
    return anchor_cache[path]


def check(root, md):
    problems = []
    with open(md, encoding="utf-8") as f:
        text = blank(f.read())
    targets = [(m.start(2), m.group(2)) for m in INLINE.finditer(text)]
    targets += [(m.start(1), m.group(1)) for m in REFERENCE.finditer(text)]
    for offset, target in sorted(targets):
        line = text.count("\n", 0, offset) + 1
        where = f"{os.path.relpath(md, root)}:{line}"
        target = target.strip("<>")
        if SCHEME.match(target):
            continue
        path, _, anchor = target.partition("#")
        path = urllib.parse.unquote(path)
        if path == "":
            resolved = md
        elif path.startswith("/"):
            resolved = os.path.normpath(os.path.join(root, path.lstrip("/")))
        else:
            resolved = os.path.normpath(os.path.join(os.path.dirname(md), path))
        if not os.path.exists(resolved):
            problems.append(f"{where}: broken link '{target}': {os.path.relpath(resolved, root)} does not exist")
            continue
        if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
            if urllib.parse.unquote(anchor) not in anchors(resolved):
                problems.append(f"{where}: broken link '{target}': {os.path.relpath(resolved, root)} has no "
                                f"heading with the id '{anchor}'")
    return problems


def main(argv):
    root = os.path.abspath(argv[1]) if len(argv) > 1 else \
        os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    files = [os.path.abspath(f) for f in argv[2:]]
    if not files:
        files = [os.path.join(root, "README.md")]
        for folder, _, names in os.walk(os.path.join(root, "docs")):
            files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    problems = []
    for md in sorted(files):
        problems += check(root, md)
    for p in problems:
        print(p)
    print(f"{len(files)} files checked, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
