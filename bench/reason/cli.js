// cli.js: what bench/reason's generators share: their options, parsed by their own parseArgs from the
// command line, or the error said and exit status 2.
'use strict';

function optionsOrExit(parseArgs) {
  try {
    return parseArgs(process.argv.slice(2));
  }
  catch (error) {
    process.stderr.write(`gen.js: ${error.message}\n`);
    process.exit(2);
  }
}

module.exports = { optionsOrExit };
