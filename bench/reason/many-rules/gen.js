#!/usr/bin/env node
// Generates the reasoning benchmarks whose size is the number of rules, deterministically from a seed,
// into OUT/data.ttl (the facts) and OUT/rules.n3 (the rules):
//   taxonomy: EYE's deep taxonomy (eyereasoner.github.io/eye/reasoning, "dt"): one individual,
//     `:ind a :N0`, and one rule per level, `{?x a :N(i-1)} => {?x a :Ni, :Ii, :Ji}` for i = 1..levels,
//     then `{?x a :N<levels>} => {?x a :A2}`: levels + 1 rules, one round each, 3 * levels + 1 derived.
//   many: `rules` rules over `triples` facts. A tree of classes (half the rules: one rule
//     `{?x a :Ci} => {?x a :C<parent>}` per class below the root, the subclass relation written as rules)
//     and join rules `{?x a :Ci . ?x :pk ?y} => {?y a :Cj}` (the other half: a typed subject's property
//     types its object, j a class of the top levels); facts: instances typed with a random class (a
//     tenth of the triples) and property triples between them over `properties` properties.
//
// usage: node gen.js --shape taxonomy [--levels 1000] --out DIR
//        node gen.js --shape many [--rules 10000] [--triples 100000] [--properties 50] [--seed 42] --out DIR
'use strict';

const fs = require('fs');
const path = require('path');
const { optionsOrExit } = require('../cli');

const DT = 'http://eulersharp.sourceforge.net/2009/12dtb/test#';
const EX = 'http://example.org/many-rules/';
const DEFAULTS = {
  taxonomy: { levels: 1000 },
  many: { rules: 10000, triples: 100000, properties: 50, seed: 42 },
};
const USAGE = 'usage: gen.js --shape taxonomy [--levels N] --out DIR | --shape many [--rules N] [--triples N] ' +
              '[--properties N] [--seed N] --out DIR';

function parseArgs(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (argv[i + 1] === undefined)
      throw new Error(`bad argument ${argv[i]} (${USAGE})`);
    given[name] = argv[i + 1];
  }
  const shape = given.shape;
  if (!(shape in DEFAULTS))
    throw new Error(`--shape must be taxonomy or many (${USAGE})`);
  if (!given.out)
    throw new Error('--out DIR is required');
  const options = { ...DEFAULTS[shape], shape, out: given.out };
  for (const [name, value] of Object.entries(given)) {
    if (name === 'shape' || name === 'out')
      continue;
    if (!(name in DEFAULTS[shape]))
      throw new Error(`--${name} does not apply to --shape ${shape} (${USAGE})`);
    options[name] = Number(value);
    if (!(Number.isInteger(options[name]) && options[name] >= 1))
      throw new Error(`--${name} needs a positive integer, got ${value}`);
  }
  return options;
}

function taxonomy(options, out) {
  const n = options.levels;
  fs.writeFileSync(path.join(out, 'data.ttl'), `@prefix : <${DT}> .\n:ind a :N0 .\n`);
  const lines = [`@prefix : <${DT}> .`, ''];
  for (let i = 1; i <= n; i++)
    lines.push(`{ ?x a :N${i - 1} } => { ?x a :N${i}, :I${i}, :J${i} } .`);
  lines.push(`{ ?x a :N${n} } => { ?x a :A2 } .`);
  fs.writeFileSync(path.join(out, 'rules.n3'), lines.join('\n') + '\n');
  return `${n + 1} rules, 1 fact`;
}

// the same seeded generator as ../gen.js: the same data set on every machine and Node version
const { seededRandom } = require('../gen.js');

function many(options, out) {
  const random = seededRandom(options.seed);
  const below = n => Math.floor(random() * n);
  const classes = Math.max(2, Math.ceil(options.rules / 2));
  // Class i > 0 is under a random class before it: a tree about ln(classes) deep, each level a round.
  const parent = [0];
  for (let i = 1; i < classes; i++)
    parent.push(below(i));
  const general = Math.max(1, Math.floor(classes / 20));
  // N3.js 2.13.12 links no rule to the first rule's first conclusion (N3Reasoner's termEq meets the other
  // rules' variables still undefined, not null, on that first comparison) and so misses what follows from
  // it; a first rule whose conclusion nothing reads keeps N3.js complete (see ../../README.md).
  const rules = [`@prefix : <${EX}> .`, '', '{ ?x :unrelated ?y } => { ?y :unrelated ?x } .'];
  for (let i = 1; i < classes; i++)
    rules.push(`{ ?x a :C${i} } => { ?x a :C${parent[i]} } .`);
  for (let r = rules.length - 2; r < options.rules; r++)
    rules.push(`{ ?x a :C${below(classes)} . ?x :p${below(options.properties)} ?y } => { ?y a :C${below(general)} } .`);
  fs.writeFileSync(path.join(out, 'rules.n3'), rules.join('\n') + '\n');

  const typed = Math.max(1, Math.floor(options.triples / 10));
  const instances = typed;
  const data = [`@prefix : <${EX}> .`, ''];
  for (let x = 0; x < typed; x++)
    data.push(`:i${x} a :C${below(classes)} .`);
  const seen = new Set();
  while (data.length - 2 < options.triples) {
    const s = below(instances), p = below(options.properties), o = below(instances);
    const key = `${s} ${p} ${o}`;
    if (seen.has(key))
      continue;
    seen.add(key);
    data.push(`:i${s} :p${p} :i${o} .`);
  }
  fs.writeFileSync(path.join(out, 'data.ttl'), data.join('\n') + '\n');
  return `${rules.length - 2} rules (${classes - 1} subclass rules), ${data.length - 2} facts`;
}

function main() {
  const options = optionsOrExit(parseArgs);
  fs.mkdirSync(options.out, { recursive: true });
  const what = options.shape === 'taxonomy' ? taxonomy(options, options.out) : many(options, options.out);
  process.stderr.write(`gen.js: ${options.shape}: ${what} in ${options.out}\n`);
}

main();
