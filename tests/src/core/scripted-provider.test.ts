// The scripted provider: answers in script order, records every call, mimics HTTP retries and repair, fails loudly.
import { describe, expect, it } from 'vitest';
import { phaseRequests } from '../../../src/core/engine.js';
import { ScriptedProvider, ScriptError } from '../../../src/core/providers/scripted.js';
import { opinion, situation } from './answers.js';
import { DISC, newDiscussion, testEnv } from './env.js';

const env = testEnv();
const d = newDiscussion({ status: 'IN_PROGRESS' });
// Real requests as the engine builds them: the analyst's report and the eight specialists' opinions.
const [report] = phaseRequests(d, env, 1);
const specialists = phaseRequests(d, env, 2);
const [analyst, psychology] = specialists;

describe('ScriptedProvider', () => {
  it('answers in script order and records each request and call', () => {
    const p = new ScriptedProvider(
      [
        { agent: 'analyst', expect: 'SITUATION_REPORT', phase: 1, content: situation(), tokensIn: 100, tokensOut: 20 },
        { agent: 'analyst', content: opinion('GOAL_ADJUSTMENT'), ms: 250 },
        { content: opinion('PRAISE_INCREASE', 0.7) },
      ],
      { name: 'openai', model: 'gpt-4o-mini' },
    );
    const out = p.respond([report, analyst, psychology]);
    expect(out).toEqual([
      {
        key: `${DISC}/1/analyst/1`,
        ok: true,
        content: situation(),
        model: 'openai:gpt-4o-mini',
        tokensIn: 100,
        tokensOut: 20,
        ms: 0,
        attempts: 1,
        repaired: false,
      },
      {
        key: `${DISC}/2/analyst/1`,
        ok: true,
        content: opinion('GOAL_ADJUSTMENT'),
        model: 'openai:gpt-4o-mini',
        tokensIn: 0,
        tokensOut: 0,
        ms: 250,
        attempts: 1,
        repaired: false,
      },
      {
        key: `${DISC}/2/psychology/1`,
        ok: true,
        content: opinion('PRAISE_INCREASE', 0.7),
        model: 'openai:gpt-4o-mini',
        tokensIn: 0,
        tokensOut: 0,
        ms: 0,
        attempts: 1,
        repaired: false,
      },
    ]);
    expect(p.requests).toEqual([report, analyst, psychology]);
    expect(p.calls.map((c) => [c.entry, c.agent, c.phase, c.expect, c.attempt])).toEqual([
      [0, 'analyst', 1, 'SITUATION_REPORT', 1],
      [1, 'analyst', 2, 'SPECIALIST_OPINION', 1],
      [2, 'psychology', 2, 'SPECIALIST_OPINION', 1],
    ]);
    expect(p.calls[2].system).toBe(psychology.system);
    expect(p.calls[2].user).toBe(psychology.user);
    expect(p.remaining()).toEqual([]);
    expect(() => p.assertDone()).not.toThrow();
  });

  it('computes content from the request when an entry gives an answer function', () => {
    const p = new ScriptedProvider([{ answer: (r) => opinion(r.agent.agent_id.toUpperCase()) }]);
    expect(p.respond([analyst])[0].content).toEqual(opinion('ANALYST'));
  });

  it('throws when the next entry names another agent, expectation or phase', () => {
    const wrongAgent = new ScriptedProvider([{ agent: 'psychology', content: opinion('PRAISE_INCREASE') }]);
    expect(() => wrongAgent.respond([analyst])).toThrow(
      new ScriptError(
        `script entry #0 wants agent psychology but the next request is ${DISC}/2/analyst/1 (agent analyst, expect SPECIALIST_OPINION, phase 2)`,
      ),
    );
    const wrongKind = new ScriptedProvider([{ expect: 'DECISION', phase: 5, content: {} }]);
    expect(() => wrongKind.respond([analyst])).toThrow(/^script entry #0 wants expect DECISION, phase 5 but/);
  });

  it('throws when the script runs out, and reports entries nobody asked for', () => {
    const p = new ScriptedProvider([{ content: opinion('GOAL_ADJUSTMENT') }]);
    expect(() => p.respond([analyst, psychology])).toThrow(
      `script ran out: no scripted answer for ${DISC}/2/psychology/1 (agent psychology, expect SPECIALIST_OPINION, phase 2)`,
    );
    const extra = new ScriptedProvider([
      { agent: 'analyst', content: 1 },
      { agent: 'legal', expect: 'GOVERNANCE_LEGAL', status: 500 },
    ]);
    extra.respond([analyst]);
    expect(extra.remaining()).toEqual(['#1 agent legal, expect GOVERNANCE_LEGAL → status 500']);
    expect(() => extra.assertDone()).toThrow(
      '1 scripted answer(s) never requested: #1 agent legal, expect GOVERNANCE_LEGAL → status 500',
    );
  });

  it('rejects entries that are no reply, or a success status', () => {
    expect(() => new ScriptedProvider([{ agent: 'analyst' } as never])).toThrow(
      'script entry agent analyst → nothing gives no reply',
    );
    expect(() => new ScriptedProvider([{ status: 200 }])).toThrow(/a status entry stands for a failure/);
    expect(() => new ScriptedProvider([], { maxAttempts: 0 })).toThrow('maxAttempts must be at least 1, not 0');
  });

  it('matches by agent in per-agent order, falling back to entries that name no agent', () => {
    const p = new ScriptedProvider(
      [
        { agent: 'psychology', content: opinion('PRAISE_INCREASE') },
        { content: opinion('REST_RECOMMENDATION') },
        { agent: 'analyst', content: opinion('GOAL_ADJUSTMENT') },
      ],
      { order: 'per-agent' },
    );
    const out = p.respond([analyst, psychology, specialists[2]]);
    expect(out.map((r) => (r.content as ReturnType<typeof opinion>).recommendation.action_type)).toEqual([
      'GOAL_ADJUSTMENT',
      'PRAISE_INCREASE',
      'REST_RECOMMENDATION',
    ]);
    expect(p.calls.map((c) => c.entry)).toEqual([2, 0, 1]);
  });

  it('parses text answers like a vendor reply, dropping strict-mode nulls', () => {
    const p = new ScriptedProvider([
      { text: JSON.stringify({ viewpoint: 'v', opportunity: 'o', recommended_tone: null }), tokensOut: 7 },
    ]);
    const [pos] = phaseRequests(d, env, 3);
    expect(p.respond([pos])[0]).toMatchObject({
      ok: true,
      content: { viewpoint: 'v', opportunity: 'o' },
      attempts: 1,
      repaired: false,
      tokensOut: 7,
    });
  });

  it('makes the one repair call after malformed JSON, carrying the error', () => {
    const p = new ScriptedProvider([
      { agent: 'analyst', text: '{"analysis": "cut off', tokensIn: 10, tokensOut: 5, ms: 100 },
      { agent: 'analyst', text: JSON.stringify(opinion('GOAL_ADJUSTMENT')), tokensIn: 12, tokensOut: 6, ms: 150 },
    ]);
    const [r] = p.respond([analyst]);
    expect(r).toMatchObject({ ok: true, repaired: true, attempts: 2, tokensIn: 22, tokensOut: 11, ms: 250 });
    expect(r.content).toEqual(opinion('GOAL_ADJUSTMENT'));
    expect(p.calls.map((c) => c.attempt)).toEqual([1, 2]);
    expect(p.calls[0].repair).toBeUndefined();
    expect(p.calls[1].repair?.previous).toBe('{"analysis": "cut off');
    expect(p.calls[1].repair?.errors).toMatch(/^the answer is not valid JSON: /);
  });

  it('repairs an answer outside the schema, and gives up after the repair fails too', () => {
    const p = new ScriptedProvider([{ text: JSON.stringify(opinion('FIRE_THEM')) }, { text: 'not json at all' }]);
    const [r] = p.respond([analyst]);
    expect(r.ok).toBe(false);
    expect(r.attempts).toBe(2);
    expect(r.error?.code).toBe('invalid_output');
    expect(r.error?.message).toMatch(/^the answer is not valid JSON: /);
    expect(p.calls[1].repair?.errors).toBe(
      'invalid answer: recommendation.action_type: action type FIRE_THEM is not in the allow-list',
    );
  });

  it('retries network errors and retryable statuses up to maxAttempts', () => {
    const ok = new ScriptedProvider(
      [{ network: 'connection reset' }, { status: 429 }, { content: opinion('GOAL_ADJUSTMENT'), tokensIn: 3 }],
      { maxAttempts: 3 },
    );
    expect(ok.respond([analyst])[0]).toMatchObject({ ok: true, attempts: 3, tokensIn: 3, repaired: false });
    const down = new ScriptedProvider([{ network: 'connection reset' }, { status: 502, body: 'bad gateway' }], {
      maxAttempts: 2,
    });
    expect(down.respond([analyst])[0]).toMatchObject({
      ok: false,
      attempts: 2,
      error: { code: 'http_502', message: 'HTTP 502: bad gateway (after 2 attempts)' },
    });
    const once = new ScriptedProvider([{ network: 'DNS failure' }]);
    expect(once.respond([analyst])[0].error).toEqual({ code: 'network', message: 'DNS failure (after 1 attempts)' });
  });

  it('never retries a client error', () => {
    const p = new ScriptedProvider([{ status: 401, body: 'bad key' }, { content: opinion('GOAL_ADJUSTMENT') }], {
      maxAttempts: 3,
    });
    expect(p.respond([analyst])[0]).toMatchObject({
      ok: false,
      attempts: 1,
      error: { code: 'http_401', message: 'HTTP 401: bad key' },
    });
    expect(p.remaining()).toEqual(['#1 any agent → content']);
  });

  it('passes a stand-in level and note through, and throws what an entry throws', () => {
    const p = new ScriptedProvider([
      { content: opinion('GOAL_ADJUSTMENT'), fallbackLevel: 4, note: 'daily model budget spent' },
      { throws: new RangeError('provider crashed') },
    ]);
    expect(p.respond([analyst])[0]).toMatchObject({ fallbackLevel: 4, note: 'daily model budget spent' });
    expect(() => p.respond([psychology])).toThrow(new RangeError('provider crashed'));
    expect(() => new ScriptedProvider([{ throws: 'as text' }]).respond([analyst])).toThrow('as text');
  });
});
