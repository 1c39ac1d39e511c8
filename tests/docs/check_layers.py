#!/usr/bin/env python3
"""check_layers.py: every #include "LAYER/..." in src/ points to the file's own layer or to one that
docs/DESIGN.md section 3 lists below it (the table's "includes (below it)" column, read from the document
itself, so that the rule and its check cannot drift apart). Prints each offending include as FILE:LINE and
exits 1; exits 0 with a count otherwise.

Usage: check_layers.py REPOSITORY-ROOT
"""
import os
import re
import sys


def allowed_by_design(design_text):
    """{layer: set of layers it may include} from the table of section 3."""
    section = design_text.split("## 3. Layers", 1)[1].split("\n## ", 1)[0]
    allowed = {}
    for row in re.finditer(r"^\| \[(\w+)/\]\([^)]*\) \|.*\| ([^|]+) \|$", section, re.M):
        layer, below = row.group(1), row.group(2).strip()
        if below == "nothing":
            names = set()
        elif below == "all":
            names = None
        else:
            # "rdf, agent (vocab.h), gsm": the layer names, whatever the parentheses add
            names = {re.sub(r"\s*\(.*?\)", "", part).strip() for part in below.split(",")}
        allowed[layer] = names
    return allowed


def main():
    root = sys.argv[1]
    with open(os.path.join(root, "docs", "DESIGN.md"), encoding="utf-8") as f:
        allowed = allowed_by_design(f.read())
    if not allowed:
        sys.exit("check_layers.py: no layer table found in docs/DESIGN.md section 3")
    src = os.path.join(root, "src")
    layers = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    bad = checked = 0
    for layer in layers:
        if layer not in allowed:
            print("src/%s/: a layer docs/DESIGN.md section 3 does not list" % layer)
            bad += 1
            continue
        for name in sorted(os.listdir(os.path.join(src, layer))):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(src, layer, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s+"(\w+)/', line)
                    if not m:
                        continue
                    checked += 1
                    target = m.group(1)
                    if target == layer or allowed[layer] is None or target in allowed[layer]:
                        continue
                    print("src/%s/%s:%d: includes %s/, which docs/DESIGN.md section 3 does not put below %s/"
                          % (layer, name, number, target, layer))
                    bad += 1
    if bad:
        sys.exit(1)
    print("check_layers.py: %d includes in %d layers point downward" % (checked, len(layers)))


if __name__ == "__main__":
    main()
