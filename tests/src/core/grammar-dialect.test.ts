// Every answer schema a grammar-based server (llama.cpp, Ollama) is sent, through llama.cpp's own converters and
// parsers of an old release (b4291) and the newest: converted whole, read by both parsers, and enforced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerErrors, MESSAGE_TYPES } from '../../../src/core/discussion/messages.js';
import { demoKpi } from '../../../src/core/demo-data.js';
import type { Expectation } from '../../../src/core/provider.js';
import type { JsonSchema } from '../../../src/core/providers/json-schema.js';
import { schemaFor } from '../../../src/core/providers/schema.js';
import {
  GRAMMAR_MAX_REPEAT,
  grammarPattern,
  grammarSchema,
} from '../../../src/core/providers/vendors/grammar-dialect.js';
import { Settings } from '../../../src/core/settings.js';
import { jsonText, LLAMA_PLATFORM, LlamaGrammar, type SchemaCase } from '../../llama-grammar.js';
import { decision, opinion } from './answers.js';

// The demo's allow-list and KPI series: what the example discussion asks for.
const ALLOW = new Settings({}).get('actions.allow_list');
const METRICS = [...new Set(demoKpi('2026-01-15').map((r) => r.metric))];
// Every kind of answer answerSchema() builds (src/core/discussion/messages.ts).
const EXPECTATIONS: Expectation[] = [...MESSAGE_TYPES, 'DECISION', 'LEARNING', 'REFLECTION', 'ROOM_ANSWER'];
// The generic schema, before any vendor's dialect.
const GENERIC = { shapeSchema: (s: JsonSchema) => s };
const generic = (e: Expectation) => schemaFor(e, GENERIC, ALLOW, METRICS);

// A string of n characters past ASCII, as a Japanese answer is: lengths count code points, as JSON Schema does.
const chars = (n: number) => '田'.repeat(n);

// A decision as a model writes it (Kaigi computes the weights and votes), with a timed message to reach the pattern.
function modelDecision(rationale = 'praise first, then a talk', time = '09:30') {
  const d = decision(['PRAISE_INCREASE', 'MESSAGE_TIMING']);
  const { weight_assignment: _w, votes: _v, ...deliberation } = d.deliberation;
  const actions = d.order.actions.map((a) =>
    a.action_type === 'MESSAGE_TIMING' ? { ...a, time, message_template: 'MORNING_ENCOURAGEMENT' } : a,
  );
  return { deliberation: { ...deliberation, rationale }, order: { ...d.order, actions } };
}

describe('grammarSchema', () => {
  it('keeps lengths as lengths, capped at the grammar limit, and writes \\d out', () => {
    const s = grammarSchema(generic('ROOM_ANSWER')) as any;
    expect(s.properties.message).toMatchObject({ type: 'string', minLength: 1, maxLength: GRAMMAR_MAX_REPEAT });
    expect(JSON.stringify(grammarSchema(generic('DECISION')))).not.toMatch(/\\\\[dsSwW]/);
    expect(grammarPattern('^([01]\\d|2[0-3]):[0-5]\\d$')).toBe('^([01][0-9]|2[0-3]):[0-5][0-9]$');
    expect(grammarPattern('^[\\d_]{2,5000}$')).toBe(`^[0-9\\x5F]{2,${GRAMMAR_MAX_REPEAT}}$`);
  });

  it('throws rather than send an escape llama.cpp refuses or drops', () => {
    for (const e of ['\\s', '\\S', '\\w', '\\W', '\\D', '\\b'])
      expect(() => grammarPattern(`^[${e}]{1,50}$`)).toThrow(`cannot express the escape ${e}`);
    expect(() => grammarSchema({ type: 'string', pattern: '^[\\s\\S]{1,50}$' })).toThrow(/escape \\s/);
    expect(() => grammarSchema({ type: 'string', format: 'date' })).toThrow(/keyword "format"/);
  });
});

describe.skipIf(!LLAMA_PLATFORM)("llama.cpp's converters and parsers, b4291 and the newest", () => {
  let llama: LlamaGrammar;
  // Fails, saying what is missing, when the optional packages or g++ are not there on Linux x64.
  beforeAll(async () => {
    llama = await LlamaGrammar.open();
  });
  afterAll(() => llama?.close());

  const everyAnswer = (shape: (e: Expectation) => unknown): SchemaCase[] =>
    EXPECTATIONS.map((e) => ({ name: e, schema: shape(e) }));
  const problemsOf = async (cases: SchemaCase[]) =>
    Object.fromEntries((await llama.check(cases)).map((v) => [v.name, v.problems]));
  const none = Object.fromEntries(EXPECTATIONS.map((e) => [e, []]));

  it('accept a whole text only, not a prefix of one', async () => {
    const [v] = await llama.check([
      { name: 'short', schema: { type: 'string', maxLength: 3 }, texts: ['"abc"', '"ab'] },
    ]);
    expect(v.problems).toEqual([]);
    expect(Object.values(v.accepts[0])).toEqual([true, true, true, true]);
    expect(Object.values(v.accepts[1])).toEqual([false, false, false, false]);
  });

  it('convert grammarSchema() of every answer schema whole, and both parsers read every grammar', async () => {
    expect(await problemsOf(everyAnswer((e) => grammarSchema(generic(e))))).toEqual(none);
  });

  // What the vendor really sends (src/core/providers/vendors/openai-compatible.ts): fails while it sends another dialect.
  it('convert every schema the openai-compatible vendor sends whole, and both parsers read every grammar', async () => {
    expect(await problemsOf(everyAnswer((e) => schemaFor(e, 'openai-compatible', ALLOW, METRICS)))).toEqual(none);
  });

  it("fail a length written as OpenAI's [\\s\\S] pattern: b4291's parser refuses it, the newest drops it", async () => {
    const verdicts = await llama.check([
      { name: 'pattern', schema: { type: 'string', pattern: '^[\\s\\S]{1,50}$' } },
      { name: 'openai', schema: schemaFor('SPECIALIST_OPINION', 'openai', ALLOW, METRICS) },
    ]);
    for (const v of verdicts) {
      expect(v.problems).toContainEqual(
        expect.stringMatching(/^b4291 parser refuses the b4291 converter's grammar: .*unknown escape at \\s\\S\]/),
      );
      expect(v.problems).toContainEqual(
        expect.stringMatching(/^newest converter: WARNING: .*\^\[\\s\\S\]\{\d+,\d+\}\$.*accepting any string/),
      );
    }
  });

  // An answer the grammar allows passes the answer's check; one character over a length the grammar refuses.
  it('enforce lengths and patterns: a valid answer is accepted, a string one character over its length is not', async () => {
    const opinionSchema = grammarSchema(generic('SPECIALIST_OPINION'));
    const decisionSchema = grammarSchema(generic('DECISION'));
    const roomSchema = grammarSchema(generic('ROOM_ANSWER'));
    const good = opinion('PRAISE_INCREASE');
    const samples: { kind: Expectation; schema: JsonSchema; valid: unknown[]; invalid: unknown[] }[] = [
      {
        kind: 'SPECIALIST_OPINION',
        schema: opinionSchema,
        // analysis: 1,200 characters for the check, capped at 1,000 for the grammar; target: 200.
        valid: [good, { ...good, analysis: chars(GRAMMAR_MAX_REPEAT) }, { ...good, hypothesis: chars(600) }],
        invalid: [
          { ...good, analysis: chars(GRAMMAR_MAX_REPEAT + 1) },
          { ...good, hypothesis: chars(601) },
          { ...good, recommendation: { ...good.recommendation, target: chars(201) } },
          { ...good, analysis: '' },
        ],
      },
      {
        kind: 'DECISION',
        schema: decisionSchema,
        valid: [modelDecision(), modelDecision(chars(GRAMMAR_MAX_REPEAT), '23:59')],
        invalid: [
          modelDecision(chars(GRAMMAR_MAX_REPEAT + 1)),
          modelDecision('ok', '24:00'),
          modelDecision('ok', '9:30'),
        ],
      },
      {
        kind: 'ROOM_ANSWER',
        schema: roomSchema,
        valid: [{ message: chars(GRAMMAR_MAX_REPEAT) }],
        invalid: [{ message: chars(GRAMMAR_MAX_REPEAT + 1) }, { message: '' }],
      },
    ];
    for (const s of samples) for (const v of s.valid) expect(answerErrors(s.kind, v, ALLOW, METRICS)).toBeNull();
    const verdicts = await llama.check(
      samples.map((s) => ({
        name: s.kind,
        schema: s.schema,
        texts: [...s.valid, ...s.invalid].map((v) => jsonText(v, s.schema)),
      })),
    );
    verdicts.forEach((v, i) => {
      const s = samples[i];
      expect(v.problems).toEqual([]);
      const seen = v.accepts.map((a) => Object.values(a));
      // Two converters' grammars, each in two parsers.
      expect(seen).toEqual([
        ...s.valid.map(() => [true, true, true, true]),
        ...s.invalid.map(() => [false, false, false, false]),
      ]);
    });
  });
});
