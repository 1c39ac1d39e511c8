#!/usr/bin/env python3
"""Checks a state diagram of `ldgsm draw` (tests/wsm/run_draw.sh). Exit 0 when it holds, 1 with a message.

  draw_check.py states SVG NAME...          the SVG parses and each NAME is a state's box
  draw_check.py edge SVG FROM TO LABEL      an arrow from state FROM to state TO labelled LABEL
  draw_check.py initial SVG NAME            the arrow from the small point ends at state NAME
  draw_check.py current SVG NAME            exactly one state is marked "current": NAME, filled; no other
                                            state is filled
  draw_check.py note SVG LINE...            the instance's note shows each LINE
"""
import os
import sys

# the SVG reading of the GSM drawings' checker
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "gsm"))
from draw_check import SVG, fail, texts, parse_svg as parse  # noqa: E402


def nodes(root):
    """title -> (id, texts, fill) of every node."""
    found = {}
    for g in root.iter(SVG + "g"):
        if g.get("class") == "node":
            fill = None
            for shape in g:
                if shape.tag in (SVG + "path", SVG + "polygon", SVG + "ellipse"):
                    fill = shape.get("fill")
                    break
            found[g.find(SVG + "title").text] = (g.get("id", ""), texts(g), fill)
    return found


def states(root):
    return {title: node for title, node in nodes(root).items() if node[0].startswith("state-")}


def state_title(root, name):
    titles = [title for title, (_, shown, _) in states(root).items() if shown[:1] == [name]]
    if len(titles) != 1:
        fail(f"{len(titles)} states named {name!r} (states: {[n[1] for n in states(root).values()]})")
    return titles[0]


def edges(root):
    """(tail title, head title, label) of every edge."""
    for g in root.iter(SVG + "g"):
        if g.get("class") == "edge":
            tail, head = g.find(SVG + "title").text.split("->")
            yield tail, head, " ".join(texts(g))


def main(mode, path, args):
    root = parse(path)
    if mode == "states":
        for name in args:
            state_title(root, name)
    elif mode == "edge":
        tail, head, label = state_title(root, args[0]), state_title(root, args[1]), args[2]
        labels = [shown for t, h, shown in edges(root) if (t, h) == (tail, head)]
        if label not in labels:
            fail(f"no arrow {args[0]!r} -> {args[1]!r} labelled {label!r}; those there: {labels}")
    elif mode == "initial":
        points = [title for title, (ident, _, _) in nodes(root).items() if ident.startswith("initial-")]
        heads = [h for t, h, _ in edges(root) if t in points]
        if heads != [state_title(root, args[0])]:
            fail(f"the initial arrow ends at {heads}, not at {args[0]!r}")
    elif mode == "current":
        marked = [(shown, fill) for _, shown, fill in states(root).values() if "current" in shown]
        if len(marked) != 1 or marked[0][0][0] != args[0] or marked[0][1] in (None, "none"):
            fail(f"the states marked current: {marked}, not {args[0]!r} filled")
        filled = [shown for _, shown, fill in states(root).values() if fill not in (None, "none")]
        if len(filled) != 1:
            fail(f"filled states: {filled}")
    elif mode == "note":
        note = [shown for ident, shown, _ in nodes(root).values() if ident == "instance"]
        missing = [line for line in args if not note or line not in note[0]]
        if missing:
            fail(f"the note {note} does not show {missing}")
    else:
        fail(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
