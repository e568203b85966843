// Reflections written by each agent's own model, through the built file and the local model server over real HTTP,
// for every registered vendor's wire shape: the Reflections and Learnings tabs hold the model's words with its
// provider:model, an invalid answer falls back to the rules' reflection with a record of why, and the day's budget
// counts the calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeSnapshot } from '../../../runtime/runtime.js';
import { PROPERTY_KEYS, vendorKeyProperty } from '../../../src/core/property-keys.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { ModelServer, type Recorded } from '../../../tools/model-server.js';
import { backlogSnapshot } from '../../../tools/review-backlog.js';
import { tabRows } from '../../../tools/tab-rows.js';
import { council, ok, START } from '../../council-helpers.js';
import { newRuntime } from '../../helpers.js';

const KEY = 'placeholder-cred-tests';
let server: ModelServer;
let base = '';
let due: RuntimeSnapshot;

beforeAll(async () => {
  server = new ModelServer();
  base = await server.start();
  due = (await backlogSnapshot(await council(), 1, base)).snapshot;
}, 300_000);

afterAll(() => server.stop());

// The analyst's persona, as its role prompt names it (a system message, or the user turn after the shared data for
// Anthropic and Gemini): its model answers out of schema, the repair call too.
const isAnalyst = (r: Recorded) => /分析特化|"Analyst"/.test(`${r.system}\n${r.user}`);
const isReflection = (r: Recorded) => !!r.schema?.properties?.lesson;

function reflection(vendor: string, i: number): string {
  return JSON.stringify({
    self_score: 6,
    score_reasoning: `${vendor} model reasoning #${i}`,
    what_went_well: [`${vendor} went well #${i}`],
    what_to_improve: [`${vendor} to improve #${i}`],
    next_actions: [`${vendor} next action #${i}`],
    lesson: `${vendor} model lesson #${i}`,
    category: 'CONTACTS',
  });
}

describe('reflections by each agent’s own model, for every vendor shape', () => {
  for (const vendor of registry.names()) {
    it(`${vendor}: the model's reflection and lesson, the rules' on an invalid answer, the budget counted`, async () => {
      const rt = newRuntime({ startAt: START });
      rt.restore(due);
      const path = vendor === 'gemini' ? '/v1beta' : '/v1';
      rt.scriptProperties.set({
        [PROPERTY_KEYS.providerOverride]: JSON.stringify({ provider: vendor, model: 'm-test', base_url: base + path }),
        [vendorKeyProperty(vendor)]: KEY,
      });
      rt.allowLocalFetch = [base];
      const from = server.requests.length;
      server.plan = (r, i) =>
        isReflection(r) ? { body: isAnalyst(r) ? '{"self_score": 42}' : reflection(vendor, i) } : {};
      try {
        const report = ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
        expect(report.evaluated.length).toBe(1);
      } finally {
        server.plan = () => ({});
      }
      const sent = server.requests.slice(from);
      const asked = sent.filter(isReflection);
      // Every agent that spoke was asked once, the analyst twice (its answer, then the one repair call).
      const rows = tabRows(rt, 'reflections');
      expect(rows.length).toBeGreaterThanOrEqual(10);
      expect(asked.length).toBe(rows.length + 1);
      expect(asked.every((r) => ['self_score', 'next_actions', 'lesson'].every((k) => k in r.schema.properties))).toBe(
        true,
      );
      // One round: the decider's learning call went with the reflections.
      expect(sent.length).toBe(asked.length + 1);
      const source = `${vendor}:m-test`;
      const byModel = rows.filter((r) => r.source === source);
      expect(byModel.length).toBe(rows.length - 1);
      for (const r of byModel) {
        expect(String(r.reasoning)).toMatch(new RegExp(`^${vendor} model reasoning #\\d+$`));
        expect(JSON.parse(String(r.next_actions_json))[0]).toMatch(new RegExp(`^${vendor} next action`));
        expect(r.self_score).toBe(6);
      }
      const [analyst] = rows.filter((r) => r.agent_id === 'analyst');
      expect(String(analyst.source)).toMatch(new RegExp(`^rules \\(fallback: ${source} `));
      expect(String(analyst.reasoning)).not.toMatch(/model reasoning/);
      // Each model lesson is its agent's individual learning, with the model as source.
      const lessons = tabRows(rt, 'learnings').filter((l) => /model lesson/.test(String(l.content)));
      expect(lessons.length).toBe(byModel.length);
      for (const l of lessons) {
        expect(l.scope).toBe('individual');
        expect(String(l.source)).toMatch(new RegExp(`^OUT-\\d+ ${source}$`));
        expect(byModel.map((r) => r.agent_id)).toContain(l.agent_id);
      }
      // The calls count against the day's budget: the review is the day's first spending.
      const usage = JSON.parse(String(rt.scriptProperties.get(PROPERTY_KEYS.usage)));
      const billed = sent.reduce((n, r) => n + (r.usage?.input ?? 0) + (r.usage?.output ?? 0), 0);
      expect(usage.tokens).toBe(billed);
      expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
    }, 120_000);
  }
});
