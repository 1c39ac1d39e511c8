// The worker thread in which peer-cases.js runs EYE: one run per message, each in a fresh Module
// (tests/n3suite/eye-wasm.js), all in this thread so that V8 compiles EYE's WebAssembly once. It answers
// {status, stdout, stderr} as eye-run.js would exit and print.
'use strict';
const path = require('path');
const { parentPort } = require('worker_threads');
const { runEye } = require(path.join(__dirname, '../n3suite/eye-wasm'));

parentPort.on('message', async ({ treeRoot, eyeArgs, stackLimit }) => {
  const stderr = [];
  const printErr = (line) => stderr.push(`${line}\n`);
  try {
    const r = await runEye(treeRoot, eyeArgs, { printErr, stackLimit });
    parentPort.postMessage({ status: r.reportedError ? 1 : 0, stdout: r.stdout, stderr: stderr.join('') });
  } catch (err) {
    printErr(`eye-worker.js: ${err && err.message ? err.message : err}`);
    parentPort.postMessage({ status: 1, stdout: '', stderr: stderr.join('') });
  }
});
