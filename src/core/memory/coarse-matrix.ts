// Large matrices held coarse: each value's high four bits, two to a byte; the best rows re-scored from their cells.
import { DENSE_START, denseCellOk } from './dense-cell.js';

const BASE = 0x4e00;

// Each value kept as its int8's high nibble t (−8…7), which stands for the 16 values 16t…16t+15. It is compared as
// 2t + 1, that is 16t + 8 divided by 8: half a unit from their middle (16t + 7.5), and an odd integer, so a row's sum
// of squares stays an int32.
const CENTRE = Int8Array.from({ length: 16 }, (_, n) => 2 * ((n << 28) >> 28) + 1);
const SQUARE = Int32Array.from(CENTRE, (c) => c * c);

export interface Coarse {
  // ceil(dims / 2) bytes a row: value 2p's nibble high, value 2p + 1's low.
  nibbles: Uint8Array;
  stride: number;
  // Each row's coarse norm.
  norms: Float32Array;
  // The cells, for the exact scores of the rows the coarse pass keeps.
  cells: readonly string[];
  // How many rows beyond the k asked for the coarse pass keeps for the exact scores.
  rerank: number;
}

// A version 3 cell's values (dense-cell.ts) as nibbles into `out` at byte `offset`. Reads every character, as the
// exact decoder does, and refuses what it refuses: returns the coarse values' sum of squares, or −1 when a character
// is out of the range or a padding bit is set. The caller has checked the cell's length and scale (denseCellOk).
// Two groups of 4 characters (14 values) make 7 whole bytes; the last 0–13 values go one at a time.
export function nibblesInto(cell: string, dims: number, out: Uint8Array, offset: number): number {
  const pairs = Math.floor(dims / 14);
  let i = DENSE_START;
  let o = offset;
  let bad = 0;
  let sum = 0;
  const S = SQUARE;
  for (let p = 0; p < pairs; p++, i += 8, o += 7) {
    const a = cell.charCodeAt(i) - BASE;
    const b = cell.charCodeAt(i + 1) - BASE;
    const c = cell.charCodeAt(i + 2) - BASE;
    const d = cell.charCodeAt(i + 3) - BASE;
    const e = cell.charCodeAt(i + 4) - BASE;
    const f = cell.charCodeAt(i + 5) - BASE;
    const g = cell.charCodeAt(i + 6) - BASE;
    const h = cell.charCodeAt(i + 7) - BASE;
    bad |= a | b | c | d | e | f | g | h;
    // As in denseInto: 28 bits hold three values and the high half of the fourth, the next 28 the rest.
    const hi = (a << 14) | b;
    const lo = (c << 14) | d;
    const hi2 = (e << 14) | f;
    const lo2 = (g << 14) | h;
    const n0 = (hi >>> 24) & 15;
    const n1 = (hi >>> 16) & 15;
    const n2 = (hi >>> 8) & 15;
    const n3 = hi & 15;
    const n4 = (lo >>> 20) & 15;
    const n5 = (lo >>> 12) & 15;
    const n6 = (lo >>> 4) & 15;
    const m0 = (hi2 >>> 24) & 15;
    const m1 = (hi2 >>> 16) & 15;
    const m2 = (hi2 >>> 8) & 15;
    const m3 = hi2 & 15;
    const m4 = (lo2 >>> 20) & 15;
    const m5 = (lo2 >>> 12) & 15;
    const m6 = (lo2 >>> 4) & 15;
    out[o] = (n0 << 4) | n1;
    out[o + 1] = (n2 << 4) | n3;
    out[o + 2] = (n4 << 4) | n5;
    out[o + 3] = (n6 << 4) | m0;
    out[o + 4] = (m1 << 4) | m2;
    out[o + 5] = (m3 << 4) | m4;
    out[o + 6] = (m5 << 4) | m6;
    sum = (sum + S[n0] + S[n1] + S[n2] + S[n3] + S[n4] + S[n5] + S[n6]) | 0;
    sum = (sum + S[m0] + S[m1] + S[m2] + S[m3] + S[m4] + S[m5] + S[m6]) | 0;
  }
  // The rest a character at a time; `acc` holds the bits read and not yet taken, never more than 21.
  const left = dims - pairs * 14;
  let acc = 0;
  let bits = 0;
  for (let k = 0; k < left; k++) {
    if (bits < 8) {
      const x = cell.charCodeAt(i++) - BASE;
      bad |= x;
      acc = ((acc << 14) | x) & 0x3fffff;
      bits += 14;
    }
    bits -= 8;
    const n = (acc >>> (bits + 4)) & 15;
    const at = o + (k >> 1);
    out[at] = k & 1 ? out[at] | n : n << 4;
    sum = (sum + S[n]) | 0;
  }
  return bad >>> 14 === 0 && (acc & ((1 << bits) - 1)) === 0 ? sum : -1;
}

// The coarse rows of version 3 cells. A cell of the wrong length or scale, or whose characters nibblesInto refuses, is
// left out (`dead`, its index in `refused`), as the exact matrix leaves it out.
export function coarseOf(
  cells: readonly string[],
  dims: number,
  rerank: number,
): { coarse: Coarse; dead: Uint8Array | null; refused: number[] } {
  const stride = Math.ceil(dims / 2);
  const nibbles = new Uint8Array(cells.length * stride);
  const norms = new Float32Array(cells.length);
  let dead: Uint8Array | null = null;
  const refused: number[] = [];
  for (let r = 0; r < cells.length; r++) {
    const sum = denseCellOk(cells[r], dims) ? nibblesInto(cells[r], dims, nibbles, r * stride) : -1;
    if (sum < 0) {
      (dead ??= new Uint8Array(cells.length))[r] = 1;
      refused.push(r);
      norms[r] = 1;
      continue;
    }
    norms[r] = Math.sqrt(sum) || 1;
  }
  return { coarse: { nibbles, stride, norms, cells, rerank }, dead, refused };
}

// The rows of the coarse pass to score exactly: the `keep` best by coarse cosine among those `allow` accepts, in no
// order. One table per query gives each byte's two values' products with the query at once, so a row costs `stride`
// look-ups and adds.
export function coarseBest(
  c: Coarse,
  rows: number,
  query: Float32Array,
  keep: number,
  live: (r: number) => boolean,
): number[] {
  const dims = query.length;
  const { nibbles, stride, norms } = c;
  const lut = new Float32Array(stride * 256);
  for (let p = 0; p < stride; p++) {
    const q0 = query[2 * p];
    const q1 = 2 * p + 1 < dims ? query[2 * p + 1] : 0;
    for (let b = 0; b < 256; b++) lut[p * 256 + b] = q0 * CENTRE[b >> 4] + q1 * CENTRE[b & 15];
  }
  const held = new Int32Array(keep);
  const scores = new Float64Array(keep);
  let n = 0;
  let floor = -Infinity;
  let lowest = 0;
  for (let r = 0; r < rows; r++) {
    if (!live(r)) continue;
    const o = r * stride;
    // Four sums, so that each add waits for the one four places back rather than the one before.
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let p = 0;
    for (; p + 4 <= stride; p += 4) {
      s0 += lut[(p << 8) | nibbles[o + p]];
      s1 += lut[((p + 1) << 8) | nibbles[o + p + 1]];
      s2 += lut[((p + 2) << 8) | nibbles[o + p + 2]];
      s3 += lut[((p + 3) << 8) | nibbles[o + p + 3]];
    }
    for (; p < stride; p++) s0 += lut[(p << 8) | nibbles[o + p]];
    const s = (s0 + s1 + s2 + s3) / norms[r];
    if (n < keep) {
      held[n] = r;
      scores[n++] = s;
      if (n < keep) continue;
    } else if (s > floor) {
      held[lowest] = r;
      scores[lowest] = s;
    } else continue;
    // The lowest kept score is the bar a row must pass: looked for again only when a row passed it.
    floor = Infinity;
    for (let i = 0; i < keep; i++)
      if (scores[i] < floor) {
        floor = scores[i];
        lowest = i;
      }
  }
  return Array.from(held.subarray(0, n));
}
