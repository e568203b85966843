// Version 3 embedding cells: exact round trips at every length, characters a sheet keeps, and every malformed cell refused.
import { describe, expect, it } from 'vitest';
import {
  DENSE_START,
  denseCellInto,
  denseCellOk,
  denseChars,
  denseInto,
  denseScale,
  encodeDense,
  isDense,
} from '../../../../src/core/memory/dense-cell.js';
import {
  bytesToBase64,
  cellInto,
  decodeVector,
  EmbeddingFormatError,
  encodeVector,
  isVectorCell,
  readVectorCell,
  vectorInto,
} from '../../../../src/core/memory/embedding.js';
import { decodeMatrix } from '../../../../src/core/memory/retrieval.js';

let seed = 3;
const randomByte = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return (seed >> 23) - 128;
};

// Values of every kind at `dims`: alternating extremes, all −1, all 0, then random.
function values(dims: number, t: number): Int8Array {
  return Int8Array.from({ length: dims }, (_, i) =>
    t === 0 ? (i % 2 ? 127 : -128) : t === 1 ? -1 : t === 2 ? 0 : randomByte(),
  );
}

const LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 13, 14, 15, 127, 128, 255, 256, 257, 768, 1536];
const sumSquares = (v: Int8Array) => v.reduce((s, x) => s + x * x, 0);

// A cell with one character replaced.
const put = (cell: string, at: number, code: number) =>
  cell.slice(0, at) + String.fromCharCode(code) + cell.slice(at + 1);

describe('version 3 cells', () => {
  it('decode to exactly the values and scale encoded, at every length', () => {
    for (const dims of LENGTHS) {
      for (let t = 0; t < 6; t++) {
        const v = values(dims, t);
        const scale = 0.001 + t / 7;
        const cell = encodeDense(v, scale);
        expect(cell.length).toBe(DENSE_START + denseChars(dims));
        expect(isVectorCell(cell, dims)).toBe(true);
        expect(readVectorCell(cell)).toEqual({ version: 3, scale, start: DENSE_START });
        const out = new Int8Array(dims);
        expect(denseCellInto(cell, dims, out, 0)).toBe(sumSquares(v));
        expect(Array.from(out)).toEqual(Array.from(v));
        const viaVector = new Int8Array(dims);
        expect(vectorInto(cell, dims, viaVector, 0)).toBe(scale);
        expect(Array.from(viaVector)).toEqual(Array.from(v));
        expect(Array.from(decodeVector(cell, dims))).toEqual(Array.from(v, (x) => Math.fround(x * scale)));
      }
    }
  });

  it('keep any positive finite scale exactly, the extremes of a float64 included', () => {
    for (const scale of [Number.MIN_VALUE, 2 ** -1022, 1e-300, 1 / 127, 1, 3, 1e300, Number.MAX_VALUE])
      expect(denseScale(encodeDense(Int8Array.of(1, 2, 3), scale))).toBe(scale);
  });

  it('hold 256 values in 154 characters, fewer than half of version 2', () => {
    const cell = encodeVector(Array.from({ length: 256 }, (_, i) => Math.cos(i)));
    expect(cell.length).toBe(154);
    expect(encodeVector(Array.from({ length: 1536 }, (_, i) => Math.cos(i))).length).toBe(885);
    const v2 = `2|0.007874|${bytesToBase64(new Uint8Array(256), false)}`;
    expect(cell.length * 2).toBeLessThan(v2.length);
  });

  it('use only characters a sheet, an XLSX file and a normalising program keep as they are', () => {
    for (const dims of [1, 7, 256, 1536]) {
      for (let t = 0; t < 4; t++) {
        const cell = encodeDense(values(dims, t), 0.5 + t);
        expect(isDense(cell)).toBe(true);
        expect(cell.slice(0, 2)).toBe('3|');
        // Never the start of a formula, and no surrogate, control or private-use character.
        expect('=+-@').not.toContain(cell[0]);
        for (const ch of cell.slice(2)) expect(ch >= '\u4e00' && ch <= '\u8dff').toBe(true);
        for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD']) expect(cell.normalize(form)).toBe(cell);
      }
    }
  });

  it('read alongside versions 1 and 2 into one matrix, with the same values and norms', () => {
    const dims = 257;
    const rows = [values(dims, 0), values(dims, 3), values(dims, 4)];
    const bytes = (v: Int8Array) => new Uint8Array(v.buffer);
    const mixed = [
      `0.5|${bytesToBase64(bytes(rows[0]))}`,
      encodeDense(rows[1], 0.5),
      `2|0.5|${bytesToBase64(bytes(rows[2]), false)}`,
    ];
    const m = decodeMatrix(mixed, dims);
    const dense = decodeMatrix(
      rows.map((v) => encodeDense(v, 0.5)),
      dims,
    );
    expect(m.refused).toEqual([]);
    expect(Array.from(m.data)).toEqual(rows.flatMap((v) => Array.from(v)));
    expect(m.data).toEqual(dense.data);
    expect(m.norms).toEqual(dense.norms);
    expect(m.tails).toEqual(dense.tails);
    expect(Array.from(m.norms)).toEqual(rows.map((v) => Math.fround(Math.sqrt(sumSquares(v)))));
  });

  it('write at an offset and nothing outside their row', () => {
    for (const dims of [1, 4, 7, 10, 256]) {
      const v = values(dims, 3);
      const out = new Int8Array(dims + 6).fill(9);
      expect(cellInto(encodeDense(v, 1), dims, out, 3)).toBe(sumSquares(v));
      expect(Array.from(out)).toEqual([9, 9, 9, ...Array.from(v), 9, 9, 9]);
    }
  });

  it('refuse a cell of another length, a character out of the range, padding that is not zero, or no scale', () => {
    const refused = (cell: string, dims: number) => {
      expect(denseCellInto(cell, dims, new Int8Array(dims), 0)).toBe(-1);
      expect(cellInto(cell, dims, new Int8Array(dims), 0)).toBe(-1);
      expect(() => vectorInto(cell, dims, new Int8Array(dims), 0)).toThrow(EmbeddingFormatError);
      expect(decodeMatrix([encodeDense(new Int8Array(dims), 1), cell], dims, [5, 6]).refused).toEqual([6]);
    };
    for (const dims of [1, 6, 7, 8, 256]) {
      const good = encodeDense(values(dims, 3), 0.25);
      // Cut short at every length, or one character more.
      for (let n = 0; n < good.length; n++) {
        expect(isVectorCell(good.slice(0, n), dims)).toBe(false);
        refused(good.slice(0, n), dims);
      }
      expect(isVectorCell(`${good}\u4e00`, dims)).toBe(false);
      refused(`${good}\u4e00`, dims);
      // One character of the payload just outside the range, ASCII, a surrogate or a character past it: the length
      // check passes, the decoder refuses.
      for (const at of [DENSE_START, good.length - 1]) {
        for (const code of [0x4dff, 0x8e00, 0x41, 0xd800, 0xffff]) {
          const bad = put(good, at, code);
          expect(denseCellOk(bad, dims)).toBe(true);
          refused(bad, dims);
        }
      }
    }
    // The bits after the last value: 6 values take 4 characters, the last 4 bits of which are padding.
    const six = encodeDense(Int8Array.of(1, 2, 3, 4, 5, 6), 1);
    refused(put(six, six.length - 1, six.charCodeAt(six.length - 1) + 1), 6);
    // A length of values no cell of this length holds: 7 values fill 4 characters exactly, 8 need 5.
    expect(denseInto(encodeDense(new Int8Array(8), 1), DENSE_START, 7, new Int8Array(7), 0)).toBe(-1);
  });

  it('refuse a scale that is zero, negative, not finite or not written in the scale characters', () => {
    const v = values(10, 3);
    for (const scale of [0, -0, -1, Number.POSITIVE_INFINITY, Number.NaN]) {
      const cell = encodeDense(v, scale);
      expect(readVectorCell(cell)).toBeNull();
      expect(isVectorCell(cell, 10)).toBe(false);
      expect(denseCellInto(cell, 10, new Int8Array(10), 0)).toBe(-1);
      expect(() => decodeVector(cell, 10)).toThrow(EmbeddingFormatError);
    }
    const good = encodeDense(v, 1);
    // The first scale character holds 8 bits; one of its upper 6 set is no scale.
    for (const [at, code] of [
      [2, 0x4e00 + 256],
      [3, 0x41],
      [6, 0x8e00],
    ]) {
      const bad = put(good, at, code);
      expect(readVectorCell(bad)).toBeNull();
      expect(isVectorCell(bad, 10)).toBe(false);
      expect(denseCellInto(bad, 10, new Int8Array(10), 0)).toBe(-1);
    }
  });

  it('are told apart from other versions by their first two characters, an unknown version refused', () => {
    const good = encodeDense(values(12, 3), 1);
    for (const other of [`4${good.slice(1)}`, `3${good}`, ` ${good}`, `3:${good.slice(2)}`]) {
      expect(isVectorCell(other, 12)).toBe(false);
      expect(() => decodeVector(other, 12)).toThrow(EmbeddingFormatError);
    }
  });
});
