#!/usr/bin/env node
// Runs EYE (the eyereasoner package: EYE compiled to WebAssembly) the way the native `eye` command runs, for
// the N3 suite runner: every file under ROOT is copied into the WebAssembly file system at the same absolute
// path, so a file named by its absolute path has the base IRI file://<its real path> as it has for ldgsm,
// and the documents a test reads with log:semantics are there. The package's own command copies only the
// files named on the command line, relative to "/", and exits 0 even after "** ERROR **"; this one exits 1
// when EYE reported an error, as the native command does.
//
// usage: node eye-run.js ROOT EYE-ARGUMENT...   (name files by absolute path: EYE's directory is "/")
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '../..');
const { SwiplEye, qaQuery } = require(path.join(root, 'node_modules/eyereasoner'));

function copyTree(Module, dir) {
  Module.FS.mkdirTree(dir);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) copyTree(Module, full);
    else if (entry.isFile()) Module.FS.writeFile(full, fs.readFileSync(full));
  }
}

async function main() {
  const [treeRoot, ...eyeArgs] = process.argv.slice(2);
  if (!treeRoot || eyeArgs.length === 0) {
    process.stderr.write('usage: node eye-run.js ROOT EYE-ARGUMENT...\n');
    process.exit(2);
  }
  let reportedError = false;
  const out = [];
  const Module = await SwiplEye({
    print: (line) => out.push(line),
    printErr: (line) => {
      if (line.includes('** ERROR **')) reportedError = true;
      process.stderr.write(line + '\n');
    },
  });
  copyTree(Module, path.resolve(treeRoot));
  // EYE asks nothing on standard input in the modes the runner uses; an empty answer ends any question.
  await qaQuery(Module, 'main', eyeArgs, async () => '');
  process.stdout.write(out.length ? out.join('\n') + '\n' : '');
  process.exitCode = reportedError ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`eye-run.js: ${err && err.message ? err.message : err}\n`);
  process.exit(1);
});
