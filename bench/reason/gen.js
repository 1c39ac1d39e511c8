#!/usr/bin/env node
// Generates the RDFS benchmark data set, deterministically from a seed: a class hierarchy, typed
// instances, and property triples over properties with rdfs:subPropertyOf, rdfs:domain and rdfs:range.
// Writes OUT/data.nt (N-Triples) and OUT/data.ttl (Turtle) holding the same triples.
// Two shapes of class hierarchy: flat (three long chains, 90 classes; instances typed anywhere) and deep
// (a tree of thousands of classes, `depth` levels, widening to `leaves` classes at the bottom, with a
// few classes under two parents; instances typed at the leaves, so each inherits `depth` types).
//
// usage: node gen.js [--shape flat|deep] [--depth N] [--instances N] [--triples N] [--leaves N] [--seed 42]
//                    --out DIR
//   flat defaults: --depth 20 --instances 10000 --triples 50000
//   deep defaults: --depth 9 --leaves 2048 --instances 45000 --triples 8000
'use strict';

const fs = require('fs');
const path = require('path');
const { optionsOrExit } = require('./cli');

const EX = 'http://example.org/bench/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
// Domains and ranges name general classes, as schemas do; deep ones would type every resource with
// nearly every class and make the closure mostly rdf:type.
const GENERAL_LEVELS = 5;

const DEFAULTS = {
  flat: { depth: 20, instances: 10000, triples: 50000 },
  deep: { depth: 9, instances: 45000, triples: 8000, leaves: 2048 },
};
const USAGE = 'usage: gen.js [--shape flat|deep] [--depth N] [--instances N] [--triples N] [--leaves N] [--seed N] --out DIR';

function parseArgs(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    const value = argv[i + 1];
    if (!['shape', 'depth', 'instances', 'triples', 'leaves', 'seed', 'out'].includes(name) || value === undefined)
      throw new Error(`bad argument ${argv[i]} (${USAGE})`);
    given[name] = value;
  }
  const shape = given.shape || 'flat';
  if (!(shape in DEFAULTS))
    throw new Error(`--shape must be flat or deep, got ${shape}`);
  if (!given.out)
    throw new Error('--out DIR is required');
  const options = { ...DEFAULTS[shape], seed: 42, shape, out: given.out };
  for (const name of ['depth', 'instances', 'triples', 'leaves', 'seed']) {
    if (given[name] === undefined)
      continue;
    if (!(name in options))
      throw new Error(`--${name} applies to --shape deep only`);
    options[name] = Number(given[name]);
    if (!(Number.isInteger(options[name]) && options[name] >= 1))
      throw new Error(`--${name} needs a positive integer, got ${given[name]}`);
  }
  return options;
}

// mulberry32: a small seeded generator, so the data set is identical on every machine and Node version.
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Terms are { kind: 'iri' | 'literal', ... } so both serializations come from one list of triples.
const iri = local => ({ kind: 'iri', value: local.startsWith('http') ? local : EX + local });
const literal = (value, extra = {}) => ({ kind: 'literal', value, ...extra });

// Three chains of `depth` classes under ex:Thing, short side branches every fourth level, and one
// diamond (a class with two superclasses), so subClassOf closure has both long paths and joins. The
// classes of the top GENERAL_LEVELS levels are the general ones that domains and ranges name.
function buildClasses(depth, triples) {
  const classes = [];
  const generalClasses = [];
  const subClassOf = (sub, sup) => triples.push([iri(sub), iri(RDFS + 'subClassOf'), iri(sup)]);
  for (let chain = 0; chain < 3; chain++) {
    let parent = 'Thing';
    for (let level = 1; level <= depth; level++) {
      const name = `C${chain}_${level}`;
      subClassOf(name, parent);
      classes.push(name);
      if (level <= GENERAL_LEVELS)
        generalClasses.push(name);
      if (level % 4 === 0) {
        subClassOf(`S${chain}_${level}_1`, name);
        subClassOf(`S${chain}_${level}_2`, `S${chain}_${level}_1`);
        classes.push(`S${chain}_${level}_1`, `S${chain}_${level}_2`);
      }
      parent = name;
    }
  }
  const middle = Math.max(1, Math.floor(depth / 2));
  subClassOf(`C1_${middle}`, `C0_${middle}`);
  return { classes, generalClasses, leafClasses: classes };
}

// A tree of `depth` levels under ex:Thing whose level l holds about leaves^(l/depth) classes, each under
// an even share of the level above, and one class in fifty under a second parent there (joins in the
// subClassOf closure). The top GENERAL_LEVELS levels are the general classes, the last level the leaves.
function buildTree(random, depth, leaves, triples) {
  const subClassOf = (sub, sup) => triples.push([iri(sub), iri(RDFS + 'subClassOf'), iri(sup)]);
  const classes = [];
  const generalClasses = [];
  let above = ['Thing'];
  for (let level = 1; level <= depth; level++) {
    const count = Math.max(above.length, Math.round(Math.pow(leaves, level / depth)));
    const here = [];
    for (let i = 0; i < count; i++) {
      const name = `T${level}_${i}`;
      subClassOf(name, above[Math.floor(i * above.length / count)]);
      if (above.length > 1 && random() < 0.02)
        subClassOf(name, above[Math.floor(random() * above.length)]);
      here.push(name);
      if (level <= GENERAL_LEVELS)
        generalClasses.push(name);
    }
    classes.push(...here);
    above = here;
  }
  return { classes, generalClasses, leafClasses: above };
}

// Property chains linked by rdfs:subPropertyOf. Object properties may have a domain and a range;
// literal-valued properties (and every property above them) never have a range, so no rule can put
// a literal in subject position.
function buildProperties(random, generalClasses, triples) {
  const pick = list => list[Math.floor(random() * list.length)];
  const declare = (kind, chainCount, chainLength, prefix) => {
    const properties = [];
    for (let chain = 0; chain < chainCount; chain++) {
      for (let level = 0; level < chainLength; level++) {
        const name = `${prefix}${chain}_${level}`;
        if (level > 0)
          triples.push([iri(name), iri(RDFS + 'subPropertyOf'), iri(`${prefix}${chain}_${level - 1}`)]);
        if (random() < 0.7)
          triples.push([iri(name), iri(RDFS + 'domain'), iri(pick(generalClasses))]);
        if (kind === 'object' && random() < 0.7)
          triples.push([iri(name), iri(RDFS + 'range'), iri(pick(generalClasses))]);
        properties.push(name);
      }
    }
    return properties;
  };
  return {
    objectProperties: declare('object', 4, 5, 'op'),
    literalProperties: declare('literal', 2, 4, 'dp'),
  };
}

// Literals cover the plain, language-tagged and integer forms, and strings needing escapes.
function makeLiteral(random, n) {
  const form = Math.floor(random() * 5);
  if (form === 0) return literal(`value ${n}`);
  if (form === 1) return literal(`name ${n}`, { language: 'en' });
  if (form === 2) return literal(String(n), { datatype: XSD_INTEGER });
  if (form === 3) return literal(`caf\u00e9 "${n}" back\\slash`);
  return literal(`line ${n}\nnext\tline`);
}

function generate(options) {
  const random = seededRandom(options.seed);
  const pick = list => list[Math.floor(random() * list.length)];
  const schema = [];
  const { classes, generalClasses, leafClasses } = options.shape === 'deep'
    ? buildTree(random, options.depth, options.leaves, schema)
    : buildClasses(options.depth, schema);
  const { objectProperties, literalProperties } = buildProperties(random, generalClasses, schema);

  const instances = [];
  const typing = [];
  for (let n = 0; n < options.instances; n++) {
    const name = `i${n}`;
    instances.push(name);
    typing.push([iri(name), iri(RDF_TYPE), iri(pick(leafClasses))]);
    if (random() < 0.1)
      typing.push([iri(name), iri(RDF_TYPE), iri(pick(classes))]);
  }

  // Objects are mostly typed instances, some untyped resources that only a range can type.
  const resourceCount = Math.max(1, Math.floor(options.instances / 5));
  const facts = [];
  const seen = new Set();
  while (facts.length < options.triples) {
    const subject = iri(pick(instances));
    let predicate, object;
    if (random() < 0.7) {
      predicate = iri(pick(objectProperties));
      object = iri(random() < 0.8 ? pick(instances) : `r${Math.floor(random() * resourceCount)}`);
    }
    else {
      predicate = iri(pick(literalProperties));
      object = makeLiteral(random, Math.floor(random() * options.triples));
    }
    const triple = [subject, predicate, object];
    const key = triple.map(ntriplesTerm).join(' ');
    if (seen.has(key))
      continue;
    seen.add(key);
    facts.push(triple);
  }
  return [...schema, ...typing, ...facts];
}

function escapeString(value) {
  return value.replace(/["\\\n\r\t]/g, c => ({ '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]);
}

function ntriplesTerm(term) {
  if (term.kind === 'iri')
    return `<${term.value}>`;
  const lexical = `"${escapeString(term.value)}"`;
  if (term.language) return `${lexical}@${term.language}`;
  if (term.datatype) return `${lexical}^^<${term.datatype}>`;
  return lexical;
}

function turtleTerm(term) {
  if (term.kind === 'iri') {
    if (term.value === RDF_TYPE) return 'a';
    if (term.value.startsWith(EX)) return `ex:${term.value.slice(EX.length)}`;
    if (term.value.startsWith(RDFS)) return `rdfs:${term.value.slice(RDFS.length)}`;
    return `<${term.value}>`;
  }
  if (term.datatype === XSD_INTEGER) return term.value;
  return ntriplesTerm(term);
}

// Turtle groups consecutive triples of one subject with ';' as a hand-written file would.
function toTurtle(triples) {
  const lines = [`@prefix ex: <${EX}> .`, `@prefix rdfs: <${RDFS}> .`, ''];
  let previousSubject = null;
  for (const [s, p, o] of triples) {
    const statement = `${turtleTerm(p)} ${turtleTerm(o)}`;
    if (s.value === previousSubject) {
      lines[lines.length - 1] += ' ;';
      lines.push(`    ${statement}`);
    }
    else {
      if (previousSubject !== null) lines[lines.length - 1] += ' .';
      lines.push(`${turtleTerm(s)} ${statement}`);
    }
    previousSubject = s.value;
  }
  if (previousSubject !== null) lines[lines.length - 1] += ' .';
  return lines.join('\n') + '\n';
}

function main() {
  const options = optionsOrExit(parseArgs);
  const triples = generate(options);
  fs.mkdirSync(options.out, { recursive: true });
  fs.writeFileSync(path.join(options.out, 'data.nt'), triples.map(t => t.map(ntriplesTerm).join(' ') + ' .\n').join(''));
  fs.writeFileSync(path.join(options.out, 'data.ttl'), toTurtle(triples));
  process.stderr.write(`gen.js: ${triples.length} triples (${options.shape}, depth ${options.depth}, ` +
                       (options.shape === 'deep' ? `${options.leaves} leaves, ` : '') +
                       `${options.instances} instances, ${options.triples} property triples, seed ${options.seed}) ` +
                       `in ${options.out}\n`);
}

// run as a script; required (bench/reason/builtins/gen.js), it lends its seeded generator
if (require.main === module)
  main();
else
  module.exports = { seededRandom };
