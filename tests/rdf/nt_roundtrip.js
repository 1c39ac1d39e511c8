// nt_roundtrip.js: N3.js reads back what `ldgsm reason -o ntriples` writes. Random triples (IRIs with
// non-ASCII and non-BMP characters; literals with quotes, backslashes, control characters, non-BMP text,
// language tags, datatypes) are written as N-Triples input with every character outside a small safe set
// escaped (\uXXXX, \UXXXXXXXX), so the input does not depend on how the writer escapes; ldgsm reads it and
// writes its closure, which N3.js must parse (strict N-Triples) to exactly the triples generated.
//
// usage: node nt_roundtrip.js LDGSM_BINARY WORK_DIR [ROUNDS]
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const N3 = require(path.join(__dirname, '../../node_modules/n3'));

const [ldgsm, work, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg || 50);
const triplesPerRound = 40;

function rng(seed) { // mulberry32
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

const iriChars = ['a', 'z', '0', '9', '#', '/', '%', '~', '-', '.', '_', ':', '?', '=', '&', '\'', '(', '!', '$',
  ';', '@', '\u00e9', '\u4e2d', '\ufffd', '\u{1f600}', '\u{10348}', '\u{10ffff}'];
// NUL is left out: raptor2 ends a literal's text at an escaped NUL.
const literalChars = ['a', 'Z', '5', ' ', '"', '\'', '\\', '\n', '\r', '\t', '\b', '\f', '\u0001', '\u001b',
  '\u001f', '\u007f', '<', '>', '^', '@', '{', '}', '|', '`', '\u00e9', '\u4e2d', '\u2028', '\ufeff', '\u{1f600}',
  '\u{10348}', '\u{10ffff}'];
const langTags = ['en', 'en-us', 'de-ch-1996', 'zh-hant-tw', 'x-private'];

function text(pick, chars, max) {
  let s = '';
  for (let n = pick(max); n > 0; n--) s += chars[pick(chars.length)];
  return s;
}
const iri = (pick) => N3.DataFactory.namedNode('http://ex.org/' + text(pick, iriChars, 12));

function literal(pick) {
  const lex = text(pick, literalChars, 10);
  switch (pick(3)) {
    case 0: return N3.DataFactory.literal(lex);
    case 1: return N3.DataFactory.literal(lex, langTags[pick(langTags.length)]);
    default: return N3.DataFactory.literal(lex, iri(pick));
  }
}

// Every code point outside [A-Za-z0-9/:.] as a UCHAR.
function escape(s) {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (/[A-Za-z0-9/:.]/.test(ch)) out += ch;
    else if (c > 0xffff) out += '\\U' + c.toString(16).padStart(8, '0');
    else out += '\\u' + c.toString(16).padStart(4, '0');
  }
  return out;
}

function inputTerm(term) {
  if (term.termType === 'NamedNode') return '<' + escape(term.value) + '>';
  let s = '"' + escape(term.value) + '"';
  if (term.language) s += '@' + term.language;
  else if (term.datatype.value !== 'http://www.w3.org/2001/XMLSchema#string') s += '^^' + inputTerm(term.datatype);
  return s;
}

const key = (q) => [q.subject, q.predicate, q.object].map((t) => t.id || N3.termToId(t)).join('\u0000');
let failures = 0;
for (let seed = 1; seed <= rounds; seed++) {
  const pick = rng(seed);
  const triples = [];
  for (let i = 0; i < triplesPerRound; i++) {
    triples.push(N3.DataFactory.quad(iri(pick), iri(pick), pick(3) ? literal(pick) : iri(pick)));
  }
  const input = path.join(work, `round-${seed}.nt`);
  fs.writeFileSync(input, triples.map((q) => `${inputTerm(q.subject)} ${inputTerm(q.predicate)} ${inputTerm(q.object)} .\n`).join(''));
  const output = execFileSync(ldgsm, ['reason', '--pass', '-o', 'ntriples', input], { encoding: 'utf8' });
  let back;
  try {
    back = new N3.Parser({ format: 'N-Triples' }).parse(output);
  } catch (e) {
    console.error(`seed ${seed}: N3.js refuses ldgsm's output: ${e.message}\ninput: ${input}`);
    failures++;
    continue;
  }
  const want = new Set(triples.map(key));
  const got = new Set(back.map(key));
  const missing = [...want].filter((k) => !got.has(k));
  const extra = [...got].filter((k) => !want.has(k));
  if (missing.length || extra.length) {
    console.error(`seed ${seed}: ${missing.length} triples lost, ${extra.length} others read back; input ${input}`);
    for (const k of missing.slice(0, 3)) console.error('  lost: ' + JSON.stringify(k.split('\u0000')));
    for (const k of extra.slice(0, 3)) console.error('  read: ' + JSON.stringify(k.split('\u0000')));
    failures++;
  } else {
    fs.unlinkSync(input);
  }
}
console.log(`nt_roundtrip.js: ${rounds} rounds of ${triplesPerRound} triples, ${failures} failed`);
process.exit(failures ? 1 : 0);
