// The council learns: outcomes on the review date, learnings with embeddings, retrieval into later discussions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelServer } from '../../../tools/model-server.js';
import { simulate } from '../../../tools/simulated-team.js';
import { council, messages, ok, rows, setSetting, settle, start, statuses } from '../../council-helpers.js';

describe('sixty simulated days', () => {
  it('opens discussions, carries out orders, evaluates outcomes, learns, and retrieves what it learned', async () => {
    const rt = await council();
    try {
      const run = await simulate(rt, 60, 42);
      expect(run.discussions).toBeGreaterThan(5);
      // Orders were carried out and reviewed: DONE, with an Outcomes row and the verdict in column M.
      const outcomes = rows(rt, 'Outcomes');
      expect(outcomes.length).toBeGreaterThan(3);
      expect(rows(rt, 'Orders').some((r) => r[5] === 'DONE')).toBe(true);
      const log = rows(rt, 'Discussion Log');
      const closed = log.filter((r) => r[1] === 'CLOSED');
      expect(closed.length).toBe(outcomes.length);
      for (const r of closed) expect(['confirmed', 'rejected', 'inconclusive']).toContain(r[12]);
      for (const o of outcomes) expect(['confirmed', 'rejected', 'inconclusive']).toContain(o[8]);
      // Learnings are written with embeddings: int8 in base64, with model and dimensions, well under a cell.
      const learnings = rows(rt, 'Learnings');
      expect(learnings.filter((r) => r[1] === 'case').length).toBeGreaterThan(0);
      expect(learnings.filter((r) => r[1] === 'individual' || r[1] === 'shared').length).toBeGreaterThan(0);
      for (const r of learnings) {
        expect(String(r[11])).toMatch(/^[\d.e-]+\|[A-Za-z0-9+/]+=*$/);
        expect(String(r[11]).length).toBeLessThan(400);
        expect(r[12]).toBe('kaigi-ngram-v1:256');
      }
      // Later discussions retrieved them: their ids are on the messages and exist in the tab.
      const ids = new Set(learnings.map((r) => String(r[0])));
      const used = messages(rt).flatMap((m) => m.metadata.learnings ?? []);
      expect(used.length).toBeGreaterThan(0);
      for (const id of used) expect(ids.has(id)).toBe(true);
      expect(learnings.some((r) => Number(r[7]) > 0)).toBe(true);
      // Confidence moves in the direction the verdicts say, starting from the initial 0.5.
      const last: Record<string, number> = {};
      let moved = 0;
      for (const r of rows(rt, 'Audit').filter((x) => x[3] === 'learning_updated')) {
        const u = JSON.parse(String(r[6]));
        const prev = last[String(r[5])] ?? 0.5;
        if (u.verdict === 'confirmed') expect(u.confidence).toBeGreaterThan(prev);
        if (u.verdict === 'rejected') expect(u.confidence).toBeLessThan(prev);
        last[String(r[5])] = u.confidence;
        moved++;
      }
      expect(moved).toBeGreaterThan(0);
      // Reflections were written for the speakers, and the agents' next actions are kept for their next discussion.
      expect(rows(rt, 'Reflections').length).toBeGreaterThan(14);
      expect(Object.keys(JSON.parse(rt.scriptProperties.get('KAIGI_NEXT_ACTIONS')!)).length).toBeGreaterThan(10);
      expect(Object.keys(JSON.parse(rt.scriptProperties.get('KAIGI_AGENT_STATS')!)).length).toBeGreaterThan(0);
      expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
    } finally {
      await rt.close();
    }
  }, 300_000);
});

describe('what memory puts in front of a model', () => {
  let server: ModelServer;
  let base = '';
  beforeAll(async () => {
    server = new ModelServer();
    base = await server.start();
  });
  afterAll(() => server.stop());

  it('shows retrieved learnings (with ids), directives and last next actions in the prompts of the agents they belong to', async () => {
    const rt = await council();
    try {
      await simulate(rt, 14, 42);
      expect(rows(rt, 'Outcomes').length).toBeGreaterThan(0);
      ok(
        await rt.run(
          'addDirective',
          [{ content: '称賛は公の場で行うこと', target_agents: ['psychology'], priority: 'high' }],
          { kind: 'server' },
        ),
      );
      rt.scriptProperties.set({
        KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
          provider: 'openai-compatible',
          model: 'any',
          base_url: `${base}/v1`,
        }),
      });
      const from = server.requests.length;
      await start(rt, {
        type: 'kpi_decline',
        source: 'watcher',
        target_user_id: 'ito',
        context: { metric: 'contacts', summary: '伊藤さんの連絡数が3日連続低下' },
        priority: 'HIGH',
      });
      await settle(rt);
      const reqs = server.requests.slice(from);
      const psych = reqs.find((r) => r.system.indexOf('「心理学特化」') >= 0)!;
      const coach = reqs.find((r) => r.system.indexOf('「コーチング特化」') >= 0)!;
      const decider = reqs.find((r) => r.system.indexOf('「決裁者」') >= 0)!;
      expect(psych.user).toMatch(/<data name="directives_from_people">[\s\S]*DIR-1[\s\S]*称賛は公の場で行うこと/);
      expect(coach.user).not.toMatch(/directives_from_people/);
      expect(psych.user).toMatch(/<data name="your_next_actions_from_recent_reflections">/);
      expect(decider.user).toMatch(/<data name="similar_past_cases">[\s\S]*"id": "LRN-\d+"/);
      expect(reqs.some((r) => /<data name="retrieved_learnings">[\s\S]*"id": "LRN-\d+"/.test(r.user))).toBe(true);
      // The directive reached its agent and is consumed.
      const directive = rows(rt, 'Directives')[0];
      expect(directive[5]).toBe('consumed');
      expect(JSON.parse(String(directive[6]))).toEqual([Object.keys(statuses(rt)).pop()]);
    } finally {
      await rt.close();
    }
  }, 300_000);

  it('has a model provider fill the learning schema after an outcome', async () => {
    const rt = await council();
    try {
      rt.scriptProperties.set({
        KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
          provider: 'openai-compatible',
          model: 'any',
          base_url: `${base}/v1`,
        }),
      });
      const from = server.requests.length;
      await simulate(rt, 14, 42);
      const asked = server.requests.slice(from).filter((r) => r.body.response_format?.json_schema?.name === 'learning');
      const outcomes = rows(rt, 'Outcomes').filter((o) => o[8] !== 'inconclusive');
      expect(outcomes.length).toBeGreaterThan(0);
      expect(asked.length).toBe(outcomes.length);
      expect(asked[0].user).toMatch(/<data name="outcome">/);
      expect(asked[0].body.response_format.json_schema.schema.properties.learnings.type).toBe('array');
      const fromModel = rows(rt, 'Learnings').filter((r) => String(r[10]).indexOf('openai-compatible:any') >= 0);
      expect(fromModel.length).toBeGreaterThan(0);
    } finally {
      await rt.close();
    }
  }, 300_000);

  it('uses the active prompt version, and a rollback restores the old one', async () => {
    const rt = await council();
    try {
      rt.scriptProperties.set({
        KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
          provider: 'openai-compatible',
          model: 'any',
          base_url: `${base}/v1`,
        }),
      });
      const v2 = ok(
        await rt.run(
          'editPrompt',
          [
            {
              agent_id: 'psychology',
              language: 'ja',
              text: '# 役割\nあなたは「心理学特化」v2 です。',
              reason: 'tighter',
            },
          ],
          { kind: 'server' },
        ),
      );
      expect(v2).toEqual({ prompt_id: 'PRM-psychology-v2-ja', version: 2 });
      let from = server.requests.length;
      await start(rt);
      await settle(rt);
      expect(server.requests.slice(from).some((r) => r.system.indexOf('v2 です') >= 0)).toBe(true);
      const prompts = rows(rt, 'Prompts').filter((r) => r[1] === 'psychology' && r[4] === 'ja');
      expect(prompts.map((r) => [r[2], r[3]])).toEqual([
        [1, false],
        [2, true],
      ]);
      ok(await rt.run('rollbackPrompt', [{ agent_id: 'psychology', language: 'ja', version: 1 }], { kind: 'server' }));
      from = server.requests.length;
      await start(rt, {
        type: 'kpi_decline',
        source: 'human',
        target_user_id: 'sato',
        context: { metric: 'contacts' },
        priority: 'MEDIUM',
      });
      await settle(rt);
      const later = server.requests.slice(from).filter((r) => r.system.indexOf('心理学特化') >= 0);
      expect(later.length).toBeGreaterThan(0);
      expect(later.every((r) => r.system.indexOf('v2 です') < 0)).toBe(true);
      expect(rows(rt, 'Agents').find((r) => r[0] === 'psychology')![9]).toBe(1);
    } finally {
      await rt.close();
    }
  });

  it('replays a phase with another model side by side, leaving the record untouched', async () => {
    const rt = await council();
    try {
      await start(rt);
      await settle(rt);
      const [id] = Object.keys(statuses(rt));
      const before = JSON.stringify(rt.workbook.sheets.map((s) => s.cells));
      const r = ok(
        await rt.run('replayPhase', [{ discussion_id: id, phase: 2, model: 'openai-compatible:any' }], {
          kind: 'server',
        }),
      );
      // No base URL is configured in Settings for this model: the replay reports the failure per agent.
      expect(r.answers.length).toBe(8);
      expect(r.answers[0].original).toBeTruthy();
      expect(r.answers[0].error).toMatch(/base URL/);
      await setSetting(rt, 'provider.base_url', `${base}/v1`);
      const again = ok(
        await rt.run('replayPhase', [{ discussion_id: id, phase: 2, model: 'openai-compatible:any' }], {
          kind: 'server',
        }),
      );
      expect(again.answers.every((a: { replay: unknown; error: string | null }) => a.replay && !a.error)).toBe(true);
      expect(again.answers[1].original.hypothesis).not.toBe(again.answers[1].replay.hypothesis);
      const after = JSON.stringify(rt.workbook.sheets.filter((x) => x.name !== 'Settings').map((x) => x.cells));
      expect(after).toBe(
        JSON.stringify(JSON.parse(before).filter((_: unknown, i: number) => rt.workbook.sheets[i].name !== 'Settings')),
      );
    } finally {
      await rt.close();
    }
  });
});

describe('a changed embedding model', () => {
  it('re-embeds every stored row through queued work, so vectors of different models are never compared', async () => {
    const rt = await council();
    try {
      await simulate(rt, 14, 42);
      const before = rows(rt, 'Learnings');
      expect(before.length).toBeGreaterThan(0);
      expect(new Set(before.map((r) => r[12]))).toEqual(new Set(['kaigi-ngram-v1:256']));
      await setSetting(rt, 'embedding.dimensions', '128');
      const review = ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
      expect(review.reembed).toBe(true);
      await settle(rt);
      const after = rows(rt, 'Learnings');
      expect(after.length).toBe(before.length);
      expect(new Set(after.map((r) => r[12]))).toEqual(new Set(['kaigi-ngram-v1:128']));
      for (const r of after) expect(String(r[11]).length).toBeLessThan(200);
    } finally {
      await rt.close();
    }
  }, 120_000);
});

describe('embedding providers', () => {
  let server: ModelServer;
  let base = '';
  beforeAll(async () => {
    server = new ModelServer();
    base = await server.start();
  });
  afterAll(() => server.stop());

  for (const [vendor, model, path, keyProp] of [
    ['openai', 'text-embedding-3-small', '/v1', 'KAIGI_KEY_OPENAI'],
    ['gemini', 'text-embedding-004', '/v1beta', 'KAIGI_KEY_GEMINI'],
  ] as const) {
    it(`${vendor}: embeds a learning when its row is written, at the configured size`, async () => {
      const rt = await council();
      try {
        rt.scriptProperties.set({ [keyProp]: 'embedding-test-key-000000' });
        const set = (k: string, v: string) => setSetting(rt, k, v);
        await set('embedding.provider', vendor);
        await set('embedding.model', model);
        await set('provider.base_urls', JSON.stringify({ [vendor]: `${base}${path}` }));
        const from = server.requests.length;
        await start(rt);
        await settle(rt);
        const calls = server.requests.slice(from);
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
        const learnings = rows(rt, 'Learnings');
        expect(learnings.length).toBe(1);
        expect(learnings[0][12]).toBe(`${model}:256`);
        expect(String(learnings[0][11]).length).toBeLessThan(400);
      } finally {
        await rt.close();
      }
    });
  }
});
