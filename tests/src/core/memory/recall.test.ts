// Recall before an agent speaks: own then shared learnings, cases about the same member first, ranking by
// similarity, recency and confidence with the Settings weights, and the 90-day decay of unused learnings.
import { describe, expect, it } from 'vitest';
import { encodeVector } from '../../../../src/core/memory/embedding.js';
import type { Learning } from '../../../../src/core/memory/memory.js';
import {
  decayed,
  recall,
  recallOptionsOf,
  type RecallOptions,
  unreadableCases,
} from '../../../../src/core/memory/recall.js';
import { decodeMatrix } from '../../../../src/core/memory/retrieval.js';
import { DEFAULT_SETTINGS, Settings } from '../../../../src/core/settings.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

function row(n: number, l: Partial<Learning> & { v: number[] }): Learning {
  return {
    row: n,
    learning_id: `LRN-${n}`,
    scope: 'shared',
    agent_id: '',
    category: 'lesson',
    content: `learning ${n}`,
    context: '',
    confidence: 0.5,
    times_applied: 0,
    times_successful: 0,
    is_active: true,
    source: '',
    embedding: encodeVector(l.v),
    embedding_model: 'm',
    created_at: NOW,
    last_applied_at: 0,
    ...l,
  };
}

function caseRow(n: number, member: string, verdict: string, v: number[], ageDays = 0): Learning {
  return row(n, {
    v,
    scope: 'case',
    context: JSON.stringify({
      discussion_id: `D${n}`,
      decision_id: `X${n}`,
      member,
      metric: 'm',
      actions: ['A'],
      verdict,
    }),
    created_at: NOW - ageDays * DAY,
  });
}

const matrixOf = (rows: Learning[]) =>
  decodeMatrix(
    rows.map((r) => r.embedding),
    4,
    rows.map((r) => r.row),
  );

const opts = (o: Partial<RecallOptions> = {}): RecallOptions => ({
  k: 2,
  minConfidence: 0.3,
  weights: { similarity: 1, recency: 0, confidence: 0 },
  halfLifeDays: 90,
  now: NOW,
  ...o,
});

const Q = new Float32Array([1, 0, 0, 0]);

describe('recall', () => {
  it('gives an agent its own learnings first, then shared ones; never another agent’s, an inactive or a weak one', () => {
    const rows = [
      row(2, { v: [1, 0, 0, 0], scope: 'shared' }),
      row(3, { v: [1, 1, 0, 0], scope: 'individual', agent_id: 'coaching' }),
      row(4, { v: [1, 0, 0, 0], scope: 'individual', agent_id: 'psychology' }),
      row(5, { v: [1, 0, 0, 0], scope: 'shared', is_active: false }),
      row(6, { v: [1, 0, 0, 0], scope: 'shared', confidence: 0.1 }),
    ];
    const r = recall(rows, matrixOf(rows), Q, 'coaching', '', opts());
    expect(r.learnings.map((l) => l.id)).toEqual(['LRN-3', 'LRN-2']);
  });

  it('puts the cases about the discussion’s member first, then the nearest about others, with their verdicts', () => {
    const rows = [
      caseRow(2, 'ito', 'confirmed', [1, 0, 0, 0]),
      caseRow(3, 'sato', 'rejected', [1, 1, 1, 0]),
      caseRow(4, 'sato', '', [1, 0, 0, 0]),
      caseRow(5, 'kato', 'rejected', [1, 1, 0, 0]),
    ];
    const r = recall(rows, matrixOf(rows), Q, 'coaching', '', opts({ k: 3 }), 'sato');
    // The case without a verdict yet (still under review) is not evidence.
    expect(r.cases.map((c) => [c.id, c.member, c.verdict])).toEqual([
      ['LRN-3', 'sato', 'rejected'],
      ['LRN-2', 'ito', 'confirmed'],
      ['LRN-5', 'kato', 'rejected'],
    ]);
    // Without a member, by similarity alone; the discussion's own case is excluded.
    const any = recall(rows, matrixOf(rows), Q, 'coaching', 'D2', opts({ k: 3 }));
    expect(any.cases.map((c) => c.id)).toEqual(['LRN-5', 'LRN-3']);
  });

  it('ranks by the weighted sum: with a recency weight a recent case beats a closer old one', () => {
    const rows = [caseRow(2, 'ito', 'confirmed', [1, 0, 0, 0], 360), caseRow(3, 'ito', 'rejected', [1, 0.6, 0, 0], 1)];
    const bySimilarity = recall(rows, matrixOf(rows), Q, 'a', '', opts({ k: 1 }), 'ito');
    expect(bySimilarity.cases.map((c) => c.id)).toEqual(['LRN-2']);
    const withRecency = recall(
      rows,
      matrixOf(rows),
      Q,
      'a',
      '',
      opts({ k: 1, weights: { similarity: 1, recency: 0.3, confidence: 0 } }),
      'ito',
    );
    expect(withRecency.cases.map((c) => c.id)).toEqual(['LRN-3']);
    // Recency halves every half-life: 360 days at 90 is 1/16.
    const both = recall(rows, matrixOf(rows), Q, 'a', '', opts({ k: 2 }), 'ito');
    expect(both.cases.map((c) => c.recency)).toEqual([0.063, 0.992]);
    // A half-life of 0 turns ageing off.
    const ageless = recall(rows, matrixOf(rows), Q, 'a', '', opts({ k: 2, halfLifeDays: 0 }), 'ito');
    expect(ageless.cases.map((c) => c.recency)).toEqual([1, 1]);
  });

  it('ranks learnings by confidence when that weight is set', () => {
    const rows = [row(2, { v: [1, 0, 0, 0], confidence: 0.4 }), row(3, { v: [1, 0.5, 0, 0], confidence: 0.95 })];
    expect(recall(rows, matrixOf(rows), Q, 'a', '', opts({ k: 1 })).learnings[0].id).toBe('LRN-2');
    const w = { similarity: 1, recency: 0, confidence: 1 };
    expect(recall(rows, matrixOf(rows), Q, 'a', '', opts({ k: 1, weights: w })).learnings[0].id).toBe('LRN-3');
  });

  it('ranks the cases once for the agents that ask with the same query, and afresh when anything they depend on changes', () => {
    const rows = [caseRow(2, 'ito', 'confirmed', [1, 0, 0, 0]), caseRow(3, 'sato', 'rejected', [1, 1, 0, 0])];
    const m = matrixOf(rows);
    const q = new Float32Array([1, 0, 0, 0]);
    const first = recall(rows, m, q, 'coaching', 'D9', opts({ k: 1 }), 'sato');
    const second = recall(rows, m, q, 'psychology', 'D9', opts({ k: 1 }), 'sato');
    expect(second.cases).toEqual(first.cases);
    // A copy each: the second agent's cases are not the first agent's objects.
    expect(second.cases[0]).not.toBe(first.cases[0]);
    expect(recall(rows, m, q, 'coaching', 'D9', opts({ k: 1 }), 'ito').cases.map((c) => c.id)).toEqual(['LRN-2']);
    expect(recall(rows, m, q, 'coaching', 'D3', opts({ k: 1 }), 'sato').cases.map((c) => c.id)).toEqual(['LRN-2']);
    expect(recall(rows, m, q, 'coaching', 'D9', opts({ k: 2 }), 'sato').cases.map((c) => c.id)).toEqual([
      'LRN-3',
      'LRN-2',
    ]);
    // A row added to the same array, with its matrix: the new case is seen.
    expect(recall(rows, m, q, 'coaching', 'D9', opts({ k: 1 }), 'sato').cases.map((c) => c.id)).toEqual(['LRN-3']);
    rows.push(caseRow(4, 'sato', 'confirmed', [1, 0, 0, 0]));
    const grown = matrixOf(rows);
    expect(recall(rows, grown, q, 'coaching', 'D9', opts({ k: 1 }), 'sato').cases.map((c) => c.id)).toEqual(['LRN-4']);
    // Another situation, the same rows.
    const other = new Float32Array([0, 1, 0, 0]);
    expect(recall(rows, grown, other, 'coaching', 'D9', opts({ k: 3 }), '').cases.map((c) => c.id)).toEqual([
      'LRN-3',
      'LRN-2',
      'LRN-4',
    ]);
  });

  it('returns nothing on an empty memory or k = 0', () => {
    expect(recall([], matrixOf([]), Q, 'a', '', opts())).toEqual({ learnings: [], cases: [] });
    const rows = [row(2, { v: [1, 0, 0, 0] })];
    expect(recall(rows, matrixOf(rows), Q, 'a', '', opts({ k: 0 }))).toEqual({ learnings: [], cases: [] });
  });

  it('leaves out a case whose context cell is unreadable or not a case instead of failing', () => {
    // Each is what a person's edit can leave in the cell: not JSON, JSON of another shape, a case with a bad field.
    const bad = ['{oops', 'null', '123', '"text"', '[]', '{"member":"ito","verdict":"confirmed","actions":"A"}'];
    const rows = bad
      .map((context, i) => ({ ...caseRow(10 + i, 'ito', 'confirmed', [1, 0, 0, 0]), context }))
      .concat([caseRow(3, 'ito', 'rejected', [1, 0, 0, 0])]);
    const got = recall(rows, matrixOf(rows), Q, 'a', '', opts({ k: 8 }), 'ito').cases;
    expect(got.map((c) => c.id)).toEqual(['LRN-3']);
    expect(unreadableCases(rows).map((l) => l.learning_id)).toEqual(bad.map((_, i) => `LRN-${10 + i}`));
  });
});

describe('recallOptionsOf', () => {
  const settings = (over: Record<string, string> = {}) => {
    const v: Record<string, string> = {};
    for (const d of DEFAULT_SETTINGS) v[d.key] = d.value;
    return new Settings({ ...v, ...over });
  };

  it('reads the weights, half-life, k and confidence floor from Settings', () => {
    expect(recallOptionsOf(settings(), NOW)).toEqual({
      k: 5,
      maxInjected: 20,
      maxTokens: 1500,
      minConfidence: 0.3,
      weights: { similarity: 1, recency: 0.3, confidence: 0.2 },
      halfLifeDays: 90,
      now: NOW,
    });
  });

  it('counts a missing, negative or mistyped weight as 0 rather than poisoning every score', () => {
    const o = recallOptionsOf(
      settings({ 'retrieval.weights': '{"similarity":1,"recency":"high","confidence":-2}' }),
      NOW,
    );
    expect(o.weights).toEqual({ similarity: 1, recency: 0, confidence: 0 });
  });
});

describe('recall: up to learning.max_injected learnings under a token budget', () => {
  // 30 relevant learnings, each a little less similar to the situation than the one before.
  const many = Array.from({ length: 30 }, (_, i) =>
    row(i + 2, { v: [1, i / 10, 0, 0], scope: i % 2 ? 'shared' : 'individual', agent_id: i % 2 ? '' : 'a' }),
  );
  const ids = (o: RecallOptions) => recall(many, matrixOf(many), Q, 'a', '', o).learnings.map((l) => l.id);

  it('gives 20 of 30, the agent’s own first, each part in order of relevance', () => {
    const got = ids(opts({ k: 5, maxInjected: 20, maxTokens: 100000 }));
    const own = many.filter((l) => l.scope === 'individual').map((l) => l.learning_id);
    const shared = many.filter((l) => l.scope === 'shared').map((l) => l.learning_id);
    expect(got).toEqual(own.concat(shared.slice(0, 5)));
  });

  it('gives fewer under a small token budget, keeping the most relevant and dropping the least', () => {
    const all = ids(opts({ k: 5, maxInjected: 20, maxTokens: 100000 }));
    const got = ids(opts({ k: 5, maxInjected: 20, maxTokens: 40 }));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(20);
    expect(got).toEqual(all.slice(0, got.length));
  });
});

describe('decayed', () => {
  it('picks the active learnings unused for the decay days (since last use, else since written), never cases', () => {
    const rows = [
      row(2, { v: [1, 0, 0, 0], created_at: NOW - 100 * DAY }),
      row(3, { v: [1, 0, 0, 0], created_at: NOW - 100 * DAY, last_applied_at: NOW - 10 * DAY }),
      row(4, { v: [1, 0, 0, 0], created_at: NOW - 89 * DAY }),
      row(5, { v: [1, 0, 0, 0], created_at: NOW - 200 * DAY, is_active: false }),
      caseRow(6, 'ito', 'confirmed', [1, 0, 0, 0], 300),
      row(7, { v: [1, 0, 0, 0], scope: 'individual', agent_id: 'a', created_at: 0, last_applied_at: NOW - 90 * DAY }),
      // No date at all (a hand-typed row): nothing says it is old.
      row(8, { v: [1, 0, 0, 0], created_at: 0 }),
    ];
    expect(decayed(rows, NOW, 90).map((l) => l.learning_id)).toEqual(['LRN-2', 'LRN-7']);
    expect(decayed(rows, NOW, 0)).toEqual([]);
  });
});
