// The JSON Schema dialect for servers that turn a response_format schema into a GBNF grammar (llama.cpp, Ollama).
import type { JsonSchema } from '../json-schema.js';
import { keepOnly } from '../vendors.js';

// What llama.cpp's converters (common/json-schema-to-grammar.cpp and its JS twin) read: anything else they ignore
// without a word, so keepOnly throws on it rather than send a constraint the grammar would not hold. minimum and
// maximum bound an integer's grammar; on a number the converters ignore them, and they stay for the servers whose
// grammar engine reads them (vLLM's), the answer's check holding them either way. description feeds no grammar and
// costs nothing.
const KEEP = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  'description',
  'pattern',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
];

// The largest count a grammar is given. llama.cpp's newest parser refuses a lower bound over 2,000 ("exceeds sane
// defaults") and silently drops an upper one over 2,000 (the repeat becomes unbounded), and every parser writes a
// bounded repeat out as that many nested rules. A bound capped here is stricter than the answer's check, never looser:
// an answer the grammar allows still passes the check (the room answer's 2,000 characters become 1,000).
export const GRAMMAR_MAX_REPEAT = 1000;

const DIALECT = 'a GBNF grammar (llama.cpp, Ollama)';

function fail(why: string): never {
  throw new Error(`${DIALECT} cannot express ${why}`);
}

// A lower bound over the cap cannot be capped (nothing would be allowed): refused. An upper bound is capped.
function cappedCount(s: JsonSchema, min: 'minLength' | 'minItems', max: 'maxLength' | 'maxItems'): JsonSchema {
  const out: JsonSchema = { ...s };
  if (out[min] !== undefined) {
    const n = Number(out[min]);
    if (n > GRAMMAR_MAX_REPEAT) fail(`${min} ${n}: the most is ${GRAMMAR_MAX_REPEAT}`);
    out[min] = n;
  }
  if (out[max] !== undefined) out[max] = Math.min(Number(out[max]), GRAMMAR_MAX_REPEAT);
  return out;
}

type CodeRange = [number, number];

// A code point as GBNF writes it in a class or a literal: letters, digits and anything past ASCII as they are, the
// rest as a hex escape, which both releases' parsers read in and out of a class (GBNF has no \- or \. in the old
// one, and a bare ^ first in a class negates it).
function gbnfChar(cp: number): string {
  if (cp >= 0x80 || /[0-9A-Za-z]/.test(String.fromCodePoint(cp))) return String.fromCodePoint(cp);
  return `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`;
}

// One escape at p[i] (a backslash): the code points it stands for and its length. \s \S \w \W \D \b \B, back-references
// and \p{…} throw: llama.cpp's old parser refuses them in a grammar ("unknown escape"), and its newest converter drops
// the whole pattern and accepts any string ("accepting any string"); written out as a class they are read.
function escapeAt(p: string, i: number): [CodeRange, number] {
  const c = p[i + 1];
  if (c === undefined) fail(`the pattern ${p}: it ends with a backslash`);
  if (c === 'd') return [[0x30, 0x39], 2];
  const named: Record<string, number> = { t: 0x09, n: 0x0a, r: 0x0d, f: 0x0c, v: 0x0b };
  if (named[c] !== undefined) return [[named[c], named[c]], 2];
  const digits = c === 'x' ? 2 : c === 'u' ? 4 : 0;
  const code = p.slice(i + 2, i + 2 + digits);
  if (digits && new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(code)) {
    const n = parseInt(code, 16);
    return [[n, n], 2 + digits];
  }
  if (/[0-9A-Za-z]/.test(c))
    fail(`the escape \\${c} in the pattern ${p}: write the characters out as a class (as [0-9] for \\d)`);
  // Escaped punctuation is the character itself.
  return [[c.charCodeAt(0), c.charCodeAt(0)], 2];
}

function gbnfRange([a, b]: CodeRange): string {
  return a === b ? gbnfChar(a) : `${gbnfChar(a)}-${gbnfChar(b)}`;
}

// One character at p[i] outside a class, escaped or not: its code points and length.
function atom(p: string, i: number): [CodeRange, number] {
  if (p[i] === '\\') return escapeAt(p, i);
  const cp = p.codePointAt(i)!;
  return [[cp, cp], cp > 0xffff ? 2 : 1];
}

// A grammar matches a string's JSON text, not its value: a quote, a backslash or a control character in it would
// break the JSON or stand for an escape the pattern never meant. A pattern that allows one is refused, and the
// wildcard and a negated class leave them out (stricter than the pattern, never looser).
const escapedInJson = ([a, b]: CodeRange) => a < 0x20 || (a <= 0x22 && 0x22 <= b) || (a <= 0x5c && 0x5c <= b);
const EXCLUDED = '\\x22\\x5C\\x00-\\x1F';
// JavaScript's dot: anything but a line terminator (\n and \r are among the excluded already).
const DOT = `[^\\u2028\\u2029${EXCLUDED}]`;

// A character class from p[i] ("[") to its "]", as GBNF reads it, and its length.
function charClass(p: string, i: number): [string, number] {
  let j = i + 1;
  const negated = p[j] === '^';
  if (negated) j++;
  const ranges: CodeRange[] = [];
  while (j < p.length && p[j] !== ']') {
    const wide = p[j] === '\\' && p[j + 1] === 'd';
    let [r, n] = atom(p, j);
    // Without the u flag JavaScript reads a character past U+FFFF in a class as two, GBNF as one.
    if (r[0] > 0xffff) fail(`the pattern ${p}: a character past U+FFFF in a class`);
    j += n;
    // a-z is a range; a trailing "-" (before "]") is the character.
    if (p[j] === '-' && j + 1 < p.length && p[j + 1] !== ']') {
      const [end, m] = atom(p, j + 1);
      if (wide || (p[j + 1] === '\\' && p[j + 2] === 'd') || end[0] < r[0]) fail(`the pattern ${p}: the range at ${j}`);
      r = [r[0], end[0]];
      j += 1 + m;
    }
    ranges.push(r);
  }
  if (j >= p.length) fail(`the pattern ${p}: a class is not closed`);
  if (!negated && !ranges.length) fail(`the pattern ${p}: an empty class matches nothing`);
  if (!negated && ranges.some(escapedInJson))
    fail(`the pattern ${p}: a class allows a quote, a backslash or a control character, escaped in JSON text`);
  // In a negated class a lone quote, backslash or control character is among the excluded already.
  const kept = negated ? ranges.filter((r) => r[0] !== r[1] || !escapedInJson(r)) : ranges;
  const body = kept.map(gbnfRange).join('');
  return [negated ? `[^${body}${EXCLUDED}]` : `[${body}]`, j + 1 - i];
}

// A {n}, {n,} or {n,m} at p[i], with its upper bound capped; an open one is closed at the cap too, since llama.cpp's
// old converter writes it as {n,Infinity}, which its parser refuses.
function quantifier(p: string, i: number): [string, number] {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
  if (!m) fail(`the pattern ${p}: "{" at ${i} is not a quantifier`);
  const min = Number(m[1]);
  if (min > GRAMMAR_MAX_REPEAT) fail(`the repeat ${m[0]} in the pattern ${p}: the most is ${GRAMMAR_MAX_REPEAT}`);
  const max = m[2] === undefined ? min : m[3] === '' ? GRAMMAR_MAX_REPEAT : Math.min(Number(m[3]), GRAMMAR_MAX_REPEAT);
  if (max < min) fail(`the repeat ${m[0]} in the pattern ${p}`);
  return [m[2] === undefined ? `{${min}}` : `{${min},${max}}`, m[0].length];
}

// A JSON Schema pattern (ECMAScript) rewritten to one that means the same or less, and that llama.cpp's converters,
// in the old release and the newest, turn whole into a grammar both parsers read: anchored at both ends, escapes
// written as classes of hex escapes, bounded repeats. Anything else throws rather than be dropped.
export function grammarPattern(p: string): string {
  if (p.length < 2 || p[0] !== '^' || !p.endsWith('$') || /(^|[^\\])(\\\\)*\\\$$/.test(p))
    fail(`the pattern ${p}: it must be anchored with ^ and $ (llama.cpp drops or refuses any other)`);
  try {
    new RegExp(p);
  } catch (e) {
    fail(`the pattern ${p}: ${(e as Error).message}`);
  }
  // Read between the anchors, in the whole pattern (an error quotes it whole; a class of a valid one ends before $).
  const end = p.length - 1;
  let out = '';
  let afterQuantifier = false;
  for (let i = 1; i < end; ) {
    const c = p[i];
    let piece = c;
    let n = 1;
    let quantifies = false;
    if (c === '[') [piece, n] = charClass(p, i);
    else if (c === '{') {
      [piece, n] = quantifier(p, i);
      quantifies = true;
    } else if (c === '*' || c === '+') quantifies = true;
    else if (c === '?') {
      // A lazy quantifier's "?" changes which match is found, not whether the whole string matches: dropped.
      piece = afterQuantifier ? '' : c;
      quantifies = !afterQuantifier;
    } else if (c === '(') {
      // A group that captures or not matches the same; lookarounds and named groups have no grammar.
      if (p[i + 1] === '?') {
        if (p[i + 2] !== ':') fail(`the pattern ${p}: the group "(?${p[i + 2] ?? ''}"`);
        n = 3;
      }
    } else if (c === '.') piece = DOT;
    else if (c === '^' || c === '$') fail(`the pattern ${p}: an anchor inside it`);
    else if (c !== ')' && c !== '|') {
      // A character, escaped or not. An escape becomes a class of its own: the converters glue an escape onto the
      // literal before it, and a quantifier after it would repeat the whole literal (a\.{2} as (a.){2}).
      let r: CodeRange;
      [r, n] = atom(p, i);
      if (escapedInJson(r)) fail(`the pattern ${p}: it names a quote, a backslash or a control character`);
      // A stray ] or } is a character to JavaScript and an error to llama.cpp's newest converter: a class too.
      const plain = c !== '\\' && c !== ']' && c !== '}';
      piece = plain ? p.slice(i, i + n) : `[${gbnfRange(r)}]`;
    }
    out += piece;
    afterQuantifier = quantifies;
    i += n;
  }
  return `^${out}$`;
}

// One string: a pattern rewritten, its length bounds kept as lengths (never written as a pattern) and capped.
function grammarString(s: JsonSchema): JsonSchema {
  const out = cappedCount(s, 'minLength', 'maxLength');
  if (out.pattern === undefined) return out;
  // Both converters write the pattern's grammar and silently leave the lengths out.
  if (out.minLength !== undefined || out.maxLength !== undefined)
    fail(`a pattern and a length on one string (the length would be dropped): ${out.pattern}`);
  return { ...out, pattern: grammarPattern(String(out.pattern)) };
}

// The generic schema (src/core/providers/schema.ts) for a grammar-based server: objects stay closed, optional
// properties stay optional (the converters write them as optional), lengths and counts stay keywords, capped.
export function grammarSchema(s: JsonSchema): JsonSchema {
  let out = keepOnly(s, KEEP, DIALECT);
  if (out.type === 'string' || out.pattern !== undefined || out.minLength !== undefined || out.maxLength !== undefined)
    out = grammarString(out);
  if (out.type === 'array' || out.items) out = cappedCount(out, 'minItems', 'maxItems');
  if (out.properties) {
    const props: Record<string, JsonSchema> = {};
    for (const k of Object.keys(out.properties)) props[k] = grammarSchema(out.properties[k]);
    out.properties = props;
  }
  if (out.items) out.items = grammarSchema(out.items);
  if (out.anyOf) out.anyOf = out.anyOf.map(grammarSchema);
  return out;
}
