// Starting a discussion from Sheets through google.script.run on the built file: the form's choices, the budget
// estimate before confirming (nothing written), and the start, validated and queued as POST /tasks queues it.
import { describe, expect, it } from 'vitest';
import { council, settle, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';

const FORM = { target_user_id: 'tanaka', type: 'kpi_decline', context: '連絡数が3日連続で低下', priority: 'HIGH' };

describe('getStartOptions', () => {
  it('offers the members of the Members tab, trigger types in both languages and the priorities', async () => {
    const rt = await council();
    try {
      const o = (await rt.callServer('getStartOptions')) as any;
      const ids = records(rt, 'members').map((m) => String(m.member_id));
      expect(o.members.map((m: any) => m.member_id)).toEqual(ids);
      expect(o.members[0]).toEqual({
        member_id: ids[0],
        name: expect.any(String),
        team: expect.any(String),
      });
      expect(o.triggerTypes[0]).toEqual({ type: 'kpi_decline', label_ja: expect.any(String), label_en: 'KPI decline' });
      expect(o.priorities).toEqual(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);
      expect(o.defaultPriority).toBe('MEDIUM');
      // The rule-based council needs no key: nobody falls back.
      expect(o.fallbacks).toEqual([]);
    } finally {
      await rt.close();
    }
  });

  it('names the agents that would fall back to rules, and why, before anything runs', async () => {
    const rt = await council();
    try {
      rt.scriptProperties.set({ [PROPERTY_KEYS.providerOverride]: JSON.stringify({ provider: 'openai' }) });
      const o = (await rt.callServer('getStartOptions')) as any;
      expect(o.fallbacks).toHaveLength(14);
      expect(o.fallbacks[0]).toEqual({
        agent_id: 'analyst',
        name_ja: '分析特化',
        name_en: 'Analyst',
        provider: 'openai',
        reason: 'no_key',
        setting: 'OPENAI_API_KEY',
      });
    } finally {
      await rt.close();
    }
  });
});

describe('estimateStart', () => {
  it('gives tokens and cost by model for the discussion the form would open, writing nothing', async () => {
    const rt = await council();
    try {
      const queue = records(rt, 'queue').length;
      const e = (await rt.callServer('estimateStart', FORM)) as any;
      expect(e.prompts).toBe(15);
      expect(e.tokens).toBeGreaterThan(10_000);
      expect(e.over).toBe(e.tokens > e.limit);
      // The demo council runs on the rule-based provider: one model, priced at nothing.
      expect(e.byModel).toEqual([{ model: 'rules:default', prompts: 15, tokens: e.tokens, cost_usd: 0 }]);
      expect(e.cost_usd).toBe(0);
      expect(records(rt, 'queue').length).toBe(queue);
      expect(records(rt, 'discussions').length).toBe(0);
      // Priced from the same table messages are costed with, for the model the agents will use.
      rt.scriptProperties.set({
        KAIGI_PROVIDER_OVERRIDE: JSON.stringify({ provider: 'openai', model: 'gpt-4o-mini' }),
      });
      const priced = (await rt.callServer('estimateStart', FORM)) as any;
      expect(priced.byModel.map((m: any) => m.model)).toEqual(['openai:gpt-4o-mini']);
      expect(priced.cost_usd).toBeGreaterThan(0);
      expect(priced.byModel[0].cost_usd).toBe(priced.cost_usd);
    } finally {
      await rt.close();
    }
  });

  it('names the bad field', async () => {
    const rt = await council();
    try {
      await expect(rt.callServer('estimateStart', { ...FORM, target_user_id: '' })).rejects.toThrow(
        /target_user_id: must be a non-empty string/,
      );
    } finally {
      await rt.close();
    }
  });
});

describe('startDiscussion from Sheets', () => {
  it('queues the discussion with its id reserved, by the person, and it runs to a decision', async () => {
    const rt = await council();
    try {
      const r = (await rt.callServer('startDiscussion', { ...FORM, idempotency_key: 'form-1' })) as any;
      expect(r.task_id).toMatch(/^Q-\d+$/);
      expect(r.discussion_id).toMatch(/^DISC-\d{4}-\d{2}-\d{2}-\d{3,}$/);
      expect(r.duplicate).toBe(false);
      const [q] = records(rt, 'queue');
      const payload = JSON.parse(String(q.payload_json));
      expect(payload.discussion_id).toBe(r.discussion_id);
      expect(payload.trigger).toEqual({
        type: 'kpi_decline',
        source: 'sheets',
        target_user_id: 'tanaka',
        context: { note: FORM.context },
      });
      expect(payload.priority).toBe('HIGH');
      expect(q.from).toBe(payload.actor);
      expect(String(q.dedupe_key)).toMatch(/^sheets:[0-9a-f]{16}:key:form-1$/);
      await settle(rt);
      expect(statuses(rt)[r.discussion_id]).toBe('DECIDED');
      // The estimate was written with the log row when it opened; the running totals with every step.
      const [row] = records(rt, 'discussions');
      expect(Number(row.estimate_tokens)).toBeGreaterThan(0);
      expect(Number(row.spent_tokens)).toBeGreaterThan(0);
      expect(String(row.spent_by_phase)).toMatch(/^P1 .* \| P6 /);
      expect(String(row.notes)).toMatch(/見積り|estimate/);
      expect((await rt.run('verifyAudit', [], { kind: 'editor' })).value).toMatchObject({ ok: true });
    } finally {
      await rt.close();
    }
  });

  it('reads the Script Properties in one call at a time, not one per key', async () => {
    const rt = await council();
    try {
      const r = await rt.run('startDiscussion', [{ ...FORM, idempotency_key: 'form-props' }], { kind: 'server' });
      expect(r.ok).toBe(true);
      // The store's state, the configuration version, each agent's model and key: one getProperties() each time
      // the snapshot is new (at the start, under the lock, after it) and the commit's two writes, never one
      // getProperty per key (twenty-odd calls).
      expect(r.counts.byService.props).toBeLessThanOrEqual(6);
    } finally {
      await rt.close();
    }
  });

  it('opens one discussion for a double-click (the same idempotency key)', async () => {
    const rt = await council();
    try {
      const a = (await rt.callServer('startDiscussion', { ...FORM, idempotency_key: 'k-1' })) as any;
      const b = (await rt.callServer('startDiscussion', { ...FORM, idempotency_key: 'k-1' })) as any;
      expect(b).toEqual({ ...a, duplicate: true });
      const c = (await rt.callServer('startDiscussion', { ...FORM, idempotency_key: 'k-2' })) as any;
      expect(c.discussion_id).not.toBe(a.discussion_id);
      expect(records(rt, 'queue').length).toBe(2);
    } finally {
      await rt.close();
    }
  });

  it('names each bad field and queues nothing', async () => {
    const rt = await council();
    try {
      const bad = { target_user_id: '', type: '', priority: 'URGENT' };
      const err = await rt.callServer('startDiscussion', bad).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.name).toBe('StartInputError');
      expect(err?.message).toMatch(/target_user_id: /);
      expect(err?.message).toMatch(/type: /);
      expect(err?.message).toMatch(/priority: /);
      expect(records(rt, 'queue').length).toBe(0);
    } finally {
      await rt.close();
    }
  });

  it('keeps a formula-looking context note as text', async () => {
    const rt = await council();
    try {
      const note = '=IMPORTXML("https://example.com", "//a")';
      const r = (await rt.callServer('startDiscussion', { ...FORM, context: note })) as any;
      const [q] = records(rt, 'queue');
      expect(JSON.parse(String(q.payload_json)).trigger.context.note).toBe(note);
      await settle(rt);
      const [row] = records(rt, 'discussions');
      expect(row.discussion_id).toBe(r.discussion_id);
      expect(JSON.parse(String(row.trigger_context_json)).context).toEqual({ note });
      // The estimate reads it as data too.
      expect(((await rt.callServer('estimateStart', { ...FORM, context: note })) as any).tokens).toBeGreaterThan(0);
    } finally {
      await rt.close();
    }
  });
});
