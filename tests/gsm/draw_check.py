#!/usr/bin/env python3
"""Checks a picture of `ldgsm draw` (tests/gsm/run_draw.sh, run_page.sh). Exit 0 when it holds, 1 with a
message when not.

  draw_check.py names MODEL.nt SVG   the SVG parses as SVG and every stage's and milestone's name in the
                                     model (N-Triples, as `ldgsm reason` prints it) is the text of a <text>
  draw_check.py colours SVG STAGE... the fill of each named stage's box is the legend's colour for the state
                                     given as NAME=STATE (active, inactive, completed), and of each
                                     milestone given as NAME=achieved or NAME=open the legend's "achieved"
                                     colour or not
  draw_check.py calls SVG STAGE=CALL...
                                     the box of each named stage says "call CALL" (calling, retrying,
                                     exhausted) and its border is the legend's "call CALL" colour; a stage
                                     given as NAME=none says no call and has none of those colours
  draw_check.py guard SVG GUARD TEXT the guard whose text is GUARD says "waits for: ..." holding TEXT
  draw_check.py edge SVG FROM TO KIND an arrow from the node whose text is FROM to the one whose text is TO,
                                     KIND solid, dotted (a read as not achieved) or then (dashed, "then")
  draw_check.py page DOM INSTANCE NAME=STATE...
                                     the page as a browser holds it (chromium --dump-dom) lists INSTANCE with
                                     root state active, each named stage with its state in its table, and
                                     an <svg> showing the stage names in the instance's section
  draw_check.py console DOM INSTANCE STATE TEXT...
                                     the console as a browser holds it: the counts line counts STATE, and
                                     INSTANCE's row of the table #instances links its own page, shows
                                     STATE, and its "why it waits" cell holds each TEXT
"""
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

SVG = "{http://www.w3.org/2000/svg}"
GSM = "http://purl.org/gsm/vocab#"
DRAFT = "http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
TERM = re.compile(r'<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:@[\w-]+|\^\^<[^>]*>)?')


def fail(message):
    print(message)
    sys.exit(1)


def unescape(literal):
    body = literal[1:literal.rindex('"')]
    return re.sub(r'\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})|\\(.)',
                  lambda m: chr(int(m.group(1) or m.group(2), 16)) if (m.group(1) or m.group(2))
                  else {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(3), m.group(3)), body)


def model_names(nt_path):
    """The names of the stages and milestones of the model, as shape.h names them."""
    triples = []
    for line in open(nt_path, encoding="utf-8"):
        terms = TERM.findall(line)
        if len(terms) >= 3:
            triples.append(terms[:3])
    stage_types = {f"<{GSM}Stage>", f"<{DRAFT}StageModel>"}
    child = {f"<{GSM}hasChildStage>", f"<{DRAFT}hasChildStage>"}
    has_milestone = {f"<{GSM}hasMilestone>", f"<{DRAFT}hasMilestoneModel>"}
    stages, milestones, labels = [], [], {}
    for s, p, o in triples:
        if p == f"<{RDF_TYPE}>" and o in stage_types:
            stages.append(s)
        if p in child:
            stages += [s, o]
        if p in has_milestone:
            milestones.append(o)
        if p == f"<{LABEL}>" and o.startswith('"') and s not in labels:
            labels[s] = unescape(o)

    def name(term):
        if term in labels:
            return labels[term]
        return term[1:-1].rsplit("#", 1)[-1]
    return {name(t) for t in stages}, {name(t) for t in milestones}


def parse_svg(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(f"{path}: not XML: {e}")
    if root.tag != SVG + "svg":
        fail(f"{path}: the root element is {root.tag}, not svg")
    return root


def texts(element):
    return [t.text or "" for t in element.iter(SVG + "text")]


def groups(root, cls):
    return [g for g in root.iter(SVG + "g") if g.get("class") == cls]


def fill_of(group):
    for shape in group:
        if shape.tag in (SVG + "path", SVG + "polygon", SVG + "ellipse") and shape.get("fill") not in (None, "none"):
            return shape.get("fill")
    return None


def legend(root):
    """The legend's cells: a filled polygon followed by the text naming its colour."""
    colours, last_fill = {}, None
    for element in root.find(SVG + "g"):
        if element.tag == SVG + "polygon" and element.get("fill") not in (None, "none", "white"):
            last_fill = element.get("fill")
        elif element.tag == SVG + "text" and last_fill:
            colours[element.text] = last_fill
            last_fill = None
    return colours


def check_names(nt_path, svg_path):
    root = parse_svg(svg_path)
    shown = set(texts(root))
    stages, milestones = model_names(nt_path)
    if not stages:
        fail(f"{nt_path}: no stage found by the checker")
    missing = sorted((stages | milestones) - shown)
    if missing:
        fail(f"{svg_path}: no <text> shows {missing}")


def check_colours(svg_path, wanted):
    root = parse_svg(svg_path)
    colours = legend(root)
    for item in wanted:
        name, state = item.rsplit("=", 1)
        if state in ("achieved", "open"):
            nodes = [g for g in groups(root, "node") if name in texts(g)]
            if not nodes:
                fail(f"{svg_path}: no milestone {name!r}")
            fill = fill_of(nodes[0])
            if (fill == colours.get("achieved")) != (state == "achieved"):
                fail(f"{svg_path}: milestone {name!r} is filled {fill}, legend 'achieved' is {colours.get('achieved')}")
            continue
        boxes = [g for g in groups(root, "cluster") if texts(g)[:1] == [name]]
        if not boxes:
            fail(f"{svg_path}: no stage box named {name!r}")
        fill = fill_of(boxes[0])
        if state not in colours or fill != colours[state]:
            fail(f"{svg_path}: stage {name!r} is filled {fill}, the legend's {state!r} is {colours.get(state)}")


def stroke_of(group):
    for shape in group:
        if shape.tag in (SVG + "path", SVG + "polygon") and shape.get("stroke") not in (None, "none"):
            return shape.get("stroke")
    return None


def check_calls(svg_path, wanted):
    root = parse_svg(svg_path)
    colours = legend(root)
    call_colours = {colours[k] for k in colours if k.startswith("call ")}
    for item in wanted:
        name, call = item.rsplit("=", 1)
        boxes = [g for g in groups(root, "cluster") if texts(g)[:1] == [name]]
        if not boxes:
            fail(f"{svg_path}: no stage box named {name!r}")
        said = [t for t in texts(boxes[0]) if t.startswith("call ")]
        stroke = stroke_of(boxes[0])
        if call == "none":
            if said or stroke in call_colours:
                fail(f"{svg_path}: stage {name!r} shows a call ({said}, border {stroke})")
            continue
        if said[:1] != [f"call {call}"]:
            fail(f"{svg_path}: stage {name!r} says {said}, not 'call {call}'")
        if f"call {call}" not in colours or stroke != colours[f"call {call}"]:
            fail(f"{svg_path}: stage {name!r}'s border is {stroke}, the legend's 'call {call}' is "
                 f"{colours.get(f'call {call}')}")


def check_guard(svg_path, guard, text):
    root = parse_svg(svg_path)
    nodes = [g for g in groups(root, "node") if guard in texts(g)]
    if not nodes:
        fail(f"{svg_path}: no guard {guard!r}")
    says = [t for t in texts(nodes[0]) if t.startswith("waits for: ")]
    if not says or text not in says[0]:
        fail(f"{svg_path}: guard {guard!r} says {says}, not {text!r}")


def check_edge(svg_path, tail_text, head_text, kind):
    root = parse_svg(svg_path)
    ids = {}
    for g in groups(root, "node"):
        title = g.find(SVG + "title").text
        ids[title] = texts(g)
    for g in groups(root, "edge"):
        title = g.find(SVG + "title").text
        tail, head = title.split("->")
        tail, head = tail.split(":")[0], head.split(":")[0]
        if tail_text not in ids.get(tail, []) or head_text not in ids.get(head, []):
            continue
        path = g.find(SVG + "path")
        dashes = path.get("stroke-dasharray")
        style = "solid" if not dashes else "dotted" if dashes.startswith("1,") else "dashed"
        if kind == "then" and style == "dashed" and "then" in texts(g):
            return
        if kind == style:
            return
        fail(f"{svg_path}: the arrow {tail_text!r} -> {head_text!r} is {style}, not {kind}")
    fail(f"{svg_path}: no arrow {tail_text!r} -> {head_text!r}")


class PageSections(HTMLParser):
    """Each <section> of the page: its text, its table rows (cell texts), the texts of its <svg>."""

    def __init__(self):
        super().__init__()
        self.sections, self.row, self.cell, self.svg_depth, self.in_text = [], None, None, 0, False

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.sections.append({"text": "", "rows": [], "svg_texts": [], "svg": False})
        elif tag == "tr":
            self.row = []
        elif tag == "td":
            self.cell = ""
        elif tag == "svg" and self.sections:
            self.sections[-1]["svg"] = True
            self.svg_depth += 1
        elif tag == "text" and self.svg_depth:
            self.sections[-1]["svg_texts"].append("")
            self.in_text = True

    def handle_endtag(self, tag):
        if tag == "td" and self.row is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row and self.sections:
            self.sections[-1]["rows"].append(self.row)
            self.row = None
        elif tag == "svg":
            self.svg_depth -= 1
        elif tag == "text":
            self.in_text = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.sections:
            self.sections[-1]["text"] += data
            if self.in_text:
                self.sections[-1]["svg_texts"][-1] += data


def check_page(dom_path, instance, wanted):
    parser = PageSections()
    parser.feed(open(dom_path, encoding="utf-8").read())
    ours = [s for s in parser.sections if instance in s["text"]]
    if not ours:
        fail(f"{instance} is not listed")
    section = ours[0]
    if "root state active" not in " ".join(section["text"].split()):
        fail("the root state 'active' is not shown")
    states = {row[0]: row[1] for row in section["rows"] if len(row) >= 2}
    for item in wanted:
        name, state = item.rsplit("=", 1)
        if states.get(name) != state:
            fail(f"{name}: shown {states.get(name)!r}, the status document says {state!r}")
        if name not in section["svg_texts"]:
            fail(f"{name}: not in the drawing's texts {section['svg_texts']}")
    if not section["svg"]:
        fail("no <svg> in the instance's section")


class ConsoleRows(HTMLParser):
    """The text of #counts, and the rows of #instances: cell texts and the links' hrefs."""

    def __init__(self):
        super().__init__()
        self.counts, self.rows, self.where, self.row, self.cell = "", [], None, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id") in ("counts", "instances"):
            self.where = attrs["id"]
        elif tag == "tr" and self.where == "instances":
            self.row = {"cells": [], "hrefs": []}
        elif tag == "td" and self.row is not None:
            self.cell = ""
        elif tag == "a" and self.row is not None:
            self.row["hrefs"].append(attrs.get("href", ""))

    def handle_endtag(self, tag):
        if tag == "p" and self.where == "counts" or tag == "table":
            self.where = None
        elif tag == "td" and self.cell is not None:
            self.row["cells"].append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.where == "counts":
            self.counts += data
        if self.cell is not None:
            self.cell += data


def check_console(dom_path, instance, state, texts):
    parser = ConsoleRows()
    parser.feed(open(dom_path, encoding="utf-8").read())
    if not re.search(r"\b\d+ " + re.escape(state) + r"\b", parser.counts):
        fail(f"the counts {parser.counts!r} do not count {state!r}")
    rows = [r for r in parser.rows if r["cells"] and r["cells"][0].startswith(instance + " ")]
    if not rows:
        fail(f"{instance} has no row in #instances")
    row = rows[0]
    if not any(href.startswith("?instance=") for href in row["hrefs"]):
        fail(f"{instance}'s row does not link its own page: {row['hrefs']}")
    if len(row["cells"]) < 4 or row["cells"][2] != state:
        fail(f"{instance}'s row shows {row['cells'][2:3]}, not {state!r}")
    why = " ".join(row["cells"][3].split())
    for text in texts:
        if text not in why:
            fail(f"{instance}'s row does not say {text!r}: {why!r}")


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "names":
        check_names(*args)
    elif mode == "colours":
        check_colours(args[0], args[1:])
    elif mode == "edge":
        check_edge(*args)
    elif mode == "calls":
        check_calls(args[0], args[1:])
    elif mode == "guard":
        check_guard(*args)
    elif mode == "page":
        check_page(args[0], args[1], args[2:])
    elif mode == "console":
        check_console(args[0], args[1], args[2], args[3:])
    else:
        fail(f"unknown mode {mode}")
