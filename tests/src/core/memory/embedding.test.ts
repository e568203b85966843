// The offline embedding ranks related Japanese sentences above unrelated ones; storage round-trips; retrieval is exact.
import { describe, expect, it } from 'vitest';
import { decodeVector, embedOffline, encodeVector } from '../../../../src/core/memory/embedding.js';
import { decodeMatrix, topK } from '../../../../src/core/memory/retrieval.js';

// Groups of sentences about one situation, worded differently, as they recur in discussion logs.
const GROUPS = [
  ['田中さんの連絡数が3日連続で低下', '連絡数がここ数日続けて低下している', '営業担当の連絡数の低下が続く'],
  ['称賛の回数が少なく承認不足が疑われる', '直近7日の称賛回数が少ない', '承認不足で称賛を増やすべき'],
  ['残業時間が増えて疲労がたまっている', '残業が多く疲労の蓄積が心配', '疲労と残業時間の増加'],
  ['ログインの連続記録が途切れた', '連続ログイン日数が途切れて3日に', 'ログイン習慣の連続記録'],
];

describe('offline embedding', () => {
  it('is deterministic and unit length', () => {
    const a = embedOffline('田中さんの連絡数が低下', 256);
    const b = embedOffline('田中さんの連絡数が低下', 256);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
  });

  it('ranks similar Japanese sentences above unrelated ones', () => {
    const all = GROUPS.flatMap((g, gi) => g.map((text) => ({ gi, text, v: embedOffline(text, 256) })));
    const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
    let nearestRight = 0;
    for (const [i, q] of all.entries()) {
      const others = all.filter((_, j) => j !== i).map((o) => ({ gi: o.gi, s: cos(q.v, o.v) }));
      const mean = (gi: number) => {
        const xs = others.filter((o) => o.gi === gi).map((o) => o.s);
        return xs.reduce((a, b) => a + b, 0) / xs.length;
      };
      // On average its own situation is closer than any other situation.
      for (let g = 0; g < GROUPS.length; g++)
        if (g !== q.gi) expect(mean(q.gi), `${q.text} vs group ${g}`).toBeGreaterThan(mean(g));
      if (others.sort((a, b) => b.s - a.s)[0].gi === q.gi) nearestRight++;
    }
    // A character n-gram embedding is lexical: most, not all, nearest neighbours are in the same group.
    expect(nearestRight / all.length).toBeGreaterThanOrEqual(0.9);
  });
});

describe('stored vectors and retrieval', () => {
  it('quantises to a short cell and decodes within int8 precision', () => {
    const v = embedOffline('残業が増えて疲れがたまっている', 256);
    const cell = encodeVector(v);
    expect(cell.length).toBeLessThan(400);
    const back = decodeVector(cell, 256);
    for (let i = 0; i < 256; i++) expect(Math.abs(back[i] - v[i])).toBeLessThan(0.01);
  });

  it('finds the exact cosine top-k, honouring filters', () => {
    const texts = GROUPS.flat();
    const cells = texts.map((t) => encodeVector(embedOffline(t, 256)));
    const m = decodeMatrix(cells, 256);
    const q = embedOffline('残業と疲労が増えている', 256);
    const hits = topK(m, q, 3);
    expect(hits.map((h) => Math.floor(h.key / 3))).toEqual([2, 2, 2]);
    const filtered = topK(m, q, 2, (k) => k % 3 !== 0);
    expect(filtered.every((h) => h.key % 3 !== 0)).toBe(true);
  });
});
