// Exact cosine top-k over stored int8 vectors: decoding, ordering, filters, and agreement with brute force.
import { describe, expect, it } from 'vitest';
import { decodeVector, encodeVector, vectorInto } from '../../../../src/core/memory/embedding.js';
import { decodeMatrix, topK } from '../../../../src/core/memory/retrieval.js';
import { cosine } from '../../../cosine.js';

// Cells whose int8 forms are exact: every component is 0 or ±the maximum.
const X = encodeVector([1, 0, 0, 0]);
const Y = encodeVector([0, 1, 0, 0]);
const XY = encodeVector([1, 1, 0, 0]);
const NEG_X = encodeVector([-1, 0, 0, 0]);
const ZERO = encodeVector([0, 0, 0, 0]);

describe('decodeMatrix', () => {
  it('decodes the cells into one int8 matrix with row norms and keys', () => {
    const m = decodeMatrix([X, XY, NEG_X, ZERO], 4, [10, 11, 12, 13]);
    expect([m.dims, m.rows, m.keys]).toEqual([4, 4, [10, 11, 12, 13]]);
    expect(Array.from(m.data)).toEqual([127, 0, 0, 0, 127, 127, 0, 0, -127, 0, 0, 0, 0, 0, 0, 0]);
    // A zero row gets norm 1 so it scores 0 instead of NaN.
    expect(Array.from(m.norms)).toEqual([127, Math.fround(127 * Math.SQRT2), 127, 1]);
    expect(decodeMatrix([X, Y], 4).keys).toEqual([0, 1]);
    // The second half's norms, which bound what it can add to a dot product: X has nothing there.
    expect([m.split, Array.from(m.tails)]).toEqual([0, [127, 127 * Math.SQRT2, 127, 0]]);
  });

  it('leaves out a cell of the right length the decoder refuses, instead of failing every retrieval', () => {
    // One character a hand edit put in: the length check passes, the decoder does not.
    const bad = `${X.slice(0, -2)}!${X.slice(-1)}`;
    expect(bad.length).toBe(X.length);
    const m = decodeMatrix([X, bad, Y], 4, [2, 3, 4]);
    expect(m.refused).toEqual([3]);
    const hits = topK(m, new Float32Array([1, 1, 0, 0]), 3);
    expect(hits.map((h) => h.key).sort()).toEqual([2, 4]);
    expect(decodeMatrix([X, Y], 4)).toMatchObject({ refused: [], dead: null });
  });

  it('skips a row after its first half only when it cannot reach the k best, so the result stays exact', () => {
    let s = 5;
    const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const dims = 24;
    // Half the rows near the query's direction, half anywhere: the far ones are the ones the bound skips.
    const base = Array.from({ length: dims }, rand);
    const cells = Array.from({ length: 400 }, (_, i) =>
      encodeVector(base.map((x) => (i % 2 ? rand() : x + 0.3 * rand()))),
    );
    const m = decodeMatrix(cells, dims);
    const unbounded = { ...m, tails: new Float64Array(m.rows).fill(1e9) };
    for (let t = 0; t < 10; t++) {
      const q = Float32Array.from(base, (x) => x + 0.5 * rand());
      expect(topK(m, q, 7)).toEqual(topK(unbounded, q, 7));
    }
  });
});

describe('topK', () => {
  const m = decodeMatrix([Y, NEG_X, XY, X, ZERO], 4, [0, 1, 2, 3, 4]);
  const q = new Float32Array([1, 0, 0, 0]);

  it('returns the k best rows by cosine, best first', () => {
    const hits = topK(m, q, 3);
    expect(hits.map((h) => h.key)).toEqual([3, 2, 0]);
    expect(hits[0].score).toBe(1);
    expect(hits[1].score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(hits[2].score).toBe(0);
    // The query's length does not matter.
    expect(topK(m, new Float32Array([5, 0, 0, 0]), 3)).toEqual(hits);
  });

  it('returns nothing for k = 0 or less (a Settings value), without failing', () => {
    expect(topK(m, q, 0)).toEqual([]);
    expect(topK(m, q, -1)).toEqual([]);
  });

  it('returns every row when k exceeds them, the opposite direction last', () => {
    const all = topK(m, q, 10);
    expect(all.map((h) => h.key)).toEqual([3, 2, 0, 4, 1]);
    expect(all[4].score).toBe(-1);
  });

  it('applies filters (scope, agent, confidence) before ranking', () => {
    const meta: Record<number, { scope: string; agent: string; confidence: number }> = {
      0: { scope: 'shared', agent: '', confidence: 0.9 },
      1: { scope: 'shared', agent: '', confidence: 0.9 },
      2: { scope: 'individual', agent: 'psychology', confidence: 0.8 },
      3: { scope: 'individual', agent: 'coaching', confidence: 0.9 },
      4: { scope: 'case', agent: '', confidence: 0.1 },
    };
    const forPsychology = (k: number) =>
      meta[k].confidence >= 0.3 && (meta[k].scope === 'shared' || meta[k].agent === 'psychology');
    expect(topK(m, q, 2, forPsychology).map((h) => h.key)).toEqual([2, 0]);
    expect(topK(m, q, 5, (k) => meta[k].scope === 'case').map((h) => h.key)).toEqual([4]);
    expect(topK(m, q, 5, () => false)).toEqual([]);
  });

  it('agrees with exact float64 cosine over the decoded vectors', () => {
    let s = 7;
    const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const dims = 32;
    const vectors = Array.from({ length: 300 }, () => Array.from({ length: dims }, rand));
    const cells = vectors.map(encodeVector);
    const query = new Float32Array(Array.from({ length: dims }, rand));
    const exact = cells
      .map((c, key) => ({ key, score: cosine(decodeVector(c, dims), query) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    const got = topK(decodeMatrix(cells, dims), query, 10);
    expect(got.map((h) => h.key)).toEqual(exact.map((h) => h.key));
    got.forEach((h, i) => expect(h.score).toBeCloseTo(exact[i].score, 5));
  });

  it('finds at least 95% of the exact float64 top-10 of the original vectors on topical data', () => {
    // Vectors around 40 topic centres, as embeddings of related texts are; queries drawn the same way.
    let s = 11;
    const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
    const dims = 67;
    const centres = Array.from({ length: 40 }, () => Array.from({ length: dims }, gauss));
    const draw = () => {
      const c = centres[Math.floor(rand() * centres.length)];
      return c.map((x) => x + 0.1 * gauss());
    };
    const originals = Array.from({ length: 2000 }, draw);
    const m = decodeMatrix(originals.map(encodeVector), dims);
    let found = 0;
    for (let t = 0; t < 20; t++) {
      const q = draw();
      const truth = new Set(
        originals
          .map((v, key) => ({ key, score: cosine(v, q) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 10)
          .map((h) => h.key),
      );
      found += topK(m, Float32Array.from(q), 10).filter((h) => truth.has(h.key)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.95);
  });

  it('ranks a matrix of old and new cells as if every cell were new', () => {
    // The same int8 values and scale as versions 1 ("scale|base64" with padding) and 2 wrote them.
    const old = (v: number[], version: 1 | 2) => {
      const q = new Int8Array(v.length);
      const scale = vectorInto(encodeVector(v), v.length, q, 0);
      const b64 = Buffer.from(q.buffer).toString('base64');
      return version === 1 ? `${scale.toPrecision(6)}|${b64}` : `2|${scale.toPrecision(4)}|${b64.replace(/=+$/, '')}`;
    };
    const vs = [
      [0.1, 0.9, -0.2, 0.4, 0.3],
      [0.8, -0.1, 0.2, 0.1, 0],
      [-0.5, 0.5, 0.5, -0.5, 0.1],
      [0.3, 0.3, -0.7, 0.2, -0.1],
    ];
    const mixed = decodeMatrix([old(vs[0], 1), encodeVector(vs[1]), old(vs[2], 1), old(vs[3], 2)], 5);
    expect(mixed.refused).toEqual([]);
    const fresh = decodeMatrix(vs.map(encodeVector), 5);
    expect(Array.from(mixed.data)).toEqual(Array.from(fresh.data));
    const q = new Float32Array([0.2, 0.7, 0, 0.3, 0.2]);
    expect(topK(mixed, q, 3)).toEqual(topK(fresh, q, 3));
  });
});
