// Large matrices held coarse: each value's high nibble read exactly from a version 3 cell, bad cells refused as the
// exact decoder refuses them, and a coarse pass whose exact re-scoring finds the exact matrix's top k.
import { describe, expect, it } from 'vitest';
import { nibblesInto } from '../../../../src/core/memory/coarse-matrix.js';
import { DENSE_START, denseCellInto, encodeDense } from '../../../../src/core/memory/dense-cell.js';
import { encodeVector, l2normalise } from '../../../../src/core/memory/embedding.js';
import { decodeMatrix, topK } from '../../../../src/core/memory/retrieval.js';

let seed = 11;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const randomByte = () => Math.floor(random() * 256) - 128;
const gaussian = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());

// Vectors around a few topic centres, as embeddings of related texts are.
function topical(n: number, dims: number, topics = 12): Float32Array[] {
  const centres = Array.from({ length: topics }, () => l2normalise(Array.from({ length: dims }, gaussian)));
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(random() * topics)];
    return l2normalise(Array.from({ length: dims }, (_, j) => c[j] + (0.7 * gaussian()) / Math.sqrt(dims)));
  });
}

const LENGTHS = [1, 2, 6, 7, 8, 13, 14, 15, 27, 28, 29, 127, 128, 256, 257, 1536];

// The coarse value a nibble stands for, as the matrix squares it: 2t + 1 for the signed high nibble t.
const centre = (v: number) => 2 * (v >> 4) + 1;

describe('nibblesInto', () => {
  it('reads each value’s high nibble, two to a byte, and their coarse sum of squares, at every length', () => {
    for (const dims of LENGTHS) {
      const values = Int8Array.from({ length: dims }, (_, i) => (i % 5 === 0 ? (i % 2 ? 127 : -128) : randomByte()));
      const cell = encodeDense(values, 0.01);
      const exact = new Int8Array(dims);
      expect(denseCellInto(cell, dims, exact, 0)).toBeGreaterThanOrEqual(0);
      const stride = Math.ceil(dims / 2);
      const out = new Uint8Array(stride + 2).fill(0xaa);
      const sum = nibblesInto(cell, dims, out, 1);
      const want = Array.from(exact, (v) => (v >> 4) & 15);
      for (let j = 0; j < dims; j++)
        expect([dims, j, j % 2 ? out[1 + (j >> 1)] & 15 : out[1 + (j >> 1)] >> 4]).toEqual([dims, j, want[j]]);
      expect(sum).toBe(Array.from(exact, (v) => centre(v) ** 2).reduce((a, b) => a + b, 0));
      // Nothing outside the row's bytes is written.
      expect([out[0], out[stride + 1]]).toEqual([0xaa, 0xaa]);
    }
  });

  it('refuses a character out of the range and a padding bit set, as the exact decoder does', () => {
    const dims = 256;
    const cell = encodeDense(Int8Array.from({ length: dims }, randomByte), 0.02);
    const at = (i: number, c: string) => cell.slice(0, i) + c + cell.slice(i + 1);
    const out = new Uint8Array(dims);
    expect(nibblesInto(cell, dims, out, 0)).toBeGreaterThan(0);
    for (const bad of [at(DENSE_START + 3, 'A'), at(DENSE_START + 100, '\u8e00'), at(cell.length - 1, '\u4dff')])
      expect(nibblesInto(bad, dims, out, 0)).toBe(-1);
    // 256 values end 4 bits into their last character: those bits are padding.
    const last = cell.charCodeAt(cell.length - 1);
    expect(nibblesInto(at(cell.length - 1, String.fromCharCode(last | 1)), dims, out, 0)).toBe(-1);
  });
});

describe('a coarse matrix', () => {
  const dims = 64;
  const vs = topical(3000, dims);
  const cells = vs.map((v) => encodeVector(v));
  const keys = cells.map((_, i) => 1000 + i);
  const exact = decodeMatrix(cells, dims, keys);
  const coarse = decodeMatrix(cells, dims, keys, { exactRows: 2999, rerankRows: 200 });
  const queries = topical(30, dims, 30);

  it('is held coarse only past exactRows and only when every cell is version 3', () => {
    expect(exact.coarse).toBeUndefined();
    expect(coarse.coarse?.stride).toBe(32);
    expect(coarse.data.length).toBe(0);
    expect(decodeMatrix(cells, dims, keys, { exactRows: 3000, rerankRows: 200 }).coarse).toBeUndefined();
    const old = `2|0.0100|${'A'.repeat(Math.ceil((dims * 4) / 3))}`;
    expect(
      decodeMatrix(cells.concat([old]), dims, undefined, { exactRows: 10, rerankRows: 60 }).coarse,
    ).toBeUndefined();
  });

  it('finds the exact matrix’s top k with the same scores, with and without a filter', () => {
    const odd = (key: number) => key % 2 === 1;
    for (const q of queries)
      for (const [k, allow] of [
        [10, undefined],
        [20, odd],
        [80, undefined],
      ] as const) {
        const want = topK(exact, q, k, allow);
        const got = topK(coarse, q, k, allow);
        expect(got.map((h) => h.key)).toEqual(want.map((h) => h.key));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 6));
      }
  });

  it('leaves out a refused cell, reported by its key, as the exact matrix does', () => {
    const broken = cells.slice();
    broken[5] = `${broken[5].slice(0, DENSE_START)}A${broken[5].slice(DENSE_START + 1)}`;
    // One character short: the exact matrix's caller filters such a cell out (isVectorCell); the matrix refuses it too.
    broken[7] = broken[7].slice(0, -1);
    const m = decodeMatrix(broken, dims, keys, { exactRows: 0, rerankRows: 60 });
    expect(m.refused).toEqual([1005, 1007]);
    const all = topK(m, vs[5], 3000);
    expect(all.map((h) => h.key)).not.toContain(1005);
    expect(all).toHaveLength(2998);
  });
});
