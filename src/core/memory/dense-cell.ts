// Version 3 embedding cells: the scale and the int8 values packed 14 bits to a character of U+4E00–U+8DFF.

// 16,384 code points from U+4E00, all CJK unified ideographs assigned since Unicode 1.1. None decomposes under any
// normalisation form, none is a surrogate or a control character, and none can start a formula ('=', '+', '-', '@'),
// so Sheets, an XLSX file and LibreOffice keep them as they are. At 14 bits a character, 4 characters carry 7 values:
// 256 values take 147 characters where base64 took 342, and decoding one is a subtraction, no table.
const BASE = 0x4e00;

// The scale as its float64's 64 bits, after 6 zero bits: 5 characters. Read without Number() or a slice, so that
// checking a cell's header costs next to nothing when every row of the Learnings tab is checked once per execution.
const SCALE_CHARS = 5;

// Where a version 3 cell's values start: after "3|" and the scale.
export const DENSE_START = 2 + SCALE_CHARS;

// How many payload characters hold `dims` int8 values; the bits after the last value are zeros.
export function denseChars(dims: number): number {
  return Math.ceil((dims * 4) / 7);
}

// One 8-byte buffer for the scale's bits, big-endian whatever the platform.
const scratch = new DataView(new ArrayBuffer(8));

// Writes bit fields of up to 16 bits as characters of 14 bits, the last one padded with zeros.
function packer(): { put(value: number, bits: number): void; text(): string } {
  const codes: number[] = [];
  let acc = 0;
  let held = 0;
  return {
    put(value, bits) {
      acc = (acc << bits) | (value & ((1 << bits) - 1));
      held += bits;
      while (held >= 14) {
        held -= 14;
        codes.push(BASE + ((acc >>> held) & 0x3fff));
      }
      acc &= (1 << held) - 1;
    },
    text() {
      if (held) codes.push(BASE + ((acc << (14 - held)) & 0x3fff));
      let s = '';
      // In slices: one fromCharCode call per value would be slow, one over every value could exceed the argument limit.
      for (let i = 0; i < codes.length; i += 4096) s += String.fromCharCode.apply(null, codes.slice(i, i + 4096));
      return s;
    },
  };
}

// A whole version 3 cell: "3|", the scale's 5 characters, then the values' denseChars(values.length).
export function encodeDense(values: Int8Array | Uint8Array, scale: number): string {
  const p = packer();
  scratch.setFloat64(0, scale);
  p.put(0, 6);
  for (let i = 0; i < 8; i += 2) p.put(scratch.getUint16(i), 16);
  for (let i = 0; i < values.length; i++) p.put(values[i], 8);
  return `3|${p.text()}`;
}

// Whether a cell says it is version 3. A version 1 cell never starts "3|": its scale was written to six digits.
export function isDense(cell: string): boolean {
  return cell.charCodeAt(0) === 51 && cell.charCodeAt(1) === 124;
}

// Whether a version 3 cell has the length of `dims` values and a scale: 5 characters of the range whose 64 bits are
// a positive finite float64. The bits are read as integers and the check is one function, as isVectorCell runs it on
// every row once per execution: V8 compiles it once, where small helpers were each compiled apart, and a DataView
// here took V8 longer to compile than the whole check then took to run.
export function denseCellOk(cell: string, dims: number): boolean {
  if (cell.length !== DENSE_START + denseChars(dims)) return false;
  const c0 = cell.charCodeAt(2) - BASE;
  const c1 = cell.charCodeAt(3) - BASE;
  const c2 = cell.charCodeAt(4) - BASE;
  const c3 = cell.charCodeAt(5) - BASE;
  const c4 = cell.charCodeAt(6) - BASE;
  // A character outside the range makes its difference negative or 14 bits or more; the first holds 8 bits only.
  if ((c0 | c1 | c2 | c3 | c4) >>> 14 || c0 >>> 8) return false;
  const hi = (c0 << 24) | (c1 << 10) | (c2 >>> 4);
  const lo = ((c2 & 15) << 28) | (c3 << 14) | c4;
  // The sign clear, the exponent not all ones (infinity, NaN), and not zero: a positive finite float64.
  return hi >= 0 && hi >>> 20 !== 0x7ff && (hi | lo) !== 0;
}

// A version 3 cell's scale, or NaN when the cell is too short for one or its characters are not a positive finite
// float64's. For decodeVector, which needs the value; the matrix only checks it (denseCellOk).
export function denseScale(cell: string): number {
  if (cell.length < DENSE_START) return Number.NaN;
  const c = [2, 3, 4, 5, 6].map((i) => cell.charCodeAt(i) - BASE);
  if ((c[0] | c[1] | c[2] | c[3] | c[4]) >>> 14 || c[0] >>> 8) return Number.NaN;
  scratch.setUint32(0, (c[0] << 24) | (c[1] << 10) | (c[2] >>> 4));
  scratch.setUint32(4, ((c[2] & 15) << 28) | (c[3] << 14) | c[4]);
  const scale = scratch.getFloat64(0);
  return scale > 0 && Number.isFinite(scale) ? scale : Number.NaN;
}

// A whole version 3 cell into `out` at `offset`, as denseInto: its values' sum of squares, or −1 when its length, its
// scale or a value's character is wrong.
export function denseCellInto(cell: string, dims: number, out: Int8Array, offset: number): number {
  return denseCellOk(cell, dims) ? denseInto(cell, DENSE_START, dims, out, offset) : -1;
}

// Decodes the `dims` values whose characters start at `start` into `out` at `offset`, and nothing outside those
// `dims` places. Returns their sum of squares, which the matrix needs for its norms and which costs less here, with
// the values in registers, than in a second pass over `out`; or −1, with `out` partly written, when the payload has
// another length, a character outside the range or a bit set after the last value: the caller refuses the cell.
// Each charCodeAt here compiles to a sizeable piece of code, and a fresh execution waits for V8 to compile this
// function: so seven values at a time in the loop, the rest one at a time, and nothing more.
export function denseInto(cell: string, start: number, dims: number, out: Int8Array, offset: number): number {
  if (cell.length - start !== denseChars(dims)) return -1;
  const full = Math.floor(dims / 7);
  let i = start;
  let o = offset;
  // Every character's difference OR-ed: one out of the range sets a bit at 14 or above (a negative one, the sign).
  // One check per cell, after the loop, keeps the loop free of branches.
  let bad = 0;
  // At most dims × 128², int32 for any model's dimensions: no float adds in optimised code.
  let sum = 0;
  for (let g = 0; g < full; g++, i += 4, o += 7) {
    const a = cell.charCodeAt(i) - BASE;
    const b = cell.charCodeAt(i + 1) - BASE;
    const c = cell.charCodeAt(i + 2) - BASE;
    const d = cell.charCodeAt(i + 3) - BASE;
    bad |= a | b | c | d;
    // Two characters make 28 bits: three values and half of the fourth. Each value is shifted to the top of 32 bits
    // and back, which signs it.
    const hi = (a << 14) | b;
    const lo = (c << 14) | d;
    const v0 = (hi << 4) >> 24;
    const v1 = (hi << 12) >> 24;
    const v2 = (hi << 20) >> 24;
    const v3 = ((hi << 28) | (lo & 0xf000000)) >> 24;
    const v4 = (lo << 8) >> 24;
    const v5 = (lo << 16) >> 24;
    const v6 = (lo << 24) >> 24;
    out[o] = v0;
    out[o + 1] = v1;
    out[o + 2] = v2;
    out[o + 3] = v3;
    out[o + 4] = v4;
    out[o + 5] = v5;
    out[o + 6] = v6;
    sum = (sum + v0 * v0 + v1 * v1 + v2 * v2 + v3 * v3 + v4 * v4 + v5 * v5 + v6 * v6) | 0;
  }
  // The last 0–6 values a character at a time: one more charCodeAt in the function rather than four, which keeps what
  // V8 compiles small. `acc` holds the bits read and not yet taken, never more than 21.
  const left = dims - full * 7;
  let acc = 0;
  let bits = 0;
  for (let k = 0; k < left; k++, o++) {
    if (bits < 8) {
      const x = cell.charCodeAt(i++) - BASE;
      bad |= x;
      acc = ((acc << 14) | x) & 0x3fffff;
      bits += 14;
    }
    bits -= 8;
    const v = ((acc >> bits) << 24) >> 24;
    out[o] = v;
    sum = (sum + v * v) | 0;
  }
  // The bits after the last value are the zero padding.
  return bad >>> 14 === 0 && (acc & ((1 << bits) - 1)) === 0 ? sum : -1;
}
