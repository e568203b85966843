// Embeddings as Kaigi stores them: the offline character n-gram embedding, int8 quantisation, versioned cells.
import { KaigiError } from '../errors.js';
import { payloadChars, payloadInto, squares } from './cell-decoder.js';
import { DENSE_START, denseCellInto, denseCellOk, denseScale, encodeDense, isDense } from './dense-cell.js';

export const OFFLINE_MODEL = 'kaigi-ngram-v1';

// FNV-1a over UTF-16 code units: fast, deterministic, the same in Apps Script and Node.
function fnv(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s、。,.!?！？「」『』（）()[\]{}:;'"・…\-–—_/\\]+/g, ' ')
    .trim();
}

// Feature hashing of character 1-, 2- and 3-grams: needs no word boundaries, so it works for Japanese.
export function embedOffline(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  const t = normalise(text);
  const counts: Record<string, number> = {};
  for (let n = 1; n <= 3; n++) {
    for (let i = 0; i + n <= t.length; i++) {
      const g = t.slice(i, i + n);
      if (g.indexOf(' ') >= 0) continue;
      // N-grams of hiragana alone are mostly grammar (が, ている): they say little about the topic.
      if (/^[\u3040-\u309f]+$/.test(g)) continue;
      counts[g] = (counts[g] ?? 0) + (n === 1 ? 0.5 : n === 2 ? 1 : 1.5);
    }
  }
  // Each n-gram lands in two signed buckets, so one collision cannot decide a similarity on its own.
  for (const g of Object.keys(counts)) {
    const w = Math.sqrt(counts[g]) * Math.SQRT1_2;
    for (const seed of [0, 0x5bd1e995]) {
      const h = fnv(g, seed);
      v[h % dims] += (fnv(g, seed ^ 0x9e3779b9) & 1 ? 1 : -1) * w;
    }
  }
  return l2normalise(v);
}

export function l2normalise(v: Float32Array | number[]): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const LOOKUP = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[B64.charCodeAt(i)] = i;
  return t;
})();

// Standard base64; `pad` false leaves out the trailing '=' (a version 2 cell had none).
export function bytesToBase64(b: Uint8Array, pad = true): string {
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    if (i + 1 < b.length) out += B64[(n >> 6) & 63];
    else if (pad) out += '=';
    if (i + 2 < b.length) out += B64[n & 63];
    else if (pad) out += '=';
  }
  return out;
}

// Decodes s from `from` into `out` at `offset`, returning the number of bytes written. Four characters at a time
// while they are all base64; padding and stray characters go the slow way. Cells are decoded by cell-decoder.ts,
// which is stricter (a cell's exact length, base64 only) and about twice as fast; this one reads any base64.
export function base64Into(s: string, out: Int8Array, offset: number, from = 0): number {
  let o = offset;
  let i = from;
  const end = s.length;
  const L = LOOKUP;
  for (; i + 4 <= end; i += 4) {
    const n =
      (L[s.charCodeAt(i) & 127] << 18) |
      (L[s.charCodeAt(i + 1) & 127] << 12) |
      (L[s.charCodeAt(i + 2) & 127] << 6) |
      L[s.charCodeAt(i + 3) & 127];
    // A −1 (not base64) in any place makes n negative.
    if (n < 0) break;
    out[o] = n >> 16;
    out[o + 1] = n >> 8;
    out[o + 2] = n;
    o += 3;
  }
  let acc = 0;
  let bits = 0;
  for (; i < end; i++) {
    const v = L[s.charCodeAt(i) & 127];
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return o - offset;
}

// The cell format written now: "3|", then the scale and the int8 values 14 bits a character (dense-cell.ts). 256
// dims take 154 characters, under half of version 2's, so an execution has fewer to decode (docs/benchmarks.md).
// Earlier releases wrote version 1, "scale|base64(int8)" with padding (355 characters), and version 2,
// "2|scale|base64(int8)" with the scale to 4 digits and no padding (353): both are still read as they are, and never
// rewritten for being old.
export const VECTOR_VERSION = 3;

// An embedding cell no version of Kaigi wrote (edited by hand, cut short): its row is embedded again (memory.reembed).
export class EmbeddingFormatError extends KaigiError {
  constructor(message: string) {
    super(message, 'invalid_embedding');
  }
}

export interface VectorCell {
  version: number;
  scale: number;
  // Where the values start.
  start: number;
}

// The version, scale and payload offset of a cell, or null when it is in no known format. A cell of a version this
// code does not know ("4|…") is refused, not read as the nearest one.
export function readVectorCell(cell: string): VectorCell | null {
  if (isDense(cell)) {
    const scale = denseScale(cell);
    return Number.isNaN(scale) ? null : { version: 3, scale, start: DENSE_START };
  }
  const a = cell.indexOf('|');
  if (a <= 0) return null;
  const b = cell.indexOf('|', a + 1);
  if (b < 0) {
    // Version 1 wrote its scale to six digits, so always with a point: "4|…" is a later version's, not a scale of 4.
    const text = cell.slice(0, a);
    const scale = Number(text);
    return text.indexOf('.') >= 0 && scale > 0 && Number.isFinite(scale) ? { version: 1, scale, start: a + 1 } : null;
  }
  if (cell.slice(0, a) !== '2') return null;
  const scale = Number(cell.slice(a + 1, b));
  return scale > 0 && Number.isFinite(scale) ? { version: 2, scale, start: b + 1 } : null;
}

// Decodes the int8 values of a cell into `out` at `offset`; throws when the cell's format or length is not one written
// for `dims` dimensions. Returns the scale.
export function vectorInto(cell: string, dims: number, out: Int8Array, offset: number): number {
  const c = readVectorCell(cell);
  if (!c) throw new EmbeddingFormatError(`an embedding cell in no known format: ${JSON.stringify(cell.slice(0, 16))}…`);
  if (!payloadInto(cell, c.start, c.version, dims, out, offset))
    throw new EmbeddingFormatError(
      `a version ${c.version} embedding cell that does not hold ${dims} values: ${cell.length - c.start} payload characters where ${payloadChars(c.version, dims)} would, or one no cell holds`,
    );
  return c.scale;
}

// Decodes a cell's `dims` values into `out` at `offset` as vectorInto does, for the matrix: it returns their sum of
// squares, or −1 instead of an error for a cell it refuses; a version 3 cell's scale is checked, not read, as a cosine
// does not need it.
export function cellInto(cell: string, dims: number, out: Int8Array, offset: number): number {
  if (isDense(cell)) return denseCellInto(cell, dims, out, offset);
  const c = readVectorCell(cell);
  return c !== null && payloadInto(cell, c.start, c.version, dims, out, offset)
    ? squares(out, offset, offset + dims)
    : -1;
}

// Whether a cell decodes to `dims` values: a row whose cell does not is never compared and is embedded again.
export function isVectorCell(cell: string, dims: number): boolean {
  if (isDense(cell)) return denseCellOk(cell, dims);
  const c = readVectorCell(cell);
  if (!c) return false;
  // Version 1 pads to whole groups of four characters, version 2 does not, version 3 packs 14 bits a character.
  return cell.length - c.start === payloadChars(c.version, dims);
}

// A unit vector as a version 3 cell: 256 dims take 154 characters, 1,536 take 885. The scale is kept exactly.
export function encodeVector(v: Float32Array | number[]): string {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const scale = max / 127 || 1;
  const q = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) q[i] = Math.round(v[i] / scale);
  return encodeDense(q, scale);
}

export function decodeVector(cell: string, dims: number): Float32Array {
  const q = new Int8Array(dims);
  const scale = vectorInto(cell, dims, q, 0);
  const out = new Float32Array(dims);
  for (let i = 0; i < dims; i++) out[i] = q[i] * scale;
  return out;
}

export function modelTag(model: string, dims: number): string {
  return `${model}:${dims}`;
}
