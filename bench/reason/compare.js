#!/usr/bin/env node
// Checks that reasoners derived the same triples: canonicalizes each output (parsed with N3.js by
// extension: .nt N-Triples, .ttl Turtle, .n3 N3; rewritten as sorted, distinct N-Triples lines), writes
// LABEL.sorted.nt beside each file, compares every set with the first, and prints PASS or FAIL with
// counts and the first differences. Blank nodes should not occur; any that do are counted and reported,
// since their labels differ between tools and make the sets incomparable line by line.
//
// usage: node compare.js LABEL=FILE LABEL=FILE...   (exit 0 on PASS, 1 on FAIL, 2 on bad use)
'use strict';

const fs = require('fs');
const path = require('path');
const N3 = require(path.join(__dirname, '..', '..', 'node_modules', 'n3'));

const FORMAT_BY_EXTENSION = { '.nt': 'N-Triples', '.ttl': 'Turtle', '.n3': 'text/n3' };
const SHOWN_DIFFERENCES = 10;

function canonicalize(file) {
  const format = FORMAT_BY_EXTENSION[path.extname(file)];
  if (!format)
    throw new Error(`${file}: unknown extension (expected .nt, .ttl or .n3)`);
  const quads = new N3.Parser({ format }).parse(fs.readFileSync(file, 'utf8'));
  const writer = new N3.Writer({ format: 'N-Triples' });
  let blankNodes = 0;
  let nonDefaultGraph = 0;
  const lines = new Set();
  for (const quad of quads) {
    if (quad.subject.termType === 'BlankNode' || quad.object.termType === 'BlankNode')
      blankNodes++;
    if (quad.graph.termType !== 'DefaultGraph')
      nonDefaultGraph++;
    lines.add(writer.quadToString(quad.subject, quad.predicate, quad.object).trimEnd());
  }
  // Plain code-unit order: deterministic, and the same for every tool's lines.
  const sorted = [...lines].sort();
  fs.writeFileSync(file.replace(/\.[^.]+$/, '') + '.sorted.nt', sorted.map(line => line + '\n').join(''));
  return { parsed: quads.length, sorted, blankNodes, nonDefaultGraph };
}

// Both arrays are sorted, so one merge pass finds the lines only in one of them.
function difference(reference, other) {
  const onlyInReference = [], onlyInOther = [];
  let i = 0, j = 0;
  while (i < reference.length || j < other.length) {
    if (j >= other.length || (i < reference.length && reference[i] < other[j]))
      onlyInReference.push(reference[i++]);
    else if (i >= reference.length || other[j] < reference[i])
      onlyInOther.push(other[j++]);
    else
      i++, j++;
  }
  return { onlyInReference, onlyInOther };
}

function main() {
  const inputs = process.argv.slice(2).map(argument => {
    const at = argument.indexOf('=');
    if (at <= 0)
      throw new Error(`bad argument ${argument} (usage: compare.js LABEL=FILE LABEL=FILE...)`);
    return { label: argument.slice(0, at), file: argument.slice(at + 1) };
  });
  if (inputs.length < 2)
    throw new Error('need at least two LABEL=FILE outputs to compare');

  const results = inputs.map(input => ({ ...input, ...canonicalize(input.file) }));
  let pass = true;
  for (const result of results) {
    const duplicates = result.parsed - result.sorted.length;
    console.log(`${result.label}: ${result.sorted.length} distinct derived triples` +
                (duplicates ? ` (${duplicates} duplicates in its output)` : '') +
                (result.blankNodes ? `, NOTE: ${result.blankNodes} with blank nodes` : '') +
                (result.nonDefaultGraph ? `, NOTE: ${result.nonDefaultGraph} in a named graph` : ''));
    if (result.blankNodes)
      pass = false;
  }
  const [reference, ...others] = results;
  for (const other of others) {
    const { onlyInReference, onlyInOther } = difference(reference.sorted, other.sorted);
    if (!onlyInReference.length && !onlyInOther.length) {
      console.log(`${other.label} = ${reference.label}: same ${reference.sorted.length} triples`);
      continue;
    }
    pass = false;
    console.log(`${other.label} != ${reference.label}: ${onlyInReference.length} only in ${reference.label}, ` +
                `${onlyInOther.length} only in ${other.label}`);
    for (const line of onlyInReference.slice(0, SHOWN_DIFFERENCES))
      console.log(`  only in ${reference.label}: ${line}`);
    for (const line of onlyInOther.slice(0, SHOWN_DIFFERENCES))
      console.log(`  only in ${other.label}: ${line}`);
  }
  console.log(pass ? `PASS: ${results.map(r => r.label).join(', ')} derived the same ${reference.sorted.length} triples`
                   : `FAIL: the derived sets differ (or hold blank nodes); see above`);
  return pass;
}

try {
  process.exit(main() ? 0 : 1);
}
catch (error) {
  process.stderr.write(`compare.js: ${error.message}\n`);
  process.exit(2);
}
