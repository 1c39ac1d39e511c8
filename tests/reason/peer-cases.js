#!/usr/bin/env node
// Runs every case under tests/reason/cases/ through `ldgsm reason --pass-only-new` and through EYE (the
// eyereasoner package, run as tests/n3suite/eye-run.js runs it, in one worker thread for all the cases:
// eye-worker.js) and compares the two outputs as N3 graphs
// (tests/n3suite/n3iso.js: blank nodes, lists, formulas and variables compared by structure).
//
// A case agrees when the graphs are equal, or when every difference is declared by files in its directory:
//   eye-only.n3    the statements EYE derives and ldgsm does not;
//   ldgsm-only.n3  the statements ldgsm derives and EYE does not;
//   eye-not-n3.txt lines of EYE's output that are not N3, exactly as EYE writes them (leading spaces
//                  aside; lines starting with # are comments saying why): removed before N3.js reads the
//                  output, and each must be there;
//   eye-fails      EYE stops with "** ERROR **" on this case (a feature its WebAssembly build lacks):
//                  its first line says why, and a line "stderr: TEXT" names text EYE's standard error
//                  must hold (so that another failure is not taken for this one); the outputs are then
//                  not compared.
// eye-only.n3 and ldgsm-only.n3 are N3 read with the base IRI file:///CASE/program.n3 (the case's files
// are copied to a temporary directory, whose IRIs are compared as file:///CASE/...), and must start with
// a comment; each statement in them carries a comment saying why it differs (the builtins report, a known
// EYE bug, or a deliberate choice written in the builtin's source file). A variable ?x in a declared
// statement stands for any one IRI, literal or blank node (EYE's fresh names are random in every run), the
// same one wherever it occurs in the statement. The declared differences must be exactly the differences
// found: a difference not declared fails, and so does a declaration that no longer differs (or an
// eye-fails case where EYE now succeeds). When differences are declared, the statements both derive are
// compared by their canonical forms, blank nodes shared between statements not matched.
//
// Anything else fails, with the case named: ldgsm exiting non-zero or with a sanitizer report, EYE
// reporting an error or running over the timeout, an output N3.js cannot read.
//
// usage: node peer-cases.js LDGSM_BINARY [--eye-timeout SECONDS] [CASE_DIR...]   (the timeout bounds each
//        run of EYE and of ldgsm; 60 s unless given)
//        (no CASE_DIR: every directory under tests/reason/cases/)
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { Worker } = require('worker_threads');

const root = path.resolve(__dirname, '../..');
const iso = require(path.join(root, 'tests/n3suite/n3iso'));
// SWI-Prolog's default stack limit is 1 GB, which EYE takes some 12 s of CPU to fill on a case it
// overflows (backward-rules); every case passes with 1 MB.
const EYE_STACK_LIMIT = 8 << 20;
const CASE_IRI = 'file:///CASE/';
// A sanitizer build reports memory errors and undefined behaviour on standard error, maybe with exit 0.
const SANITIZER_REPORT = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error: /;

function firstLines(text, count = 3) {
  return String(text).split('\n').filter((l) => l.trim()).slice(0, count).join(' | ').slice(0, 600);
}

// The case's files copied into dir (the documents a program reads by a relative IRI among them); returns
// its inputs [{file, turtle}] in ldgsm's order: program.path's target, program.n3, data.ttl.
function copyInputs(caseDir, dir) {
  for (const entry of fs.readdirSync(caseDir, { withFileTypes: true })) {
    if (entry.isFile()) fs.copyFileSync(path.join(caseDir, entry.name), path.join(dir, entry.name));
  }
  const inputs = [];
  const pathFile = path.join(caseDir, 'program.path');
  if (fs.existsSync(pathFile)) {
    const rules = path.resolve(caseDir, fs.readFileSync(pathFile, 'utf8').trim());
    fs.copyFileSync(rules, path.join(dir, path.basename(rules)));
    inputs.push({ file: path.join(dir, path.basename(rules)), turtle: false });
  }
  if (fs.existsSync(path.join(caseDir, 'program.n3'))) inputs.push({ file: path.join(dir, 'program.n3'), turtle: false });
  if (fs.existsSync(path.join(caseDir, 'data.ttl'))) inputs.push({ file: path.join(dir, 'data.ttl'), turtle: true });
  return inputs;
}

// Canonical statements of an N3 text: a multiset of canonical strings (global blank nodes as $0, $1, ...).
function statementsOf(text, baseIRI, mapIri) {
  const doc = iso.canonicalDocument(iso.parseN3(text, baseIRI), { mapIri });
  const texts = [...doc.constant, ...doc.withGlobals.map((s) => s.text)];
  return { doc, texts };
}

// The strings of a not in b, as a multiset difference.
function minus(a, b) {
  const count = new Map();
  for (const t of b) count.set(t, (count.get(t) || 0) + 1);
  const out = [];
  for (const t of a) {
    if (count.get(t)) count.set(t, count.get(t) - 1);
    else out.push(t);
  }
  return out.sort();
}

// One IRI, literal or blank node in a canonical statement (n3iso.js serialiseTerm).
const TERM = String.raw`(<[^>]*>|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@[A-Za-z0-9-]+)?|\$\d+|_:b\d+)`;

// A declared canonical statement as a matcher: itself, or with its variables as terms (back-references
// where a variable repeats).
function matcherOf(text) {
  if (!/\?v\d+/.test(text)) return (t) => t === text;
  const groups = new Map();
  const source = text.split(/(\?v\d+)/).map((part, i) => {
    if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (groups.has(part)) return `\\${groups.get(part)}`;
    groups.set(part, groups.size + 1);
    return TERM;
  }).join('');
  const re = new RegExp(`^${source}$`);
  return (t) => re.test(t);
}

// Pairs the found differences with the declared ones: {undeclared, stale}, each a list of statements.
function matchDeclared(found, declaredTexts) {
  const left = [...found];
  const stale = [];
  // exact declarations first, so that a pattern does not take a statement written out in full
  const ordered = [...declaredTexts].sort((a, b) => Number(/\?v\d+/.test(a)) - Number(/\?v\d+/.test(b)));
  for (const d of ordered) {
    const matches = matcherOf(d);
    const i = left.findIndex(matches);
    if (i >= 0) left.splice(i, 1);
    else stale.push(d);
  }
  return { undeclared: left, stale };
}

// EYE's output without the lines the case declares are not N3, or an error naming a missing one.
function withoutNonN3(caseDir, output) {
  const file = path.join(caseDir, 'eye-not-n3.txt');
  if (!fs.existsSync(file)) return { text: output };
  const drop = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.trim());
  const lines = output.split('\n');
  for (const d of drop) {
    const i = lines.findIndex((l) => l.trim() === d);
    if (i < 0) return { error: `eye-not-n3.txt lists a line EYE no longer writes: ${d}` };
    lines.splice(i, 1);
  }
  return { text: lines.join('\n') };
}

// A declared-difference file's statements, or [] when the case has none.
function declared(caseDir, name) {
  const file = path.join(caseDir, name);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  if (!/^\s*#/.test(text)) throw new Error(`${name} must start with a comment saying why EYE and ldgsm differ`);
  return statementsOf(text, `${CASE_IRI}program.n3`, (iri) => iri).texts;
}

// Runs EYE in a worker thread kept from run to run: a fresh node process per case cost some 2 s of CPU,
// most of it compiling EYE's WebAssembly. A run over the timeout is stopped by terminating the worker; the
// next run starts another. run() answers {status, stdout, stderr} or {timedOut}.
function eyeRunner() {
  let worker = null;
  return {
    run(treeRoot, eyeArgs, timeoutSeconds) {
      if (!worker) worker = new Worker(path.join(__dirname, 'eye-worker.js'));
      const w = worker;
      return new Promise((resolve) => {
        const failed = (err) => lost(`failed: ${err && err.message ? err.message : err}`);
        const exited = (code) => lost(`exited (${code})`);
        const finish = (result) => {
          clearTimeout(timer);
          w.off('message', finish).off('error', failed).off('exit', exited);
          resolve(result);
        };
        const lost = (why) => {
          worker = null;
          finish({ status: 1, stdout: '', stderr: `EYE's worker thread ${why}\n` });
        };
        const timer = setTimeout(() => {
          worker = null;
          w.terminate();
          finish({ timedOut: true });
        }, timeoutSeconds * 1000);
        w.on('message', finish).on('error', failed).on('exit', exited);
        w.postMessage({ treeRoot, eyeArgs, stackLimit: EYE_STACK_LIMIT });
      });
    },
    close() {
      if (worker) worker.terminate();
    },
  };
}

async function judge(ldgsm, eyeRun, caseDir, timeoutSeconds) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ldgsm-peer-case.'));
  try {
    const inputs = copyInputs(caseDir, dir);
    const mapIri = (iri) => (iri.startsWith(`file://${dir}/`) ? CASE_IRI + iri.slice(`file://${dir}/`.length) : iri);
    const ours = spawnSync(ldgsm, ['reason', '--pass-only-new', ...inputs.map((i) => i.file)],
      { encoding: 'utf8', maxBuffer: 64 << 20, timeout: timeoutSeconds * 1000, killSignal: 'SIGKILL' });
    if (ours.error && ours.error.code === 'ETIMEDOUT') return { pass: false, reason: `ldgsm took over ${timeoutSeconds} s` };
    if (ours.status !== 0) return { pass: false, reason: `ldgsm exit ${ours.status ?? ours.signal}: ${firstLines(ours.stderr)}` };
    const sanitizer = ours.stderr.split('\n').find((l) => SANITIZER_REPORT.test(l));
    if (sanitizer) return { pass: false, reason: `ldgsm sanitizer report: ${sanitizer}` };

    const eyeArgs = ['--nope', '--quiet', '--pass-only-new'];
    for (const i of inputs) eyeArgs.push(...(i.turtle ? ['--turtle', i.file] : [i.file]));
    const eye = await eyeRun.run(dir, eyeArgs, timeoutSeconds);
    const eyeFailsFile = path.join(caseDir, 'eye-fails');
    if (eye.timedOut) return { pass: false, reason: `EYE took over ${timeoutSeconds} s` };
    const eyeError = eye.status !== 0 || /\*\* ERROR \*\*/.test(eye.stderr);
    if (fs.existsSync(eyeFailsFile)) {
      const declaration = fs.readFileSync(eyeFailsFile, 'utf8');
      const why = firstLines(declaration, 1);
      const stderrLine = declaration.split('\n').find((l) => l.startsWith('stderr: '));
      if (!why || why.startsWith('stderr: ') || !stderrLine) {
        return { pass: false, reason: 'eye-fails must say why EYE fails on its first line and hold a line "stderr: TEXT"' };
      }
      const expectedError = stderrLine.slice('stderr: '.length).trim();
      if (!eyeError) return { pass: false, reason: 'eye-fails is declared but EYE succeeded: compare the outputs instead' };
      if (!eye.stderr.includes(expectedError)) {
        return { pass: false, reason: `EYE failed, but not as eye-fails declares (${expectedError}): ${firstLines(eye.stderr)}` };
      }
      return { pass: true, kind: 'eye-fails', reason: `EYE fails as declared: ${expectedError}` };
    }
    if (eyeError) return { pass: false, reason: `EYE failed (exit ${eye.status}): ${firstLines(eye.stderr)}` };

    let ourStatements;
    let eyeStatements;
    try {
      ourStatements = statementsOf(ours.stdout, `file://${inputs[0].file}`, mapIri);
    } catch (e) {
      return { pass: false, reason: `ldgsm output unreadable by N3.js: ${firstLines(e.message, 1)}` };
    }
    try {
      const readable = withoutNonN3(caseDir, eye.stdout);
      if (readable.error) return { pass: false, reason: readable.error };
      eyeStatements = statementsOf(readable.text, `file://${inputs[0].file}`, mapIri);
    } catch (e) {
      return { pass: false, reason: `EYE output unreadable by N3.js: ${firstLines(e.message, 1)}` };
    }
    const eyeOnly = minus(eyeStatements.texts, ourStatements.texts);
    const ldgsmOnly = minus(ourStatements.texts, eyeStatements.texts);
    let declaredEyeOnly;
    let declaredLdgsmOnly;
    try {
      declaredEyeOnly = declared(caseDir, 'eye-only.n3');
      declaredLdgsmOnly = declared(caseDir, 'ldgsm-only.n3');
    } catch (e) {
      return { pass: false, reason: firstLines(e.message, 1) };
    }
    const problems = [];
    const eyeMatch = matchDeclared(eyeOnly, declaredEyeOnly);
    const ldgsmMatch = matchDeclared(ldgsmOnly, declaredLdgsmOnly);
    for (const t of eyeMatch.undeclared) problems.push(`EYE derives, ldgsm does not (undeclared): ${t}`);
    for (const t of ldgsmMatch.undeclared) problems.push(`ldgsm derives, EYE does not (undeclared): ${t}`);
    for (const t of eyeMatch.stale) problems.push(`declared in eye-only.n3 but not an EYE-only statement: ${t}`);
    for (const t of ldgsmMatch.stale) problems.push(`declared in ldgsm-only.n3 but not an ldgsm-only statement: ${t}`);
    if (problems.length) return { pass: false, reason: `graphs differ:\n    ${problems.join('\n    ')}` };
    if (eyeOnly.length || ldgsmOnly.length) {
      return { pass: true, kind: 'declared', reason: `${eyeOnly.length} EYE-only and ${ldgsmOnly.length} ldgsm-only statements, as declared` };
    }
    const c = iso.compareDocuments(eyeStatements.doc, ourStatements.doc);
    if (!c.equal) return { pass: false, reason: `graphs differ (EYE expected, ldgsm got): ${c.detail}` };
    return { pass: true, kind: 'equal', reason: `the same ${ourStatements.texts.length} statements` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  let eyeTimeout = 60;
  const t = args.indexOf('--eye-timeout');
  if (t >= 0) { eyeTimeout = Number(args[t + 1]); args.splice(t, 2); }
  const [ldgsm, ...caseDirs] = args;
  if (!ldgsm || !(eyeTimeout > 0)) {
    process.stderr.write('usage: node peer-cases.js LDGSM_BINARY [--eye-timeout SECONDS] [CASE_DIR...]\n');
    process.exit(2);
  }
  const casesRoot = path.join(__dirname, 'cases');
  const dirs = caseDirs.length ? caseDirs
    : fs.readdirSync(casesRoot, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(casesRoot, e.name)).sort();
  const tally = { equal: 0, declared: 0, 'eye-fails': 0, failed: 0 };
  const eyeRun = eyeRunner();
  for (const caseDir of dirs) {
    const name = path.basename(path.resolve(caseDir));
    const r = await judge(path.resolve(ldgsm), eyeRun, path.resolve(caseDir), eyeTimeout);
    tally[r.pass ? r.kind : 'failed']++;
    process.stdout.write(`${r.pass ? 'ok  ' : 'FAIL'} ${name}: ${r.reason}\n`);
  }
  eyeRun.close();
  process.stdout.write(`peer cases: ${tally.equal} equal, ${tally.declared} with declared differences, ` +
    `${tally['eye-fails']} where EYE fails as declared, ${tally.failed} failed\n`);
  process.exitCode = tally.failed ? 1 : 0;
}

main();
