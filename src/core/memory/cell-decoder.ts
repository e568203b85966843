// Decodes an embedding cell's payload into int8 values, checking every character in the same pass.
import { denseChars, denseInto } from './dense-cell.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// Each ASCII character to its six bits, or −1: OR-ed into a group's 24 bits, a −1 makes the group negative. A table of
// 128 bytes stays in the first-level cache; a table over pairs of characters (32 KB) measured no faster.
const SIXES = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[B64.charCodeAt(i)] = i;
  return t;
})();

// How many payload characters hold `dims` values: version 3 packs 14 bits a character (dense-cell.ts), version 2 is
// base64 without the padding, version 1 pads the last group.
export function payloadChars(version: number, dims: number): number {
  if (version === 3) return denseChars(dims);
  return version === 1 ? Math.ceil(dims / 3) * 4 : Math.ceil((dims * 4) / 3);
}

// Decodes the payload of a cell whose header (embedding.ts, readVectorCell) says `version` and that it starts at
// `start` into `out` at `offset`: exactly `dims` values. False, with `out` partly written, when the payload has
// another length or any character that is not base64 (version 1's '=' padding aside) or, in version 3, outside its
// range: the caller refuses the cell.
export function payloadInto(
  cell: string,
  start: number,
  version: number,
  dims: number,
  out: Int8Array,
  offset: number,
): boolean {
  if (version === 3) return denseInto(cell, start, dims, out, offset) >= 0;
  if (cell.length - start !== payloadChars(version, dims)) return false;
  const full = Math.floor(dims / 3);
  const rest = dims - full * 3;
  const L = SIXES;
  let i = start;
  let o = offset;
  // Any character at or above 128 makes `high` exceed 127 (the table sees it masked); any other that is not base64
  // makes `bad` negative. One check per cell, after the loop, keeps the loop free of branches.
  let high = 0;
  let bad = 0;
  for (let g = 0; g < full; g++, i += 4, o += 3) {
    const c0 = cell.charCodeAt(i);
    const c1 = cell.charCodeAt(i + 1);
    const c2 = cell.charCodeAt(i + 2);
    const c3 = cell.charCodeAt(i + 3);
    high |= c0 | c1 | c2 | c3;
    const n = (L[c0 & 127] << 18) | (L[c1 & 127] << 12) | (L[c2 & 127] << 6) | L[c3 & 127];
    bad |= n;
    out[o] = n >> 16;
    out[o + 1] = n >> 8;
    out[o + 2] = n;
  }
  if (rest) {
    const c0 = cell.charCodeAt(i);
    const c1 = cell.charCodeAt(i + 1);
    // The third character is the second value's last bits; with one value left it is padding (version 1) or absent.
    const c2 = rest === 2 ? cell.charCodeAt(i + 2) : 65; // 'A', zero bits
    high |= c0 | c1 | c2;
    const n = (L[c0 & 127] << 18) | (L[c1 & 127] << 12) | (L[c2 & 127] << 6);
    bad |= n;
    out[o] = n >> 16;
    if (rest === 2) out[o + 1] = n >> 8;
    if (version === 1 && cell.slice(i + rest + 1) !== '='.repeat(3 - rest)) bad = -1;
  }
  return high < 128 && bad >= 0;
}

// The sum of squares of data[from..to), for the matrix's norms. Sums of at most dims × 128² stay int32 for any model's
// dimensions: no float adds in optimised code, which made this loop cost twice the base64 decoding before it. Its own
// small function, so that V8 optimises it after a few rows rather than with the whole of its caller.
export function squares(data: Int8Array, from: number, to: number): number {
  let s = 0;
  for (let j = from; j < to; j++) {
    const x = data[j];
    s = (s + x * x) | 0;
  }
  return s;
}
