// One run of EYE (the eyereasoner package: EYE compiled to WebAssembly) inside this node process, for
// eye-run.js (the command the N3 suite runner spawns) and tests/reason/eye-worker.js (which runs every
// peer case in one thread, so that V8 compiles the WebAssembly once). Each run gets a fresh SWI-Prolog
// Module, and with it a file system of its own: no run sees another's files.
//
// Every file under the tree root is copied into the WebAssembly file system at the same absolute path, so
// a file named by its absolute path has the base IRI file://<its real path> as it has for ldgsm, and the
// documents a program reads with log:semantics are there (the package's own command copies only the files
// named on the command line, relative to "/").
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

// Runs EYE with eyeArgs (files named by absolute path: EYE's directory is "/") over a copy of treeRoot;
// printErr gets each line EYE writes to standard error. stackLimit, in bytes, replaces SWI-Prolog's
// default of 1 GB when given. Returns {stdout, reportedError}; reportedError tells that EYE wrote
// "** ERROR **", since its main succeeds all the same.
async function runEye(treeRoot, eyeArgs, { printErr, stackLimit } = {}) {
  let reportedError = false;
  const out = [];
  const Module = await SwiplEye({
    print: (line) => out.push(line),
    printErr: (line) => {
      if (line.includes('** ERROR **')) reportedError = true;
      printErr(line);
    },
  });
  copyTree(Module, path.resolve(treeRoot));
  if (stackLimit) Module.prolog.query(`set_prolog_flag(stack_limit, ${Number(stackLimit)})`).once();
  // EYE asks nothing on standard input in the modes used here; an empty answer ends any question.
  await qaQuery(Module, 'main', eyeArgs, async () => '');
  return { stdout: out.length ? out.join('\n') + '\n' : '', reportedError };
}

module.exports = { runEye };
