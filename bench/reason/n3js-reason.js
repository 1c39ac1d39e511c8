#!/usr/bin/env node
// Runs N3.js as the benchmark's peer for `ldgsm reason --pass-only-new -o ntriples`: parses the data
// (.nt or .ttl) and the N3 rules, reasons with N3.Reasoner over an N3.Store, and writes only the
// derived triples (those not in the input) as N-Triples to OUT.
//
// usage: node n3js-reason.js DATA RULES.n3 OUT.nt
'use strict';

const fs = require('fs');
const path = require('path');
const N3 = require(path.join(__dirname, '..', '..', 'node_modules', 'n3'));

const FORMAT_BY_EXTENSION = { '.nt': 'N-Triples', '.ttl': 'Turtle', '.n3': 'text/n3' };

function parseFile(file) {
  const format = FORMAT_BY_EXTENSION[path.extname(file)];
  if (!format)
    throw new Error(`${file}: unknown extension (expected .nt, .ttl or .n3)`);
  return new N3.Parser({ format, baseIRI: `file://${path.resolve(file)}` }).parse(fs.readFileSync(file, 'utf8'));
}

function main() {
  const [dataFile, rulesFile, outFile] = process.argv.slice(2);
  if (!outFile) {
    process.stderr.write('usage: node n3js-reason.js DATA RULES.n3 OUT.nt\n');
    process.exit(2);
  }
  const input = parseFile(dataFile);
  const rules = new N3.Store(parseFile(rulesFile));
  const store = new N3.Store(input);
  // The reasoner adds into `store`; a second store of the input tells derived triples apart.
  const original = new N3.Store(input);
  new N3.Reasoner(store).reason(rules);

  const out = fs.createWriteStream(outFile);
  const writer = new N3.Writer(out, { format: 'N-Triples' });
  let derived = 0;
  for (const quad of store) {
    if (original.has(quad))
      continue;
    writer.addQuad(quad);
    derived++;
  }
  writer.end(error => {
    if (error) {
      process.stderr.write(`n3js-reason.js: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`n3js-reason.js: ${input.length} input triples, ${derived} derived\n`);
  });
}

try {
  main();
}
catch (error) {
  process.stderr.write(`n3js-reason.js: ${error.message}\n`);
  process.exit(1);
}
