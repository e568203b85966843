// Semantic search over Learnings: the engine's embedding and cosine, with scores and ids.
import { describe, expect, it } from 'vitest';
import { decodeVector, embedOffline } from '../../../src/core/memory/embedding.js';
import { council, settle, start } from '../../council-helpers.js';
import { cosine } from '../../cosine.js';
import { records } from '../../helpers.js';
import { call } from './steer-helpers.js';

describe('searchLearnings', () => {
  it('ranks stored learnings by the cosine of the offline embedding, as the engine retrieves them', async () => {
    const rt = await council();
    for (const member of ['tanaka', 'sato'])
      await start(rt, {
        type: 'kpi_decline',
        source: 'human',
        target_user_id: member,
        context: { metric: 'contacts' },
        priority: 'HIGH',
      });
    await settle(rt);
    const rows = records(rt, 'learnings');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const query = String(rows.find((r) => String(r.content).indexOf('sato') >= 0)!.content);
    const { results, model, searched } = await call(rt, 'searchLearnings', { query, limit: 5 });
    expect(model).toBe('kaigi-ngram-v1:256');
    expect(searched).toBe(rows.length);
    // Every score is the cosine between the query's vector and the stored vector, best first.
    const q = embedOffline(query, 256);
    for (const r of results) {
      const row = rows.find((x) => x.learning_id === r.learning_id)!;
      expect(r.score).toBeCloseTo(cosine(q, decodeVector(String(row.embedding), 256)), 2);
      expect(r.similarity).toBe(r.score);
      expect(r.text).toBe(row.content);
      expect(r.confidence).toBe(Number(row.confidence));
    }
    const scores = results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The learning whose own text was the query comes first. It is a case, embedded as the situation it answers
    // (without the actions after the arrow), so its own text scores under 1, the less the more actions it names.
    expect(String(results[0].text)).toBe(query);
    expect(results[0].score).toBeGreaterThan(0.75);
    // Shown to a person, the case reads by the member's name and the labels, its codes kept in the stored text.
    expect(results[0].scope).toBe('case');
    expect(results[0].text_ja).toMatch(/^佐藤 花子の連絡数（KPI の低下） → \S/);
    expect(results[0].text_en).toMatch(/^佐藤 花子's contacts \(KPI decline\) → [A-Z][a-z]/);
    for (const t of [results[0].text_ja, results[0].text_en]) expect(t).not.toMatch(/sato|kpi_decline|[A-Z]+_[A-Z]+/);
    expect((await call(rt, 'searchLearnings', { query, limit: 1 })).results.length).toBe(1);
  });

  it('refuses an empty query or a bad limit, and finds nothing in an empty memory', async () => {
    const rt = await council();
    expect(await call(rt, 'searchLearnings', { query: 'contacts' })).toMatchObject({ results: [], searched: 0 });
    await expect(call(rt, 'searchLearnings', { query: '  ' })).rejects.toThrow(/a search needs a query/);
    await expect(call(rt, 'searchLearnings', { query: 'x', limit: 0 })).rejects.toThrow(/limit must be/);
  });
});
