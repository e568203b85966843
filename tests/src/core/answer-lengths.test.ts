// Text lengths: answer schemas every back end accepts (no repeat over 2,000), stored records and people's text as before.
import { describe, expect, it } from 'vitest';
import {
  MESSAGE_TYPES,
  answerErrors,
  validateContent,
  validateMessage,
} from '../../../src/core/discussion/messages.js';
import { runResolution } from '../../../src/core/orders/objections.js';
import type { Expectation } from '../../../src/core/provider.js';
import { HttpProvider, type HttpResult } from '../../../src/core/providers/http.js';
import type { JsonSchema } from '../../../src/core/providers/json-schema.js';
import { fitAnswer, maxSchemaRepeat, schemaFor, type Vendor } from '../../../src/core/providers/schema.js';
import { ScriptedProvider } from '../../../src/core/providers/scripted.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import type { WireRequest } from '../../../src/core/providers/vendors.js';
import { Settings } from '../../../src/core/settings.js';
import { decision, opinion, storedOrder } from './answers.js';
import { walk } from './json-schema.js';
import { DISC, NOW_ISO, newDiscussion, runToRest, testEnv } from './env.js';
import { phaseRequests } from '../../../src/core/engine.js';

const ALLOW = new Settings({}).get('actions.allow_list');
const EXPECTATIONS: Expectation[] = [...MESSAGE_TYPES, 'DECISION', 'LEARNING', 'REFLECTION', 'ROOM_ANSWER'];
const long = (n: number) => 'x'.repeat(n);

describe('maxSchemaRepeat', () => {
  it('finds the largest bound in a pattern, a maxLength or a maxItems, at any depth, numbers or strings', () => {
    expect(maxSchemaRepeat({ type: 'string', pattern: '^[\\s\\S]{1,20000}$' })).toBe(20000);
    expect(maxSchemaRepeat({ type: 'string', pattern: '^a{3}b{2,}$' })).toBe(3);
    expect(
      maxSchemaRepeat({
        type: 'OBJECT',
        properties: {
          // A property named like a keyword is a property, not a bound.
          pattern: { type: 'STRING', maxLength: '700' },
          list: { type: 'ARRAY', maxItems: '40', items: { anyOf: [{ type: 'string', maxLength: 90 }] } },
        },
      }),
    ).toBe(700);
    expect(maxSchemaRepeat({ type: 'number', maximum: 1e6 })).toBe(0);
  });
});

describe('answer schemas', () => {
  it('repeat nothing more than 2,000 times, for every expectation and every registered vendor', () => {
    const names = registry.names();
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const vendor of names)
      for (const e of EXPECTATIONS) {
        const n = maxSchemaRepeat(schemaFor(e, vendor as Vendor, ALLOW));
        expect(n, `${vendor} ${e}`).toBeLessThanOrEqual(2000);
        expect(n, `${vendor} ${e}`).toBeGreaterThan(0);
      }
  });

  it('bound every string a model writes: by a length, an enum or a pattern', () => {
    for (const e of EXPECTATIONS)
      walk(schemaFor(e, 'anthropic', ALLOW) as JsonSchema, (s, path) => {
        if (s.type !== 'string') return;
        expect(s.maxLength !== undefined || s.enum !== undefined || s.pattern !== undefined, `${e} ${path}`).toBe(true);
      });
  });

  it('refuse an over-long answer with a clear error', () => {
    const o = { ...opinion('PRAISE_INCREASE'), analysis: long(3000) };
    expect(answerErrors('SPECIALIST_OPINION', o, ALLOW)).toBe(
      'invalid answer: analysis: expected 1 to 1200 characters',
    );
    expect(answerErrors('SPECIALIST_OPINION', { ...o, analysis: long(1200) }, ALLOW)).toBeNull();
  });

  it('cut a rule-based answer to fit: each string to its own length, an ellipsis marking the cut', () => {
    const o = { ...opinion('PRAISE_INCREASE'), analysis: long(3000), evidence: [long(500), 'ok'] };
    const fit = fitAnswer('SPECIALIST_OPINION', o, ALLOW) as typeof o;
    expect([fit.analysis.length, fit.evidence[0].length, fit.evidence[1]]).toEqual([1200, 400, 'ok']);
    expect(fit.analysis.endsWith('x…')).toBe(true);
    expect(answerErrors('SPECIALIST_OPINION', fit, ALLOW)).toBeNull();
  });

  it('send an over-long answer through the one repair call, which a right-length answer then passes', () => {
    const [req] = phaseRequests(newDiscussion({ status: 'IN_PROGRESS' }), testEnv(), 1).map((r) => ({
      ...r,
      expect: 'SPECIALIST_OPINION' as const,
    }));
    const answers = [{ ...opinion('PRAISE_INCREASE'), analysis: long(3000) }, opinion('PRAISE_INCREASE')];
    const sent: WireRequest[] = [];
    const body = (content: unknown) =>
      JSON.stringify({ choices: [{ message: { content: JSON.stringify(content) } }], usage: {} });
    const p = new HttpProvider(
      {
        vendor: registry.find('openai')!,
        model: 'gpt-4o-mini',
        key: 'k',
        baseUrl: '',
        maxAttempts: 3,
        baseSeconds: 1,
        jitterMs: 0,
        parallel: true,
        deadline: Number.MAX_SAFE_INTEGER,
      },
      {
        fetchAll: (ws): HttpResult[] => {
          sent.push(...ws);
          return ws.map(() => ({ code: 200, headers: {}, body: body(answers.shift()) }));
        },
      },
      { now: () => 0, sleep: () => {}, random: () => 0 },
    );
    const [r] = p.respond([req]);
    expect(r).toMatchObject({ ok: true, repaired: true, attempts: 2 });
    const repair = JSON.parse(sent[1].payload).messages.pop().content;
    expect(repair).toMatch(/analysis: expected 1 to 1200 characters/);
  });
});

describe('stored records and people’s text', () => {
  it('still load with fields longer than an answer may hold', () => {
    const o = {
      ...opinion('PRAISE_INCREASE'),
      analysis: long(5000),
      evidence: [long(5000)],
      recommendation: { ...opinion('PRAISE_INCREASE').recommendation, description: long(5000) },
    };
    expect(validateContent('SPECIALIST_OPINION', o, ALLOW).analysis.length).toBe(5000);
    const order = storedOrder(decision());
    const edited = { ...order, actions: order.actions.map((a) => ({ ...a, description: long(5000) })) };
    expect(() => validateContent('EXECUTION_ORDER', edited, ALLOW)).not.toThrow();
    expect(() =>
      validateContent('OBJECTION', { reason: long(5000), alternative: long(5000), evidence: [long(2000)] }, ALLOW),
    ).not.toThrow();
    const ack = { status: 'RETURNED_TO_PHASE_5', note: long(5000), guidance: long(5000) };
    expect(() =>
      validateMessage(
        {
          message_id: `MSG-${DISC}-001`,
          discussion_id: DISC,
          phase: 5,
          speaker: 'human',
          message_type: 'ACKNOWLEDGEMENT',
          timestamp: NOW_ISO,
          content: ack,
          metadata: {
            processing_time_ms: 0,
            model_used: 'human',
            tokens_consumed: 0,
            fallback_level: 0,
            step_key: 'k',
          },
        },
        ALLOW,
      ),
    ).not.toThrow();
  });

  it('keeps the rule-based decider within the answer lengths when a person’s guidance is long', () => {
    const before = runToRest(newDiscussion({ priority: 'MEDIUM' }), testEnv({ lang: 'ja' })).d;
    const down = new ScriptedProvider([{ agent: 'decider', network: 'offline' }]);
    const escalated = runToRest(
      { ...before, status: 'VOTING', final_decision: null, messages: before.messages.slice(0, -2) },
      testEnv({ provider: (a) => (a.agent_id === 'decider' ? down : testEnv().rules) }),
    ).d;
    expect(escalated.status).toBe('ESCALATED');
    const r = runResolution(
      escalated,
      { discussion_id: DISC, action: 'return', by: 'boss', guidance: `SKILL_TRAINING ${long(5000)}` },
      testEnv(),
    );

    const deliberation = r.messages.find((m) => m.message_type === 'DECISION_DELIBERATION')!;
    expect(deliberation.metadata.fallback_level).toBe(0);
    expect(String(deliberation.content.rationale).length).toBeLessThanOrEqual(1200);
  });
});
