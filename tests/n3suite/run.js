#!/usr/bin/env node
// Runs the W3C N3 test suite (N3Tests/manifest-parser.ttl and manifest-reasoner.ttl, vendored here) with
// ldgsm and/or EYE and judges each test; prints one line per test and engine, then the counts per manifest.
// See README.md for what a pass means for each kind of test and how engines are run.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const iso = require('./n3iso');

const N3 = require(path.resolve(__dirname, '../../node_modules/n3'));
const SUITE_DIR = path.join(__dirname, 'N3Tests');
// The suite's tests assume this base (its tests/README.md); engines read the files from SUITE_DIR, so
// their file: IRIs under it are mapped onto it before comparing.
const SUITE_BASE = 'https://w3c.github.io/N3/tests/N3Tests/';
const MANIFESTS = { parser: 'manifest-parser.ttl', reasoner: 'manifest-reasoner.ttl' };
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const TEST = 'https://w3c.github.io/N3/tests/test.n3#';
const OUTPUT_LIMIT = 64 * 1024 * 1024;
const SANITIZER_REPORT = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error: /;

const USAGE = `usage: node run.js [--engine ldgsm=PATH]... [--engine eye] [--manifest parser|reasoner]...
                  [--list FILE | --list ENGINE=FILE]... [--timeout SECONDS] [--jobs N] [--only REGEX] [--quiet]
       node run.js --self-test

  --engine ldgsm=PATH  run ldgsm (the binary at PATH); --engine eye runs EYE (node_modules/eyereasoner)
  --manifest NAME      only this manifest (default: both)
  --list FILE          write the ids of the tests the (only) engine passes to FILE, one a line
  --timeout SECONDS    per test and engine (default 20)
  --jobs N             tests run at once (default 2)
  --only REGEX         only the tests whose id matches
  --quiet              print only failures and the counts
  --self-test          check that the graph comparison tells equal from different documents`;

function usage(message) {
  process.stderr.write(`run.js: ${message}\n${USAGE}\n`);
  process.exit(2);
}

// ---- manifests

// Reads a manifest: every test it describes (a subject with mf:action), in mf:entries order, then those
// described but not listed (manifest-reasoner.ttl lists ":cwm_includes_t4:cwm_includes_t6", one name).
function readManifest(name) {
  const file = path.join(SUITE_DIR, MANIFESTS[name]);
  const base = SUITE_BASE + MANIFESTS[name];
  const store = new N3.Store(new N3.Parser({ baseIRI: base }).parse(fs.readFileSync(file, 'utf8')));
  const one = (s, p) => { const o = store.getObjects(s, p, null); return o.length ? o[0] : null; };
  const listed = [];
  for (let node = one(null, MF + 'entries'); node && node.value !== RDF + 'nil'; node = one(node, RDF + 'rest')) {
    listed.push(one(node, RDF + 'first').value);
  }
  const described = store.getSubjects(MF + 'action', null, null).map((s) => s.value);
  const order = [...listed.filter((t) => described.includes(t)), ...described.filter((t) => !listed.includes(t)).sort()];
  const local = (iri) => (iri.startsWith(SUITE_BASE) ? iri.slice(SUITE_BASE.length) : null);
  return order.map((iri) => {
    const options = {};
    for (const o of store.getObjects(iri, TEST + 'options', null)) {
      for (const q of store.getQuads(o, null, null, null)) options[q.predicate.value.replace(TEST, '')] = q.object.value;
    }
    const type = (one(iri, RDF + 'type') || { value: '' }).value.replace(TEST, '');
    const result = one(iri, MF + 'result');
    return {
      id: `${name}/${iri.slice(iri.indexOf('#') + 1)}`,
      manifest: name,
      type,
      action: local(one(iri, MF + 'action').value),
      result: result ? local(result.value) : null,
      options,
    };
  });
}

// What a test asks an engine for: 'read' (accept or refuse the file), 'dump' (the graph the file is),
// or for a reasoner test the output the options name, after cwm's: test:conclusions the conclusions only,
// test:data the closure without formulas and variables, test:strings the log:outputString text, none of
// them the whole store (closure and rules). test:rules (one round) and test:think (to a fixpoint) are both
// run to a fixpoint: neither engine has a one-round mode.
function taskOf(test) {
  if (test.type === 'TestN3PositiveSyntax' || test.type === 'TestN3NegativeSyntax') return test.result ? 'dump' : 'read';
  if (test.type === 'TestN3Eval') return 'dump';
  if (test.options.conclusions === 'true') return 'conclusions';
  if (test.options.data === 'true') return 'data';
  if (test.options.strings === 'true') return 'strings';
  return 'store';
}

// ---- engines

function ldgsmEngine(binary) {
  if (!fs.existsSync(binary)) usage(`no ldgsm binary at ${binary}`);
  // Use an output mode when this ldgsm has it (others may add them); without it the test fails as it should.
  const help = spawnSync(binary, ['reason', '--help'], { encoding: 'utf8' });
  const has = (option) => `${help.stdout}${help.stderr}`.includes(option);
  const modes = {
    read: has('--pass-merged') ? ['--pass-merged'] : ['--pass-only-new'],
    dump: has('--pass-merged') ? ['--pass-merged'] : ['--pass'],
    conclusions: ['--pass-only-new'],
    data: ['--pass'],
    store: has('--pass-all') ? ['--pass-all'] : ['--pass'],
    strings: has('--strings') ? ['--strings'] : null,
  };
  return {
    name: 'ldgsm',
    command(task, file) {
      const mode = modes[task];
      return mode ? [binary, ['reason', ...mode, file]] : null;
    },
    lacking: (task) => `ldgsm reason has no option for the ${task} output`,
    errorLine(stderr) {
      const lines = stderr.split('\n').filter((l) => l.trim());
      return lines.find((l) => !l.startsWith('ldgsm: warning:')) || lines[0] || '';
    },
  };
}

function eyeEngine() {
  const runner = path.join(__dirname, 'eye-run.js');
  const eye = path.resolve(__dirname, '../../node_modules/eyereasoner/package.json');
  if (!fs.existsSync(eye)) usage('EYE is not installed (node_modules/eyereasoner; scripts/peers.sh installs it)');
  const modes = {
    read: ['--pass-merged'],
    dump: ['--pass-merged'],
    conclusions: ['--pass-only-new'],
    data: ['--pass'],
    store: ['--pass-all'],
    strings: ['--strings'],
  };
  return {
    name: 'eye',
    command: (task, file) => [process.execPath, [runner, SUITE_DIR, '--nope', '--quiet', ...modes[task], '--n3', file]],
    lacking: () => '',
    errorLine(stderr) {
      const lines = stderr.split('\n').filter((l) => l.trim());
      return lines.find((l) => l.includes('** ERROR **')) || lines[0] || '';
    },
  };
}

function run(command, args, timeoutSeconds) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: SUITE_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    let size = 0;
    let timedOut = false;
    const collect = (into) => (chunk) => {
      size += chunk.length;
      if (size > OUTPUT_LIMIT) child.kill('SIGKILL');
      else into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutSeconds * 1000);
    child.on('error', (e) => { clearTimeout(timer); resolve({ code: null, signal: null, stdout: '', stderr: e.message, timedOut }); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut, tooLarge: size > OUTPUT_LIMIT });
    });
  });
}

// ---- judging

const mapIri = (iri) => {
  for (const prefix of [`file://${SUITE_DIR}/`, `file:${SUITE_DIR}/`]) {
    if (iri.startsWith(prefix)) return SUITE_BASE + iri.slice(prefix.length);
  }
  return iri;
};

const expectedCache = new Map();
// The expected result of a test, canonical (or {error}); .nt and .nq files are read as N-Triples/N-Quads.
function expectedOf(test, task) {
  const key = `${test.result}|${task}`;
  if (!expectedCache.has(key)) {
    const file = path.join(SUITE_DIR, test.result);
    let value;
    try {
      const text = fs.readFileSync(file, 'utf8');
      if (task === 'strings') value = { text };
      else {
        const format = test.result.endsWith('.nq') ? 'N-Quads' : test.result.endsWith('.nt') ? 'N-Triples' : 'text/n3';
        const parsed = iso.parseN3(text, SUITE_BASE + test.result, format);
        value = iso.canonicalDocument(parsed, { filter: task === 'data' ? iso.isPlainRdf : null });
      }
    } catch (e) {
      value = { error: `expected result ${test.result} unreadable by N3.js: ${firstLine(e.message)}` };
    }
    expectedCache.set(key, value);
  }
  return expectedCache.get(key);
}

function firstLine(text) {
  const line = String(text).split('\n').find((l) => l.trim()) || '';
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

async function judge(test, engine, timeoutSeconds) {
  const task = taskOf(test);
  const file = path.join(SUITE_DIR, test.action);
  const command = engine.command(task, file);
  if (!command) return { pass: false, reason: engine.lacking(task) };
  const r = await run(command[0], command[1], timeoutSeconds);
  if (r.timedOut) return { pass: false, reason: `timeout after ${timeoutSeconds} s` };
  if (r.tooLarge) return { pass: false, reason: `output over ${OUTPUT_LIMIT} bytes` };
  // A sanitizer build reports memory errors and undefined behaviour on standard error, with exit status 1
  // or none: never a refusal or a pass.
  const sanitizer = r.stderr.split('\n').find((l) => SANITIZER_REPORT.test(l));
  if (sanitizer) return { pass: false, reason: `sanitizer report: ${firstLine(sanitizer)}` };
  const failed = r.code !== 0;
  const error = () => `exit ${r.signal || r.code}: ${firstLine(engine.errorLine(r.stderr))}`;
  if (test.type === 'TestN3NegativeSyntax') {
    if (r.signal) return { pass: false, reason: `crashed (${r.signal}) instead of refusing the file` };
    return failed ? { pass: true, reason: firstLine(engine.errorLine(r.stderr)) } : { pass: false, reason: 'accepted the file (exit 0)' };
  }
  if (failed) return { pass: false, reason: error() };
  if (task === 'read') return { pass: true };
  const expected = expectedOf(test, task);
  if (expected.error) return { pass: false, reason: expected.error };
  if (task === 'strings') {
    const same = r.stdout.trimEnd() === expected.text.trimEnd();
    return same ? { pass: true } : { pass: false, reason: `strings differ: expected ${JSON.stringify(expected.text.trimEnd().slice(0, 100))}, got ${JSON.stringify(r.stdout.trimEnd().slice(0, 100))}` };
  }
  let actual;
  try {
    actual = iso.canonicalDocument(iso.parseN3(r.stdout, `file://${file}`), { mapIri, filter: task === 'data' ? iso.isPlainRdf : null });
  } catch (e) {
    return { pass: false, reason: `output unreadable by N3.js: ${firstLine(e.message)}` };
  }
  const c = iso.compareDocuments(expected, actual);
  return c.equal ? { pass: true } : { pass: false, reason: `graphs differ: ${c.detail}` };
}

// ---- self-test: the comparison must tell a changed document from its original

const SELF_TEST_PREFIXES = '@prefix : <http://e/>. @prefix log: <http://www.w3.org/2000/10/swap/log#>. ' +
  '@prefix xsd: <http://www.w3.org/2001/XMLSchema#>. @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>.\n';
const SELF_TEST_BASE = `:a :b :c. _:x :p _:y. _:y :p :o. :s :list (1 "two" (_:x)).
{ ?who a :Man } => { ?who a :Mortal. [] :saw ?who }. :doc :says { :a :b { :c :d [ :e 1 ] } }.`;
const SELF_TEST_CASES = [
  // [name, other document, equal to SELF_TEST_BASE?]
  ['blank nodes, variables and formula blank nodes renamed, statements reordered and repeated',
    `:doc :says { :a :b { :c :d [ :e 1 ] } }. { ?m a :Man } log:implies { [] :saw ?m. ?m a :Mortal }.
     _:q :p :o. _:r :p _:q. :s :list (1 "two" (_:r)). :a :b :c. :a :b :c.
     { ?n a :Man } => { ?n a :Mortal. [] :saw ?n }.`, true],
  ['a number written as a typed literal', SELF_TEST_BASE.replace('(1 "two"', '("1"^^xsd:integer "two"'), true],
  ['one triple changed', SELF_TEST_BASE.replace(':a :b :c.', ':a :b :d.'), false],
  ['one triple removed', SELF_TEST_BASE.replace(':a :b :c.', ''), false],
  ['one triple added', `${SELF_TEST_BASE} :a :b :e.`, false],
  ['two blank nodes merged', SELF_TEST_BASE.replace('_:y :p :o.', '_:x :p :o.').replace('_:x :p _:y.', '_:x :p _:x.'), false],
  ['a blank node split in two', SELF_TEST_BASE.replace('(_:x)', '(_:z)'), false],
  ['a triple of a formula removed', SELF_TEST_BASE.replace('[] :saw ?who', ':never :saw :it'), false],
  ['a triple of a nested formula changed', SELF_TEST_BASE.replace(':e 1', ':e 2'), false],
  ['a variable replaced by another', SELF_TEST_BASE.replace('?who a :Mortal', '?other a :Mortal'), false],
  ['variables swapped', SELF_TEST_BASE.replace('[] :saw ?who', '?who :saw []'), false],
  ['a formula blank node made a variable', SELF_TEST_BASE.replace('[ :e 1 ]', '?e. ?e :e 1'), false],
  ['list items reordered', SELF_TEST_BASE.replace('(1 "two"', '("two" 1'), false],
  ['a list item dropped', SELF_TEST_BASE.replace('(1 "two"', '(1'), false],
  ['a formula emptied into true', SELF_TEST_BASE.replace('{ :c :d [ :e 1 ] }', 'true'), false],
  ['decimal 1.0 for integer 1', SELF_TEST_BASE.replace(':e 1', ':e 1.0'), false],
];

function selfTest() {
  const canonical = (text) => iso.canonicalDocument(iso.parseN3(SELF_TEST_PREFIXES + text, 'http://e/doc'));
  const base = canonical(SELF_TEST_BASE);
  let failures = 0;
  for (const [name, other, equal] of SELF_TEST_CASES) {
    const c = iso.compareDocuments(base, canonical(other));
    const ok = c.equal === equal;
    if (!ok) failures++;
    process.stdout.write(`${ok ? 'ok' : 'WRONG'}: ${name}: ${c.equal ? 'equal' : 'different'}${ok ? '' : ` (${c.detail})`}\n`);
  }
  // A cycle of six blank nodes is not two cycles of three, though every node looks alike to refinement.
  const cycle = (pairs) => canonical(pairs.map(([a, b]) => `_:n${a} :p _:n${b}.`).join(' '));
  const six = cycle([[1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 1]]);
  const twoThrees = cycle([[1, 2], [2, 3], [3, 1], [4, 5], [5, 6], [6, 4]]);
  const sixRenamed = cycle([[4, 1], [1, 6], [6, 3], [3, 5], [5, 2], [2, 4]]);
  for (const [name, a, b, equal] of [['6-cycle vs two 3-cycles', six, twoThrees, false], ['6-cycle renamed', six, sixRenamed, true]]) {
    const c = iso.compareDocuments(a, b);
    if (c.equal !== equal) failures++;
    process.stdout.write(`${c.equal === equal ? 'ok' : 'WRONG'}: ${name}: ${c.equal ? 'equal' : 'different'}\n`);
  }
  process.stdout.write(failures ? `self-test: ${failures} WRONG\n` : 'self-test: all ok\n');
  return failures === 0;
}

// ---- main

async function main() {
  const args = process.argv.slice(2);
  const engines = [];
  const manifests = [];
  const lists = [];
  let timeoutSeconds = 20;
  let jobs = 2;
  let only = null;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => { if (i + 1 >= args.length) usage(`${a} needs a value`); return args[++i]; };
    if (a === '--self-test') process.exit(selfTest() ? 0 : 1);
    else if (a === '--engine') {
      const v = value();
      if (v === 'eye') engines.push(eyeEngine());
      else if (v.startsWith('ldgsm=')) engines.push(ldgsmEngine(path.resolve(v.slice(6))));
      else usage(`unknown engine ${v}`);
    } else if (a === '--manifest') {
      const v = value();
      if (!MANIFESTS[v]) usage(`unknown manifest ${v}`);
      manifests.push(v);
    } else if (a === '--list') lists.push(value());
    else if (a === '--timeout') timeoutSeconds = Number(value());
    else if (a === '--jobs') jobs = Number(value());
    else if (a === '--only') only = new RegExp(value());
    else if (a === '--quiet') quiet = true;
    else if (a === '-h' || a === '--help') { process.stdout.write(`${USAGE}\n`); return; }
    else usage(`unknown argument ${a}`);
  }
  if (engines.length === 0) usage('no --engine given');
  if (!(timeoutSeconds > 0) || !(jobs >= 1)) usage('--timeout and --jobs take positive numbers');
  const listFiles = new Map();
  for (const l of lists) {
    const eq = l.indexOf('=');
    const named = eq > 0 && engines.some((e) => e.name === l.slice(0, eq));
    if (named) listFiles.set(l.slice(0, eq), l.slice(eq + 1));
    else if (engines.length === 1) listFiles.set(engines[0].name, l);
    else usage('with several engines, --list takes ENGINE=FILE');
  }

  const tests = (manifests.length ? manifests : Object.keys(MANIFESTS)).flatMap(readManifest)
    .filter((t) => !only || only.test(t.id));
  const work = tests.flatMap((test) => engines.map((engine) => ({ test, engine })));
  const results = new Array(work.length);
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const i = next++;
      const { test, engine } = work[i];
      results[i] = await judge(test, engine, timeoutSeconds);
      const r = results[i];
      if (!quiet || !r.pass) {
        // A refused negative test shows the refusal, so that one can see it is about the syntax.
        const why = r.pass ? (r.reason ? ` (${r.reason})` : '') : `: ${r.reason}`;
        process.stdout.write(`${r.pass ? 'PASS' : 'FAIL'} ${engine.name} ${test.id}${why}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, work.length) }, worker));

  const passes = new Map(engines.map((e) => [e.name, []]));
  const counts = new Map();
  work.forEach(({ test, engine }, i) => {
    const key = `${test.manifest}\t${engine.name}`;
    if (!counts.has(key)) counts.set(key, { passed: 0, total: 0 });
    counts.get(key).total++;
    if (results[i].pass) { counts.get(key).passed++; passes.get(engine.name).push(test.id); }
  });
  process.stdout.write('\nmanifest  engine  passed/total\n');
  for (const [key, c] of counts) {
    const [manifest, engine] = key.split('\t');
    process.stdout.write(`${manifest.padEnd(9)} ${engine.padEnd(7)} ${c.passed}/${c.total}\n`);
  }
  for (const [engine, file] of listFiles) fs.writeFileSync(file, passes.get(engine).sort().map((id) => `${id}\n`).join(''));
}

main().catch((e) => {
  process.stderr.write(`run.js: ${e.stack || e}\n`);
  process.exit(1);
});
