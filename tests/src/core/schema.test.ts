// Structured-output schemas per vendor, generated from the zod schemas: shapes, the allow-list enum, and agreement with zod.
import { describe, expect, it } from 'vitest';
import { MAX_DAYS, MESSAGE_TYPES, answerErrors, validateContent } from '../../../src/core/discussion/messages.js';
import type { Expectation } from '../../../src/core/provider.js';
import { dropNulls, schemaFor as generate, schemaName, type Vendor } from '../../../src/core/providers/schema.js';
import { Settings } from '../../../src/core/settings.js';
import {
  check as checkHuman,
  decision,
  feedbackAnswer,
  human,
  negative,
  opinion,
  positive,
  situation,
  storedOrder,
} from './answers.js';
import { check, walk, withNulls } from './json-schema.js';
import { findVendor, registry } from '../../../src/core/providers/vendor-registry.js';

// The generated schema as plain JSON, so a test can reach into any depth.
const schemaFor = (e: Expectation, vendor: Vendor, allow: readonly string[]): Record<string, any> =>
  generate(e, vendor, allow);

const ALLOW = new Settings({}).get('actions.allow_list');
const EXPECTATIONS: Expectation[] = [...MESSAGE_TYPES, 'DECISION', 'LEARNING', 'REFLECTION'];
// Written out with each one's dialect, as an oracle independent of the registry; 'names every registered vendor'
// below fails until a new vendor is added here with its dialect.
const VENDORS: Vendor[] = ['openai', 'openai-compatible', 'anthropic', 'gemini'];
const dialect = (v: Vendor) => (v === 'gemini' ? 'openapi' : 'json-schema');

// Zod-valid answers for every expectation, with optional fields both present and absent.
const SAMPLES: Record<string, unknown[]> = {
  SITUATION_REPORT: [
    situation(),
    { ...situation(), data_points: [{ metric: 'm', value: 'n/a', change: '', note: '' }] },
  ],
  SPECIALIST_OPINION: [opinion('PRAISE_INCREASE'), opinion('SKILL_TRAINING', 0, 'high')],
  PERSPECTIVE_POSITIVE: [positive(), { ...positive(), recommended_tone: 'warm' }],
  PERSPECTIVE_NEGATIVE: [negative()],
  PERSPECTIVE_HUMAN: [human(), { ...human(), practical_suggestion: 'talk on Friday' }],
  GOVERNANCE_ETHICS: [checkHuman(), checkHuman('FAIL', ['surveillance'])],
  GOVERNANCE_LEGAL: [checkHuman('FAIL', ['overtime'])],
  DECISION_DELIBERATION: [decision().deliberation],
  // What a model fills for an order: review days ahead, no decision id.
  EXECUTION_ORDER: [decision(['PRAISE_INCREASE', 'REST_RECOMMENDATION']).order],
  FEEDBACK_REQUEST: [{ question: 'why?', target_agent: 'analyst' }],
  FEEDBACK_RESPONSE: [feedbackAnswer()],
  OBJECTION: [
    { reason: 'r', alternative: 'a' },
    { reason: 'r', alternative: 'a', target_decision: 'DEC-2026-01-15-001', evidence: ['e'], urgency: 'HIGH' },
  ],
  ACKNOWLEDGEMENT: [{ status: 'OK' }, { status: 'RETURNED_TO_PHASE_5', note: 'n', guidance: 'g' }],
  ERROR: [{ error_code: 'E003', message: 'no answer' }],
  // A model's decision leaves out the weights and votes: Kaigi computes them (src/core/discussion/votes.ts).
  DECISION: [modelDecision()],
  LEARNING: [
    { learnings: [] },
    { learnings: [{ scope: 'shared', agent_id: '', category: 'PRAISE_INCREASE', content: 'worked', context: '{}' }] },
  ],
  REFLECTION: [
    {
      self_score: 7,
      score_reasoning: 'confirmed within 0.1',
      what_went_well: ['cited the streak'],
      what_to_improve: ['check the weekday pattern'],
      next_actions: ['read the last 14 days first'],
      lesson: 'Praise works for this member after a slump',
      category: 'PRAISE_INCREASE',
    },
  ],
};

function modelDecision(): unknown {
  const d = decision();
  const { weight_assignment: _w, votes: _v, ...deliberation } = d.deliberation;
  return { ...d, deliberation };
}

function zodValid(e: Expectation, v: unknown): void {
  const problem = answerErrors(e, v, ALLOW);
  if (problem) throw new Error(problem);
}

describe('generated schemas', () => {
  it('names every registered vendor', () => {
    expect([...VENDORS].sort()).toEqual(registry.names().sort());
  });

  it('has a sample for every expectation, each valid under zod', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...EXPECTATIONS].sort());
    for (const e of EXPECTATIONS) for (const v of SAMPLES[e]) expect(() => zodValid(e, v), e).not.toThrow();
  });

  it('accepts every zod-valid sample, for every vendor', () => {
    for (const vendor of VENDORS)
      for (const e of EXPECTATIONS) {
        const schema = schemaFor(e, vendor, ALLOW);
        for (const v of SAMPLES[e]) {
          // Strict mode answers every field, optional ones as null; dropping the nulls gives zod's value back.
          const sent = vendor === 'openai' ? withNulls(schema, v) : v;
          expect(check(schema, sent, dialect(vendor)), `${vendor} ${e}`).toEqual([]);
          expect(dropNulls(sent)).toEqual(v);
        }
      }
  });

  it('closes every object and requires every property for OpenAI strict mode', () => {
    for (const vendor of ['openai'] as const)
      for (const e of EXPECTATIONS)
        walk(schemaFor(e, vendor, ALLOW), (s, path) => {
          if (s.type !== 'object') return;
          expect(s.additionalProperties, `${vendor} ${e} ${path}`).toBe(false);
          expect(s.required, `${vendor} ${e} ${path}`).toEqual(Object.keys(s.properties));
        });
  });

  it('closes every object for Anthropic and grammar-based servers and requires only what zod requires', () => {
    for (const vendor of ['anthropic', 'openai-compatible'] as const)
      expect(schemaFor('PERSPECTIVE_HUMAN', vendor, ALLOW).required).toEqual(['reality_check', 'human_insight']);
    for (const e of EXPECTATIONS)
      walk(schemaFor(e, 'anthropic', ALLOW), (x, path) => {
        if (x.type === 'object') expect(x.additionalProperties, `${e} ${path}`).toBe(false);
        expect(x.$schema, `${e} ${path}`).toBeUndefined();
      });
  });

  it('gives Gemini upper-case types, nullable instead of null, counts as strings, and a property order', () => {
    for (const e of EXPECTATIONS)
      walk(schemaFor(e, 'gemini', ALLOW), (s, path) => {
        if (s.type !== undefined) expect(s.type, `${e} ${path}`).toBe(String(s.type).toUpperCase());
        expect(s.type, `${e} ${path}`).not.toBe('NULL');
        expect(s.additionalProperties, `${e} ${path}`).toBeUndefined();
        if (s.minItems !== undefined) expect(typeof s.minItems).toBe('string');
        if (s.properties) expect(s.propertyOrdering).toEqual(Object.keys(s.properties));
      });
    expect(schemaFor('SITUATION_REPORT', 'gemini', ALLOW).properties.data_points).toMatchObject({
      type: 'ARRAY',
      minItems: '1',
      maxItems: '40',
    });
  });

  it('builds these exact shapes for one type', () => {
    // OpenAI's strict mode has no minLength or maxLength: the same bounds as a pattern of any characters.
    expect(schemaFor('PERSPECTIVE_POSITIVE', 'openai', ALLOW)).toEqual({
      type: 'object',
      properties: {
        viewpoint: { type: 'string', pattern: '^[\\s\\S]{1,1200}$' },
        opportunity: { type: 'string', pattern: '^[\\s\\S]{1,600}$' },
        recommended_tone: { anyOf: [{ type: 'string', pattern: '^[\\s\\S]{0,200}$' }, { type: 'null' }] },
      },
      required: ['viewpoint', 'opportunity', 'recommended_tone'],
      additionalProperties: false,
    });
    expect(schemaFor('PERSPECTIVE_POSITIVE', 'gemini', ALLOW)).toEqual({
      type: 'OBJECT',
      properties: {
        viewpoint: { type: 'STRING', minLength: '1', maxLength: '1200' },
        opportunity: { type: 'STRING', minLength: '1', maxLength: '600' },
        recommended_tone: { type: 'STRING', maxLength: '200' },
      },
      required: ['viewpoint', 'opportunity'],
      propertyOrdering: ['viewpoint', 'opportunity', 'recommended_tone'],
    });
    expect(schemaFor('PERSPECTIVE_POSITIVE', 'anthropic', ALLOW)).toEqual({
      type: 'object',
      properties: {
        viewpoint: { type: 'string', minLength: 1, maxLength: 1200 },
        opportunity: { type: 'string', minLength: 1, maxLength: 600 },
        recommended_tone: { type: 'string', maxLength: 200 },
      },
      required: ['viewpoint', 'opportunity'],
      additionalProperties: false,
    });
  });

  it('asks for the review as a bounded number of days, and for no decision id', () => {
    const days = {
      minimum: 1,
      maximum: MAX_DAYS,
      description: `Days from today to the review of the order's outcome, 1 to ${MAX_DAYS}`,
    };
    const expected: Record<Vendor, object> = {
      openai: { type: 'integer', ...days },
      'openai-compatible': { type: 'integer', ...days },
      anthropic: { type: 'integer', ...days },
      gemini: { type: 'INTEGER', ...days },
    };
    for (const vendor of VENDORS) {
      const order = schemaFor('DECISION', vendor, ALLOW).properties.order;
      expect(Object.keys(order.properties), vendor).toEqual(['target_agents', 'actions', 'monitoring']);
      expect(Object.keys(order.properties.monitoring.properties), vendor).toEqual([
        'metrics',
        'success_criteria',
        'review_in_days',
      ]);
      expect(order.properties.monitoring.properties.review_in_days, vendor).toEqual(expected[vendor]);
      expect(order.properties.monitoring.required, vendor).toContain('review_in_days');
    }
  });

  it('refuses to send a schema a vendor cannot fully express', () => {
    const shaper = findVendor('openai')!.wire;
    expect(() => shaper.shapeSchema({ type: 'string', format: 'date' })).toThrow(
      'OpenAI strict mode cannot express the JSON Schema keyword "format"',
    );
    expect(() => findVendor('gemini')!.wire.shapeSchema({ type: 'string', const: 'x' })).toThrow(
      'Gemini\'s responseSchema cannot express the JSON Schema keyword "const"',
    );
    expect(() => shaper.shapeSchema({ type: 'string', pattern: '^a+$', maxLength: 3 })).toThrow(
      'OpenAI strict mode cannot express a pattern and a length together',
    );
  });

  it('makes action types an enum of the allow-list, wherever they appear', () => {
    const allow = ['ONLY_THIS', 'OR_THAT'];
    for (const vendor of VENDORS) {
      const op = schemaFor('SPECIALIST_OPINION', vendor, allow);
      expect(op.properties.recommendation.properties.action_type.enum, vendor).toEqual(allow);
      expect(op.properties.recommendation.properties.action_type.pattern, vendor).toBeUndefined();
      const d = schemaFor('DECISION', vendor, allow);
      expect(d.properties.order.properties.actions.items.properties.action_type.enum, vendor).toEqual(allow);
      expect(d.properties.deliberation.properties.selected_action_types.items.enum, vendor).toEqual(allow);
    }
  });

  it('rejects what zod rejects: unknown fields, banned actions, missing fields, wrong types', () => {
    for (const vendor of VENDORS) {
      const schema = schemaFor('SPECIALIST_OPINION', vendor, ALLOW);
      // Strict mode (openai) answers every optional field, with null when it has none (the action types' own fields).
      const sent = <T>(v: T): T => (vendor.startsWith('openai') ? (withNulls(schema, v) as T) : v);
      const ok = sent(opinion('PRAISE_INCREASE'));
      const banned = sent(opinion('PAY_CUT'));
      const { hypothesis: _, ...missing } = ok;
      expect(check(schema, banned, dialect(vendor)), vendor).toEqual([
        '$.recommendation.action_type: PAY_CUT not in enum',
      ]);
      expect(
        check(schema, missing, dialect(vendor)).filter((x) => x.includes('hypothesis')),
        vendor,
      ).toEqual(['$.hypothesis: required']);
      expect(check(schema, { ...ok, confidence: 'high' }, dialect(vendor)), vendor).toEqual([
        `$.confidence: expected ${vendor === 'gemini' ? 'NUMBER' : 'number'}`,
      ]);
      if (vendor !== 'gemini')
        expect(check(schema, { ...ok, secret: 1 }, dialect(vendor)), vendor).toEqual(['$.secret: not allowed']);
    }
  });
});

describe('stored orders', () => {
  it('reads an order stored before review_in_days, which has only its review date, and one with both', () => {
    const { review_in_days: _, ...monitoring } = storedOrder(decision()).monitoring;
    const old = { ...storedOrder(decision()), monitoring };
    expect(validateContent('EXECUTION_ORDER', old, ALLOW).monitoring).toEqual({
      metrics: ['contacts'],
      review_date: '2026-01-22',
      success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
    });
    expect(validateContent('EXECUTION_ORDER', storedOrder(decision(), 'DEC-2026-01-15-002'), ALLOW).monitoring).toEqual(
      {
        ...monitoring,
        review_in_days: 7,
      },
    );
    expect(() =>
      validateContent('EXECUTION_ORDER', { ...old, monitoring: { ...monitoring, review_date: '' } }, ALLOW),
    ).toThrow('monitoring.review_date: expected YYYY-MM-DD');
  });
});

describe('helpers', () => {
  it('drops nulls at any depth, keeping falsy values', () => {
    expect(dropNulls({ a: null, b: 0, c: '', d: false, e: [{ f: null, g: 1 }, null], h: { i: null } })).toEqual({
      b: 0,
      c: '',
      d: false,
      e: [{ g: 1 }, null],
      h: {},
    });
  });

  it('names a schema after its expectation', () => {
    expect([schemaName('DECISION'), schemaName('SPECIALIST_OPINION')]).toEqual(['decision', 'specialist_opinion']);
  });
});
