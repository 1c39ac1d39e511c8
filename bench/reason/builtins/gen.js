#!/usr/bin/env node
// Generates the builtin-heavy reasoning benchmark, deterministically from a seed: OUT/data.n3 holds
// `records` records, each with a name, a code, a list of numbers and a list of tags; OUT/rules.n3 copies
// rules.n3 beside it (the rules of list, string and math builtins that ldgsm and EYE both run).
//
// usage: node gen.js [--records 5000] [--values 8] [--seed 42] --out DIR
'use strict';

const fs = require('fs');
const path = require('path');
const { optionsOrExit } = require('../cli');

const EX = 'http://example.org/builtins/';
const FIRST_NAMES = ['Alice', 'Bob', 'Carol', 'Dave', 'Eve', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy',
                     'Mallory', 'Niaj', 'Olivia', 'Peggy', 'Rupert', 'Sybil', 'Trent', 'Victor', 'Walter'];
const LAST_NAMES = ['Smith', 'Jones', 'Brown', 'Taylor', 'Wilson', 'Davies', 'Evans', 'Thomas', 'Roberts',
                    'Walker', 'Wright', 'Robinson', 'Thompson', 'White', 'Hughes', 'Edwards', 'Green'];
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa',
              'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau', 'upsilon'];

function parseArgs(argv) {
  const options = { records: 5000, values: 8, seed: 42, out: null };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    const value = argv[i + 1];
    if (!(name in options) || value === undefined)
      throw new Error(`bad argument ${argv[i]} (usage: gen.js [--records N] [--values N] [--seed N] --out DIR)`);
    options[name] = name === 'out' ? value : Number(value);
    if (name !== 'out' && !(Number.isInteger(options[name]) && options[name] >= 1))
      throw new Error(`--${name} needs a positive integer, got ${value}`);
  }
  if (!options.out)
    throw new Error('--out DIR is required');
  return options;
}

// the same seeded generator as ../gen.js: the same data set on every machine and Node version
const { seededRandom } = require('../gen.js');

// Each record: a name with upper case letters, a code with dashes (for replace and matches), between
// `values` / 2 and `values` integers 0-99 (repeats included, for sort and member), two to four tags.
function generate(options) {
  const random = seededRandom(options.seed);
  const pick = list => list[Math.floor(random() * list.length)];
  const lines = [`@prefix ex: <${EX}> .`, ''];
  for (let n = 0; n < options.records; n++) {
    const count = Math.ceil(options.values / 2) + Math.floor(random() * (Math.floor(options.values / 2) + 1));
    const values = Array.from({ length: count }, () => Math.floor(random() * 100));
    const tags = Array.from({ length: 2 + Math.floor(random() * 3) }, () => `"${pick(TAGS)}"`);
    const code = `${pick(['AB', 'CD', 'EF', 'GH'])}-${Math.floor(random() * 1000)}-${pick(['x', 'y', 'z'])}`;
    lines.push(`ex:r${n} a ex:Record ;`,
               `    ex:name "${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} ${n}" ;`,
               `    ex:code "${code}" ;`,
               `    ex:values (${values.join(' ')}) ;`,
               `    ex:tags (${tags.join(' ')}) .`);
  }
  return lines.join('\n') + '\n';
}

function main() {
  const options = optionsOrExit(parseArgs);
  fs.mkdirSync(options.out, { recursive: true });
  fs.writeFileSync(path.join(options.out, 'data.n3'), generate(options));
  fs.copyFileSync(path.join(__dirname, 'rules.n3'), path.join(options.out, 'rules.n3'));
  process.stderr.write(`gen.js: ${options.records} records of up to ${options.values} values (seed ${options.seed}) ` +
                       `in ${options.out}\n`);
}

main();
