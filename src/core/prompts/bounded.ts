// Bounded inputs: one long input enters a prompt cut to a token limit, with a pointer to its full value.
import { sha256Text } from '../sha256.js';
import { estimateTokens, isCjk } from './tokens.js';

// Below this a cut value would be little more than its pointer; a smaller Settings value is raised to it.
export const MIN_INPUT_TOKENS = 200;
// A string cut inside a structured value keeps at least this many tokens of its own text besides the pointer.
const MIN_SHARE = 24;

// Tokens a string costs inside a data block, where it is JSON: quotes and escapes included.
export function jsonTokens(s: string): number {
  return estimateTokens(JSON.stringify(s));
}

// What one character adds in JSON, in the units estimateTokens counts: 1 per CJK character, 1/4 per other one.
function weight(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (isCjk(c)) return 1;
  if (c === 0x22 || c === 0x5c || c === 8 || c === 9 || c === 10 || c === 12 || c === 13) return 0.5;
  if (c < 0x20) return 1.5;
  return 0.25;
}

// Head and tail lengths that keep a pair (a high and a low surrogate) whole.
function cleanEnd(s: string, end: number): number {
  const c = s.charCodeAt(end - 1);
  return end > 0 && c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}
function cleanStart(s: string, start: number): number {
  const c = s.charCodeAt(start);
  return start < s.length && c >= 0xdc00 && c <= 0xdfff ? start + 1 : start;
}

// The last hashes computed: the same long input is bounded for every prompt of a discussion.
const hashes: { text: string; hash: string }[] = [];
function hashOf(text: string): string {
  for (const h of hashes) if (h.text === text) return h.hash;
  const hash = sha256Text(text);
  hashes.unshift({ text, hash });
  if (hashes.length > 8) hashes.pop();
  return hash;
}

function pointer(omitted: number, where: string, hash: string): string {
  return `[… ${omitted} characters omitted; full value: ${where}, sha256 ${hash}]`;
}

// A text within `maxTokens` (as JSON): itself when it fits, else its head and tail around a pointer that says how
// much was left out, where the whole text is kept, and its SHA-256, so a reader can fetch and check it.
export function boundText(text: string, maxTokens: number, where: string): string {
  if (jsonTokens(text) <= maxTokens) return text;
  const hash = hashOf(text);
  // Priced with the longest count it could say, so the pointer never costs more than was set aside for it.
  let room = maxTokens - jsonTokens(pointer(text.length, where, hash)) - 2;
  for (;;) {
    let head = 0;
    let tail = text.length;
    let used = 0;
    while (head < tail && used + weight(text, head) <= room / 2) used += weight(text, head++);
    used = 0;
    while (tail > head && used + weight(text, tail - 1) <= room / 2) used += weight(text, --tail);
    head = cleanEnd(text, head);
    tail = cleanStart(text, tail);
    const out = `${text.slice(0, head)} ${pointer(tail - head, where, hash)} ${text.slice(tail)}`;
    if (jsonTokens(out) <= maxTokens || room <= 0) return out;
    room -= Math.max(1, jsonTokens(out) - maxTokens);
  }
}

// Tokens of a value as a data block shows it (src/core/prompts/prompt.ts): a text as it is, anything else as indented
// JSON.
export function blockTokens(v: unknown): number {
  return estimateTokens(typeof v === 'string' ? v : JSON.stringify(v, null, 1));
}

// Tokens of a value inside a JSON block: a string with its quotes and escapes.
function nodeTokens(v: unknown): number {
  return typeof v === 'string' ? jsonTokens(v) : v === undefined ? 0 : estimateTokens(JSON.stringify(v, null, 1));
}

function childPath(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

// One node within `max`: a text is cut; an object or array keeps its keys and shares the room its own structure
// leaves among its entries, the cheapest kept whole first and the rest fitted the same way, so small fields (a
// metric, a number, an action type) survive beside a long memo. A node too small to share is cut as one text.
function fitNode(v: unknown, max: number, where: string, path: string): unknown {
  if (nodeTokens(v) <= max) return v;
  const at = where + (path ? ` → ${path}` : '');
  if (typeof v === 'string') return boundText(v, max, at);
  const floor = MIN_SHARE + jsonTokens(pointer(1e9, at, '0'.repeat(64)));
  if (!v || typeof v !== 'object' || max < floor) return boundText(JSON.stringify(v, null, 1), max, at);
  const keys: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  const get = (k: string | number) => (v as Record<string | number, unknown>)[k];
  const shell = (fill: (k: string | number) => unknown): unknown => {
    if (Array.isArray(v)) return keys.map(fill);
    const o: Record<string, unknown> = {};
    for (const k of keys) o[k as string] = fill(k);
    return o;
  };
  let left = max - nodeTokens(shell(() => null));
  if (left < floor) return boundText(JSON.stringify(v, null, 1), max, at);
  const out: Record<string | number, unknown> = {};
  const order = keys.map((k) => ({ k, cost: nodeTokens(get(k)) })).sort((a, b) => a.cost - b.cost);
  order.forEach(({ k, cost }, i) => {
    const share = Math.floor(left / (order.length - i));
    out[k] = cost <= share ? get(k) : fitNode(get(k), share, where, childPath(path, k));
    left -= Math.min(cost, nodeTokens(out[k]));
  });
  return shell((k) => out[k]);
}

// A value within `maxTokens` as a data block shows it: itself when it fits; else its long texts cut, each with a
// pointer to `where → path` (paths start at `root`, the value's own place in the record) and its SHA-256, while
// the structure and the small fields stay as they are. Nested indentation is not priced by fitNode(), so the room is
// narrowed by what the first try overshot.
export function boundValue<T>(value: T, maxTokens: number, where: string, root = ''): T | string {
  const max = Math.max(MIN_INPUT_TOKENS, Math.floor(maxTokens));
  if (blockTokens(value) <= max) return value;
  let room = max;
  let out: unknown = value;
  for (let attempt = 0; attempt < 4; attempt++) {
    out = fitNode(value, room, where, root);
    const over = blockTokens(out) - max;
    if (over <= 0) break;
    room -= over;
  }
  return out as T | string;
}
