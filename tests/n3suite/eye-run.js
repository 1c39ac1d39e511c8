#!/usr/bin/env node
// Runs EYE (the eyereasoner package) the way the native `eye` command runs, for the N3 suite runner: the
// files under ROOT are copied into its WebAssembly file system at the same absolute paths (eye-wasm.js).
// The package's own command exits 0 even after "** ERROR **"; this one exits 1 when EYE reported an
// error, as the native command does.
//
// usage: node eye-run.js ROOT EYE-ARGUMENT...   (name files by absolute path: EYE's directory is "/")
'use strict';
const { runEye } = require('./eye-wasm');

async function main() {
  const [treeRoot, ...eyeArgs] = process.argv.slice(2);
  if (!treeRoot || eyeArgs.length === 0) {
    process.stderr.write('usage: node eye-run.js ROOT EYE-ARGUMENT...\n');
    process.exit(2);
  }
  const r = await runEye(treeRoot, eyeArgs, { printErr: (line) => process.stderr.write(line + '\n') });
  process.stdout.write(r.stdout);
  process.exitCode = r.reportedError ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`eye-run.js: ${err && err.message ? err.message : err}\n`);
  process.exit(1);
});
