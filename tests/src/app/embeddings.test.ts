// Embeddings through the built file: a changed embedding model re-embeds every row, and the vendors' embedding APIs
// are called over real HTTP at the configured size.
import { describe, expect, it } from 'vitest';
import { localModelServer } from '../../model-server-hooks.js';
import { simulate } from '../../../tools/demo-team.js';
import { council, messages, ok, setSetting, settle, start } from '../../council-helpers.js';
import { decodeVector, embedOffline, encodeVector, vectorInto } from '../../../src/core/memory/embedding.js';
import { cosine } from '../../cosine.js';
import { column, records } from '../../helpers.js';
import { prepared } from './prepared.js';
import { call } from './steer-helpers.js';

// A fortnight of the demo team (its learnings, embedded), simulated once for the file and restored for each test.
async function fortnight() {
  const { rt } = await prepared('fortnight', async () => {
    const rt = await council();
    await simulate(rt, 14, 42);
    return { rt, value: null };
  });
  return rt;
}

describe('a changed embedding model', () => {
  it('re-embeds every stored row through queued work, so vectors of different models are never compared', async () => {
    const rt = await fortnight();
    const before = records(rt, 'learnings');
    // A case for each decided discussion (src/app/discussions/decision-memory.ts), and the lessons the rules extract
    // from the outcomes (a later outcome's repeat earlier ones and merge into their rows: review-lifecycle.ts).
    const decided = new Set(
      messages(rt)
        .filter((m) => m.message_type === 'EXECUTION_ORDER')
        .map((m) => (m as unknown as { discussion_id: string }).discussion_id),
    );
    expect(decided.size).toBeGreaterThanOrEqual(2);
    expect(before.filter((r) => r.scope === 'case').length).toBe(decided.size);
    expect(before.filter((r) => r.scope !== 'case').length).toBeGreaterThanOrEqual(4);
    expect(new Set(before.map((r) => r.embedding_model))).toEqual(new Set(['kaigi-ngram-v1:256']));
    await setSetting(rt, 'embedding.dimensions', '128');
    const review = ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect(review.reembed).toBe(true);
    await settle(rt);
    const after = records(rt, 'learnings');
    expect(after.map((r) => r.learning_id)).toEqual(before.map((r) => r.learning_id));
    expect(new Set(after.map((r) => r.embedding_model))).toEqual(new Set(['kaigi-ngram-v1:128']));
    for (const r of after) expect(String(r.embedding).length).toBeLessThan(200);
    expect(
      records(rt, 'queue')
        .filter((q) => q.type === 'memory.reembed')
        .map((q) => q.status),
    ).toEqual(['done']);
  }, 120_000);
});

describe('stored cell versions', () => {
  it('reads version 1 and 2 cells as they are and embeds again a cell in no known format or one the decoder refuses', async () => {
    const rt = await fortnight();
    const before = records(rt, 'learnings');
    const cell = String(before[0].embedding);
    expect(cell).toMatch(/^3\|[\u4e00-\u8dff]+$/);
    // The same vectors as versions 1 ("scale|base64" with padding) and 2 ("2|scale|base64" without) wrote them.
    const old = (text: string, version: 1 | 2) => {
      const q = new Int8Array(256);
      const scale = vectorInto(text, 256, q, 0);
      const b64 = Buffer.from(q.buffer).toString('base64');
      return version === 1 ? `${scale.toPrecision(6)}|${b64}` : `2|${scale.toPrecision(4)}|${b64.replace(/=+$/, '')}`;
    };
    const v1 = old(cell, 1);
    const v2 = old(String(before[3].embedding), 2);
    const learnings = rt.workbook.sheetByName('Learnings')!;
    const col = column('learnings', 'embedding');
    // The third: the right length, one character a hand edit put in that no cell holds; only decoding tells.
    const third = String(before[2].embedding);
    const bad = `${third.slice(0, 10)}!${third.slice(11)}`;
    rt.workbook.setValues(learnings, 2, col, 4, 1, [[v1], [`${cell.slice(0, 100)}`], [bad], [v2]]);
    const review = ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect(review.reembed).toBe(true);
    await settle(rt);
    const after = records(rt, 'learnings');
    expect(after[0].embedding).toBe(v1);
    expect(after[3].embedding).toBe(v2);
    // Embedded again from its content, in the current version.
    expect(after[1].embedding).toBe(encodeVector(embedOffline(String(after[1].content), 256)));
    expect(after[2].embedding).toBe(encodeVector(embedOffline(String(after[2].content), 256)));
    // Search still finds the row with the old cell, scored by the cosine of its vector.
    const active = after.filter((r) => r.is_active === true);
    expect(active[0].learning_id).toBe(before[0].learning_id);
    const query = String(before[0].content);
    const { results, searched } = await call(rt, 'searchLearnings', { query, limit: 50 });
    expect(searched).toBe(active.length);
    const hit = results.find((r: { learning_id: string }) => r.learning_id === before[0].learning_id);
    expect(hit.score).toBeCloseTo(cosine(embedOffline(query, 256), decodeVector(v1, 256)), 3);
  }, 120_000);
});

describe('embedding providers', () => {
  const models = localModelServer();

  for (const [vendor, model, path, keyProp] of [
    ['openai', 'text-embedding-3-small', '/v1', 'KAIGI_KEY_OPENAI'],
    ['gemini', 'text-embedding-004', '/v1beta', 'KAIGI_KEY_GEMINI'],
  ] as const) {
    it(`${vendor}: embeds a learning when its row is written, at the configured size`, async () => {
      const rt = await council();
      models.allow(rt);
      rt.scriptProperties.set({ [keyProp]: 'embedding-test-key-000000' });
      const set = (k: string, v: string) => setSetting(rt, k, v);
      await set('embedding.provider', vendor);
      await set('embedding.model', model);
      await set('provider.base_urls', JSON.stringify({ [vendor]: `${models.base()}${path}` }));
      const from = models.server.requests.length;
      await start(rt);
      await settle(rt);
      const calls = models.server.requests.slice(from);
      const call = calls[calls.length - 1];
      if (vendor === 'openai') {
        expect(call.path).toBe('/v1/embeddings');
        expect(call.headers.authorization).toBe('Bearer embedding-test-key-000000');
        expect(call.body).toMatchObject({ model, dimensions: 256 });
        expect(Array.isArray(call.body.input)).toBe(true);
      } else {
        expect(call.path).toBe(`/v1beta/models/${model}:batchEmbedContents`);
        expect(call.headers['x-goog-api-key']).toBe('embedding-test-key-000000');
        expect(call.body.requests[0]).toMatchObject({ model: `models/${model}`, outputDimensionality: 256 });
      }
      const learnings = records(rt, 'learnings');
      expect(learnings.length).toBe(1);
      expect(learnings[0].embedding_model).toBe(`${model}:256`);
      expect(String(learnings[0].embedding).length).toBeLessThan(400);
    });
  }
});
