// Compares two N3 documents as N3 graphs, for the N3 suite runner (run.js): equal when one is the other
// with blank nodes and variables renamed, quoted formulas and lists compared by content, and repeated
// statements counted once.
//
// How: N3.js reads each document into quads whose graph term is the blank node of the formula holding
// them. Each top-level statement becomes a tree: lists (well-formed rdf:first/rest chains of blank nodes)
// fold into list terms, formulas into their sets of triples. A statement's variables are its own (N3 scopes
// a quick variable ?x to the statement; N3.js gives every ?x of a document one term), and so are the blank
// nodes inside its formulas (N3.js scopes those to the formula). Each statement gets a canonical string by
// colour refinement and individualisation over its terms, the smallest string over the search; blank nodes
// of the document's default graph ("global") appear in it as $0, $1, ... in canonical order. Statements
// without global blank nodes are then compared as sets of strings; the rest by matching the global blank
// nodes (colour refinement on both sides, backtracking on ties).
//
// `a <= b` is read as `a log:isImpliedBy b` (the suite's grammar), not as `b log:implies a`.
//
// Terms: IRIs and literals are compared as RDF terms: lexical form, datatype, language tag (case-folded).
// A number written 2 is "2"^^xsd:integer; 2.0 is "2.0"^^xsd:decimal, which is not "2"^^xsd:decimal. The
// empty formula {} is a formula, not the literal true.
'use strict';
const path = require('path');
const N3 = require(path.resolve(__dirname, '../../node_modules/n3'));

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
// The search for a statement's canonical form, or for a blank node matching, gives up after this many steps.
const SEARCH_BUDGET = 20000;

// N3.js tells a formula's blank node from any other only while parsing: remember each formula it opens,
// so that an empty formula {} is still a formula.
class FormulaRecordingParser extends N3.Parser {
  _saveContext(type, ...rest) {
    super._saveContext(type, ...rest);
    if (type === 'formula') this.formulaIds.add(this._graph.value);
  }
}

// Reads text as N3 (or N-Triples/N-Quads by format); returns {quads, formulaIds}. Throws on a syntax error.
function parseN3(text, baseIRI, format = 'text/n3') {
  // formulaScopedBlankNodes: _:x inside a list is the _:x outside it (without it N3.js gives lists a scope).
  // isImpliedBy: `a <= b` is `a log:isImpliedBy b`, as the suite's grammar has it (N3.js's default reads
  // it as `b log:implies a`).
  const parser = new FormulaRecordingParser({ format, baseIRI, formulaScopedBlankNodes: true, isImpliedBy: true });
  parser.formulaIds = new Set();
  const quads = parser.parse(text);
  for (const q of quads) if (q.graph.termType === 'BlankNode') parser.formulaIds.add(q.graph.value);
  return { quads, formulaIds: parser.formulaIds };
}

function constantKey(term, mapIri) {
  if (term.termType === 'NamedNode') return `<${mapIri(term.value)}>`;
  if (term.termType === 'Literal') {
    const text = JSON.stringify(term.value);
    if (term.language) return `${text}@${term.language.toLowerCase()}`;
    const datatype = term.datatype ? term.datatype.value : XSD_STRING;
    return datatype === XSD_STRING ? text : `${text}^^<${mapIri(datatype)}>`;
  }
  return null;
}

// Turns parsed quads into top-level statements of term trees:
//   {k:'c', key} constant; {k:'v', name} variable; {k:'b', id, global} blank node;
//   {k:'f', triples:[[s,p,o]...]} formula; {k:'l', items:[...]} list.
function toStatements(parsed, mapIri) {
  const byGraph = new Map();
  for (const q of parsed.quads) {
    const g = q.graph.termType === 'DefaultGraph' ? '' : q.graph.value;
    if (!byGraph.has(g)) byGraph.set(g, []);
    byGraph.get(g).push(q);
  }
  for (const id of parsed.formulaIds) if (!byGraph.has(id)) byGraph.set(id, []);

  // Well-formed lists per graph: blank nodes with exactly one rdf:first and one rdf:rest, the last rest
  // rdf:nil, each node after the head referenced only by its predecessor and the subject of nothing else.
  // (A list no statement refers to is then no statement at all: a list is a term.)
  const lists = new Map();
  for (const quads of byGraph.values()) {
    const otherCount = new Map();
    const first = new Map();
    const rest = new Map();
    const restOwner = new Map();
    const referenced = new Map();
    for (const q of quads) {
      if (q.subject.termType === 'BlankNode') {
        const id = q.subject.value;
        if (q.predicate.value === RDF + 'first') first.set(id, first.has(id) ? null : q.object);
        else if (q.predicate.value === RDF + 'rest') {
          rest.set(id, rest.has(id) ? null : q.object);
          if (q.object.termType === 'BlankNode') restOwner.set(q.object.value, id);
        } else otherCount.set(id, (otherCount.get(id) || 0) + 1);
      }
      for (const t of [q.predicate, q.object]) {
        if (t.termType === 'BlankNode') referenced.set(t.value, (referenced.get(t.value) || 0) + 1);
      }
    }
    const isCell = (id) => first.get(id) && rest.get(id) && !parsed.formulaIds.has(id);
    const chainOf = (head) => {
      const items = [];
      const cells = new Set();
      for (let id = head; ;) {
        if (!isCell(id) || cells.has(id)) return null;
        // Statements about the list have its head as subject; the cells after it are the list's own.
        if (id !== head && (referenced.get(id) !== 1 || otherCount.has(id))) return null;
        cells.add(id);
        items.push(first.get(id));
        const next = rest.get(id);
        if (next.termType === 'NamedNode' && next.value === RDF + 'nil') return { items, cells };
        if (next.termType !== 'BlankNode') return null;
        id = next.value;
      }
    };
    for (const id of first.keys()) {
      // A cell whose predecessor starts a list is inside that list, not the head of one.
      if (restOwner.has(id) && chainOf(restOwner.get(id))) continue;
      const chain = chainOf(id);
      if (chain) lists.set(id, chain);
    }
  }
  const listCells = new Set();
  for (const chain of lists.values()) for (const c of chain.cells) listCells.add(c);

  const convert = (term, g, depth) => {
    if (depth > 512) throw new Error('formulas or lists nested more than 512 deep');
    if (term.termType === 'Variable') return { k: 'v', name: term.value };
    if (term.termType === 'BlankNode') {
      if (parsed.formulaIds.has(term.value)) return { k: 'f', triples: triplesOf(term.value, depth + 1) };
      if (lists.has(term.value)) return { k: 'l', items: lists.get(term.value).items.map((t) => convert(t, g, depth + 1)) };
      return { k: 'b', id: term.value, global: g === '' };
    }
    if (term.termType === 'NamedNode' && term.value === RDF + 'nil') return { k: 'l', items: [] };
    const key = constantKey(term, mapIri);
    if (key === null) throw new Error(`unexpected term ${term.termType}`);
    return { k: 'c', key };
  };
  const triplesOf = (g, depth) => (byGraph.get(g) || [])
    .filter((q) => !(q.subject.termType === 'BlankNode' && listCells.has(q.subject.value) &&
      (q.predicate.value === RDF + 'first' || q.predicate.value === RDF + 'rest')))
    .map((q) => [convert(q.subject, g, depth), convert(q.predicate, g, depth), convert(q.object, g, depth)]);
  return triplesOf('', 0);
}

// A statement as a labelled graph for canonical labelling. Node kinds: T triple occurrence, F formula,
// L list, V variable, B blank node local to a formula, G global blank node.
function statementGraph(statement) {
  const nodes = [];
  const edges = [];
  const vars = new Map();
  const blanks = new Map();
  const node = (label, payload) => { nodes.push({ label, payload }); return nodes.length - 1; };
  const termNode = (t) => {
    if (t.k === 'v') {
      if (!vars.has(t.name)) vars.set(t.name, node('V', t));
      return vars.get(t.name);
    }
    if (t.k === 'b') {
      if (!blanks.has(t.id)) blanks.set(t.id, node(t.global ? 'G' : 'B', t));
      return blanks.get(t.id);
    }
    if (t.k === 'f') {
      const f = node(`F${t.triples.length}`, t);
      for (const triple of t.triples) edges.push([tripleNode(triple), 'in', f]);
      return f;
    }
    if (t.k === 'l') {
      const l = node(`L|${t.items.map((i) => (i.k === 'c' ? i.key : '*')).join('|')}`, t);
      t.items.forEach((item, i) => { if (item.k !== 'c') edges.push([l, `i${i}`, termNode(item)]); });
      return l;
    }
    return null;
  };
  const tripleNode = (triple) => {
    const tn = node(`T|${triple.map((x) => (x.k === 'c' ? x.key : '*')).join('|')}`, triple);
    triple.forEach((x, i) => { if (x.k !== 'c') edges.push([tn, 'spo'[i], termNode(x)]); });
    return tn;
  };
  tripleNode(statement);
  return { nodes, edges };
}

// Colour refinement: colours are ranks of sorted signatures, so they do not depend on node numbering.
function refine(n, edges, colours) {
  const adjacency = Array.from({ length: n }, () => []);
  for (const [from, label, to] of edges) {
    adjacency[from].push(['>', label, to]);
    adjacency[to].push(['<', label, from]);
  }
  let classes = new Set(colours).size;
  for (;;) {
    const signatures = colours.map((c, i) => `${c};${adjacency[i].map(([d, l, j]) => `${d}${l}:${colours[j]}`).sort().join(',')}`);
    const ranks = new Map([...new Set(signatures)].sort().map((s, r) => [s, r]));
    const next = signatures.map((s) => ranks.get(s));
    const nextClasses = ranks.size;
    colours = next;
    if (nextClasses === classes) return colours;
    classes = nextClasses;
  }
}

// The key a variable or blank node has in a statement: every occurrence of it has the same one.
function termName(t) {
  return t.k === 'v' ? `v:${t.name}` : `b:${t.id}`;
}

function serialiseTerm(t, names) {
  switch (t.k) {
    case 'c': return t.key;
    case 'v': case 'b': return names.get(termName(t));
    case 'l': return `(${t.items.map((i) => serialiseTerm(i, names)).join(' ')})`;
    case 'f': return `{${t.triples.map((tr) => tr.map((x) => serialiseTerm(x, names)).join(' ')).sort().join(' . ')}}`;
    default: throw new Error('bad term');
  }
}

// Canonical form of one statement: {text, globals: [blank node ids in $-order], exact}.
function canonicalStatement(statement, budget) {
  const { nodes, edges } = statementGraph(statement);
  const renamable = nodes.map((nd) => nd.label === 'V' || nd.label === 'B' || nd.label === 'G');
  const initialLabels = [...new Set(nodes.map((nd) => nd.label))].sort();
  const initial = nodes.map((nd) => initialLabels.indexOf(nd.label));
  let best = null;
  let exact = true;
  const leaf = (colours) => {
    const order = nodes.map((_, i) => i).filter((i) => renamable[i]).sort((a, b) => colours[a] - colours[b]);
    const names = new Map();
    const globals = [];
    const counters = { V: 0, B: 0, G: 0 };
    for (const i of order) {
      const kind = nodes[i].label;
      const name = kind === 'V' ? `?v${counters.V++}` : kind === 'B' ? `_:b${counters.B++}` : `$${counters.G++}`;
      if (kind === 'G') globals.push(nodes[i].payload.id);
      names.set(termName(nodes[i].payload), name);
    }
    const text = statement.map((x) => serialiseTerm(x, names)).join(' ');
    if (best === null || text < best.text) best = { text, globals };
  };
  const search = (colours) => {
    if (budget.steps-- <= 0) { exact = false; return; }
    const cells = new Map();
    colours.forEach((c, i) => { if (renamable[i]) { if (!cells.has(c)) cells.set(c, []); cells.get(c).push(i); } });
    const target = [...cells.entries()].filter(([, m]) => m.length > 1).sort((a, b) => a[0] - b[0])[0];
    if (!target) { leaf(colours); return; }
    for (const member of target[1]) {
      const individualised = colours.map((c, i) => (i === member ? c * 2 + 1 : c * 2));
      search(refine(nodes.length, edges, individualised));
      if (!exact) return;
    }
  };
  search(refine(nodes.length, edges, initial));
  if (best === null) leaf(refine(nodes.length, edges, initial));
  return { text: best.text, globals: best.globals, exact };
}

// Reads a document into its canonical statements: {constant: Set<text>, withGlobals: [{text, globals}],
// exact, count}.
function canonicalDocument(parsed, { mapIri = (iri) => iri, filter = null } = {}) {
  let statements = toStatements(parsed, mapIri);
  if (filter) statements = statements.filter(filter);
  const constant = new Set();
  const withGlobals = new Map();
  let exact = true;
  for (const st of statements) {
    const c = canonicalStatement(st, { steps: SEARCH_BUDGET });
    exact = exact && c.exact;
    if (c.globals.length === 0) constant.add(c.text);
    else withGlobals.set(`${c.text}\u0000${c.globals.join(' ')}`, c);
  }
  return { constant, withGlobals: [...withGlobals.values()], exact };
}

// True when a statement holds no formula and no variable (the suite's test:data option keeps only those).
function isPlainRdf(statement) {
  const plain = (t) => (t.k === 'f' || t.k === 'v' ? false : t.k === 'l' ? t.items.every(plain) : true);
  return statement.every(plain);
}

// Matches the global blank nodes of two sets of statements; true when a bijection maps one onto the other.
function matchGlobals(a, b, budget) {
  const nodesOf = (stmts) => [...new Set(stmts.flatMap((s) => s.globals))];
  const na = nodesOf(a);
  const nb = nodesOf(b);
  if (na.length !== nb.length) return false;
  const ia = new Map(na.map((id, i) => [id, i]));
  const ib = new Map(nb.map((id, i) => [id, na.length + i]));
  const n = na.length * 2;
  // One graph holding both sides, so colours are comparable: statement nodes link to their blank nodes.
  const edges = [];
  const labels = [];
  for (let i = 0; i < n; i++) labels.push('G');
  const addSide = (stmts, index) => {
    for (const s of stmts) {
      labels.push(`S${s.text}`);
      const sn = labels.length - 1;
      s.globals.forEach((id, pos) => edges.push([sn, `$${pos}`, index.get(id)]));
    }
  };
  addSide(a, ia);
  addSide(b, ib);
  const labelOrder = [...new Set(labels)].sort();
  const initial = labels.map((l) => labelOrder.indexOf(l));
  const keyOf = (s, map) => `${s.text}\u0000${s.globals.map((id) => map(id)).join(' ')}`;
  const setB = new Set(b.map((s) => keyOf(s, (id) => ib.get(id))));
  const balanced = (colours) => {
    const count = new Map();
    for (let i = 0; i < n; i++) count.set(colours[i], (count.get(colours[i]) || 0) + (i < na.length ? 1 : -1));
    return [...count.values()].every((v) => v === 0);
  };
  const search = (colours) => {
    if (budget.steps-- <= 0) return null;
    if (!balanced(colours)) return false;
    const cellsA = new Map();
    for (let i = 0; i < na.length; i++) { if (!cellsA.has(colours[i])) cellsA.set(colours[i], []); cellsA.get(colours[i]).push(i); }
    const target = [...cellsA.entries()].filter(([, m]) => m.length > 1).sort((x, y) => x[0] - y[0])[0];
    if (!target) {
      const partner = new Map();
      for (let j = na.length; j < n; j++) partner.set(colours[j], j);
      const map = (id) => partner.get(colours[ia.get(id)]);
      return a.every((s) => setB.has(keyOf(s, map)));
    }
    const [colour, members] = target;
    const x = members[0];
    for (let j = na.length; j < n; j++) {
      if (colours[j] !== colour) continue;
      const individualised = colours.map((c, i) => (i === x || i === j ? c * 2 + 1 : c * 2));
      const r = search(refine(labels.length, edges, individualised));
      if (r !== false) return r;
    }
    return false;
  };
  return search(refine(labels.length, edges, initial));
}

// Compares two canonical documents: {equal, undecided, detail} with detail naming the first difference.
function compareDocuments(expected, actual) {
  const missing = [...expected.constant].filter((t) => !actual.constant.has(t));
  const extra = [...actual.constant].filter((t) => !expected.constant.has(t));
  const templates = (d) => d.withGlobals.map((s) => s.text).sort();
  const te = templates(expected);
  const ta = templates(actual);
  const countDiff = (x, y) => {
    const m = new Map();
    for (const t of x) m.set(t, (m.get(t) || 0) + 1);
    for (const t of y) m.set(t, (m.get(t) || 0) - 1);
    return [...m.entries()].filter(([, v]) => v > 0).map(([t]) => t);
  };
  missing.push(...countDiff(te, ta));
  extra.push(...countDiff(ta, te));
  const sizes = `expected ${expected.constant.size + expected.withGlobals.length} statements, got ${actual.constant.size + actual.withGlobals.length}`;
  const detail = () => {
    const parts = [sizes, `${missing.length} missing`, `${extra.length} unexpected`];
    if (missing.length) parts.push(`e.g. missing ${missing.sort()[0]}`);
    if (extra.length) parts.push(`e.g. unexpected ${extra.sort()[0]}`);
    return parts.join('; ');
  };
  if (missing.length || extra.length) return { equal: false, detail: detail() };
  const matched = matchGlobals(expected.withGlobals, actual.withGlobals, { steps: SEARCH_BUDGET });
  if (matched === null) return { equal: false, undecided: true, detail: `${sizes}; blank node matching gave up after ${SEARCH_BUDGET} steps` };
  if (!matched) return { equal: false, detail: `${sizes}; same statements up to blank nodes, but the blank nodes do not match` };
  if (!expected.exact || !actual.exact) return { equal: false, undecided: true, detail: `${sizes}; canonical form search gave up after ${SEARCH_BUDGET} steps` };
  return { equal: true, detail: sizes };
}

module.exports = { parseN3, canonicalDocument, compareDocuments, isPlainRdf };
