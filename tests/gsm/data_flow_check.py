#!/usr/bin/env python3
"""data_flow_check.py: what tests/gsm/run_data_flow.sh reads from status documents and request bodies
(DESIGN section 8), written independently of the agent's own code.

  record DOC STAGE FIELD      the value of ldgsm:FIELD of the call record of the stage instance of model
                              stage STAGE (an IRI) in the status document at DOC: a literal's lexical form
                              (unescaped), an IRI as itself; exit 1 when there is none
  prop DOC SUBJECT PREDICATE  each value of SUBJECT PREDICATE in DOC, one per line, as an N-Triples term
  key DOC STAGE               exit 0 when the record's Idempotency-Key is the one DESIGN 6.1 and 8 give:
                              SHA-1 of "<stage instance> <activatedAt> <alternative> <request hash>",
                              the request hash SHA-1 of "<method IRI>\\n<URI>\\n<header block>\\n<body>"
                              of the bytes the record says were sent; otherwise says why
  hostile ORDER.ttl VALUES.json
                              writes an order document holding hostile values (quotes, '>', '}',
                              newlines, non-ASCII, a template's own syntax, a 1 MiB string, an IRI
                              needing percent-encoding) and the values themselves as JSON
  show WHAT LOG ARG...        data_service.py show WHAT LOG ARG...
  request-body LOG N FILE     writes the body of request N of data_service.py's LOG to FILE
  sha1 COMMAND ARG...         the SHA-1 of what COMMAND prints (for values of a MiB)
  hostile-expect VALUES.json SERVICE ORDER DIR
                              writes what the request of those values must be to DIR: its path (the
                              values RFC 6570-encoded: all but unreserved characters), its X-Label, and
                              its body's triples (expected.json, for body)
  body BODY BASE EXPECTED.json
                              parses BODY (a request body) as Turtle with base BASE, with `ldgsm reason`
                              ($LDGSM) and, when node and N3.js (node_modules/n3) are there, with N3.js
                              too; exit 0 when each gives exactly the triples of EXPECTED.json:
                              {"triples": [[S, P, O], ...]}, O {"iri": X} or {"lit": X} (an xsd:string;
                              with "datatype": D, of that datatype)
  serve                       the same commands, one per line on standard input (tab-separated), each
                              answered by its output (ended by a newline) and a line "\\x1e" + its
                              exit status
"""
import contextlib
import hashlib
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request

LDGSM = "https://w3id.org/ldgsm#"
GSM = "http://purl.org/gsm/vocab#"
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

_TERM = r'(<[^>]*>|_:[^\s]+|"[^"\\]*(?:\\.[^"\\]*)*"(?:\^\^<[^>]*>|@[A-Za-z0-9-]+)?)'
_TRIPLE = re.compile(r"^\s*" + _TERM + r"\s+" + _TERM + r"\s+" + _TERM + r"\s*\.\s*$")
_UNESCAPE = re.compile(r'\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)')
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def unescape(s):
    return _UNESCAPE.sub(lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] in "uU"
                         else _ESCAPES.get(m.group(1), m.group(1)), s)


def term(t):
    """('iri', v) | ('blank', label) | ('lit', lexical, datatype, language)"""
    if t.startswith("<"):
        return ("iri", unescape(t[1:-1]))
    if t.startswith("_:"):
        return ("blank", t)
    end = t.rindex('"')
    lex, rest = unescape(t[1:end]), t[end + 1:]
    if rest.startswith("^^"):
        return ("lit", lex, rest[3:-1], "")
    if rest.startswith("@"):
        return ("lit", lex, "", rest[1:].lower())
    return ("lit", lex, XSD_STRING, "")


def parse_nt(text):
    out = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _TRIPLE.match(line)
        if not m:
            raise ValueError("not an N-Triples line: %r" % line[:200])
        out.append(tuple(term(x) for x in m.groups()))
    return out


def fetch(url):
    req = urllib.request.Request(url.split("#")[0], headers={"Accept": "application/n-triples"})
    with urllib.request.urlopen(req, timeout=20) as resp:
        return parse_nt(resp.read().decode("utf-8"))


def nt(o):
    if o[0] == "iri":
        return "<%s>" % o[1]
    if o[0] == "blank":
        return o[1]
    esc = o[1].replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    if o[3]:
        return '"%s"@%s' % (esc, o[3])
    return '"%s"' % esc if o[2] == XSD_STRING else '"%s"^^<%s>' % (esc, o[2])


def record_of(triples, stage):
    s = next((t[0][1] for t in triples if t[1] == ("iri", GSM + "isInstanceOf") and t[2] == ("iri", stage)), None)
    if s is None:
        return None, None
    records = {t[0] for t in triples if t[1] == ("iri", RDF_TYPE) and t[2] == ("iri", LDGSM + "CallRecord")}
    c = next((t[0][1] for t in triples
              if t[1] == ("iri", LDGSM + "ofStage") and t[2] == ("iri", s) and t[0] in records), None)
    return s, c


def value(triples, subject, pred):
    return [t[2] for t in triples if t[0] == ("iri", subject) and t[1] == ("iri", pred)]


def cmd_record(doc, stage, field):
    triples = fetch(doc)
    _, c = record_of(triples, stage)
    vals = value(triples, c, LDGSM + field) if c else []
    if not vals:
        return 1
    sys.stdout.write(vals[0][1])
    return 0


def cmd_prop(doc, subject, pred):
    for o in value(fetch(doc), subject, pred):
        print(nt(o))
    return 0


def sha1(text):
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def cmd_key(doc, stage):
    triples = fetch(doc)
    s, c = record_of(triples, stage)
    if c is None:
        print("no call record of %s" % stage)
        return 1
    f = {}
    for name in ("idempotencyKey", "activatedAt", "alternative", "sentAlternative", "sentMethod", "sentURI",
                 "sentHeaders", "sentBody"):
        vals = value(triples, c, LDGSM + name)
        if len(vals) != 1:
            print("the record has %d values of ldgsm:%s" % (len(vals), name))
            return 1
        f[name] = vals[0][1]
    if f["alternative"] != f["sentAlternative"]:
        print("the record sent alternative %s but calls %s" % (f["sentAlternative"], f["alternative"]))
        return 1
    h = sha1("%s\n%s\n%s\n%s" % (f["sentMethod"], f["sentURI"], f["sentHeaders"], f["sentBody"]))
    want = sha1("%s %s %s %s" % (s, f["activatedAt"], f["alternative"], h))
    if f["idempotencyKey"] != want:
        print("key %s is not SHA-1(stage activatedAt alternative request-hash) = %s" % (f["idempotencyKey"], want))
        return 1
    return 0


def turtle_string(v):
    return '"%s"' % v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")


def cmd_hostile(order_path, values_path):
    big = []
    chunk = "x" * 65532 + '"\n}\u00e9'  # 65536 characters, a quote, a newline, a brace, a non-ASCII one
    for _ in range(16):
        big.append(chunk)
    values = {
        "ref": "https://example.org/caf\u00e9/\u00fc?q=a&r=b#frag",
        "label": "q\"uo'te > } {id} ?name %41 & # \u00e9 \U0001F600 <x>",
        "text": "line 1\nline 2\r\n\"\"\" ''' } > < . ?order \\ \t ;\n<urn:x> <urn:y> \"z\" .\n# not a comment",
        "big": "".join(big),
    }
    assert len(values["big"]) == 1 << 20
    with open(order_path, "w", encoding="utf-8") as f:
        f.write("@prefix shop: <https://example.org/shop#> .\n<#it> shop:id \"adv\" ;\n")
        f.write("  shop:ref <%s> ;\n" % values["ref"])
        f.write("  shop:label %s ;\n  shop:text %s ;\n  shop:big %s .\n"
                % (turtle_string(values["label"]), turtle_string(values["text"]), turtle_string(values["big"])))
    with open(values_path, "w", encoding="utf-8") as f:
        json.dump(values, f, ensure_ascii=False)
    return 0


def cmd_hostile_expect(values_path, service, order, out_dir):
    """What the Adv request must be for the values: its path, its X-Label and its body's triples."""
    with open(values_path, encoding="utf-8") as f:
        v = json.load(f)
    path = "/adv/%s/%s" % (urllib.parse.quote(v["ref"], safe=""), urllib.parse.quote(v["label"], safe=""))
    s, p = service + path, "https://example.org/shop#"
    triples = [[s, p + "forOrder", {"iri": order}], [s, p + "ref", {"iri": v["ref"]}],
               [s, p + "label", {"lit": v["label"]}], [s, p + "text", {"lit": v["text"]}],
               [s, p + "big", {"lit": v["big"]}]]
    for name, text in (("path", path), ("label", v["label"]), ("expected.json", json.dumps({"triples": triples}))):
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(text)
    return 0


def parsed_by_ldgsm(body, base):
    ldgsm = os.environ.get("LDGSM")
    path = body + ".based.ttl"
    with open(body, encoding="utf-8") as f, open(path, "w", encoding="utf-8") as g:
        g.write("@base <%s> .\n" % base)
        g.write(f.read())
    out = subprocess.run([ldgsm, "reason", "--pass-merged", path], capture_output=True, timeout=60)
    if out.returncode != 0:
        raise ValueError("ldgsm reason: %s" % out.stderr.decode("utf-8", "replace")[:300])
    return parse_nt(out.stdout.decode("utf-8"))


N3JS = r"""
const fs = require('fs'), N3 = require(process.argv[1]);
const quads = new N3.Parser({ baseIRI: process.argv[3], format: 'text/turtle' }).parse(fs.readFileSync(process.argv[2], 'utf8'));
const w = new N3.Writer({ format: 'N-Triples' });
w.addQuads(quads);
w.end((e, r) => { if (e) throw e; process.stdout.write(r); });
"""


def parsed_by_n3js(body, base):
    root = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "node_modules", "n3")
    if not os.path.isdir(root):
        return None
    try:
        out = subprocess.run(["node", "-e", N3JS, os.path.abspath(root), body, base], capture_output=True,
                             timeout=60)
    except FileNotFoundError:
        return None
    if out.returncode != 0:
        raise ValueError("N3.js: %s" % out.stderr.decode("utf-8", "replace")[:300])
    return parse_nt(out.stdout.decode("utf-8"))


def cmd_body(body, base, expected_path):
    with open(expected_path, encoding="utf-8") as f:
        spec = json.load(f)
    want = sorted((("iri", s), ("iri", p),
                   ("iri", o["iri"]) if "iri" in o else ("lit", o["lit"], o.get("datatype", XSD_STRING), ""))
                  for s, p, o in spec["triples"])
    ok = True
    for name, reader in (("ldgsm reason", parsed_by_ldgsm), ("N3.js", parsed_by_n3js)):
        try:
            got = reader(body, base)
        except (ValueError, subprocess.TimeoutExpired) as e:
            print("%s does not read the body: %s" % (name, e))
            ok = False
            continue
        if got is None:
            print("(N3.js is not installed: the body is read by ldgsm only)")
            continue
        if sorted(got) != want:
            ok = False
            print("%s reads %d triples, %d expected; unexpected: %s; missing: %s" % (
                name, len(got), len(want), [tuple(nt(x) for x in t)[:3] for t in got if t not in want][:3],
                [tuple(nt(x)[:80] for x in t) for t in want if t not in got][:3]))
    return 0 if ok else 1


def cmd_sha1(*argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(list(argv))
    print(sha1(out.getvalue()))
    return rc


def cmd_request_body(log, n, path):
    requests, _ = data_service().read_log(log)
    with open(path, "w", encoding="utf-8") as f:
        f.write(requests[int(n)]["body"])
    return 0


def cmd_show(*argv):
    return data_service().show(list(argv))


_data_service = []


def data_service():
    if _data_service:
        return _data_service[0]
    spec = importlib.util.spec_from_file_location(
        "data_service", os.path.join(os.path.dirname(os.path.realpath(__file__)), "data_service.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _data_service.append(module)
    return module


def main(argv):
    cmds = {"record": (cmd_record, 3), "prop": (cmd_prop, 3), "key": (cmd_key, 2), "hostile": (cmd_hostile, 2),
            "body": (cmd_body, 3), "show": (cmd_show, None), "sha1": (cmd_sha1, None),
            "request-body": (cmd_request_body, 3), "hostile-expect": (cmd_hostile_expect, 4)}
    if not argv or argv[0] not in cmds or cmds[argv[0]][1] not in (None, len(argv) - 1):
        print(__doc__, file=sys.stderr)
        return 2
    return cmds[argv[0]][0](*argv[1:])


def serve():
    """The commands, one per line on standard input (arguments separated by tabs), each answered by its
    output (ended by a newline) and a line "\\x1e" + its exit status, as gsm_status.py serve does: a
    Python start costs more than a check on a loaded machine."""
    for line in sys.stdin:
        args = line.rstrip("\n").split("\t")
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                rc = main(args)
        except Exception as e:  # one bad request must not end the session the whole test relies on
            print("data_flow_check.py %s: %s: %s" % (args[0], type(e).__name__, e), file=sys.stderr)
            rc = 2
        text = out.getvalue()
        sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")
        print("\x1e%d" % rc, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(serve() if sys.argv[1:] == ["serve"] else main(sys.argv[1:]))
