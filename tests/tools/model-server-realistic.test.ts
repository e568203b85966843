// The model server's realistic mode over real HTTP, per vendor wire format: answers valid against the schema sent and
// of a model's lengths and language, usage by the stated token estimate, and prompt caching as each vendor does it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerErrors } from '../../src/core/discussion/messages.js';
import type { AgentRequest, Expectation } from '../../src/core/provider.js';
import { capabilityOf, DEFAULT_CAPABILITIES, DEFAULT_OUTPUT_CAPS } from '../../src/core/providers/model-table.js';
import { dropNulls, schemaFor, schemaName, type Vendor } from '../../src/core/providers/schema.js';
import { findVendor } from '../../src/core/providers/vendor-registry.js';
import { Settings } from '../../src/core/settings.js';
import { estimateTokens } from '../../src/core/prompts/tokens.js';
import { ModelServer } from '../../tools/model-server.js';
import { LONG_TEXT, SHORT_TEXT } from '../../tools/realistic-answer.js';
import { check } from '../src/core/json-schema.js';

const ALLOW = new Settings({}).get('actions.allow_list');
// The wire formats the local model server speaks (tools/model-server.ts), not the registry's vendors:
// openai-compatible is OpenAI's format at another address.
const VENDORS = ['openai', 'anthropic', 'gemini'] as const;
const MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-5', gemini: 'gemini-2.5-flash' };
const PATHS = { openai: '/v1', anthropic: '/v1', gemini: '/v1beta' };
const JA_SYSTEM =
  '# 役割\nあなたは Kaigi 会議の「心理学特化」です。データを読み、根拠とともに推奨を一つ返してください。';
const EN_SYSTEM =
  '# Role\nYou are the psychology specialist of the Kaigi council. Read the data and recommend one action.';
const DATA = '<data name="trigger">\n{\n "target_user_id": "tanaka",\n "today": "2026-01-15"\n}\n</data>';

let server: ModelServer;
let base = '';
let clock = Date.UTC(2026, 0, 15, 1);

beforeAll(async () => {
  server = new ModelServer();
  server.realistic = true;
  server.now = () => clock;
  base = await server.start();
});
afterAll(() => server.stop());

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(base + path, { method: 'POST', body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json();
}

// A request as Kaigi's own wire format builds it, sent to the server; the answer as Kaigi reads it.
async function ask(vendor: Vendor, expect_: Expectation, system: string, lang: 'ja' | 'en') {
  const wire = findVendor(vendor)!.wire;
  const req = {
    key: 'k',
    agent: { temperature: 0.3 },
    phase: 2,
    expect: expect_,
    context: { lang },
    system,
    user: DATA,
  };
  const schema = schemaFor(expect_, vendor, ALLOW);
  const built = wire.build(
    {
      req: req as unknown as AgentRequest,
      model: MODELS[vendor as 'openai'],
      schema,
      schemaName: schemaName(expect_),
      maxTokens: DEFAULT_OUTPUT_CAPS[expect_],
      capability: capabilityOf(DEFAULT_CAPABILITIES, vendor, MODELS[vendor as 'openai']),
    },
    'key',
    base + PATHS[vendor as 'openai'],
  );
  const res = await fetch(built.url, { method: 'POST', headers: built.headers, body: built.payload });
  const body = await res.text();
  return { schema, parsed: wire.parse(body), raw: JSON.parse(body) };
}

describe('realistic answers', () => {
  for (const vendor of VENDORS)
    it(`${vendor}: valid against the schema sent and Kaigi's checks, of a model's lengths, in the prompt's language`, async () => {
      for (const [kind, lang] of [
        ['SPECIALIST_OPINION', 'ja'],
        ['DECISION', 'en'],
        ['SITUATION_REPORT', 'ja'],
        ['GOVERNANCE_ETHICS', 'en'],
      ] as const) {
        const { schema, parsed } = await ask(vendor, kind, lang === 'ja' ? JA_SYSTEM : EN_SYSTEM, lang);
        const answer = JSON.parse(parsed.text!);
        expect(check(schema, answer, vendor === 'gemini' ? 'openapi' : 'json-schema')).toEqual([]);
        expect(answerErrors(kind, dropNulls(answer), ALLOW)).toBeNull();
        const kana = /[\u3040-\u30ff]/;
        const prose: string[] = [];
        if (kind === 'SPECIALIST_OPINION') {
          for (const k of ['analysis', 'hypothesis']) {
            expect(answer[k].length).toBeGreaterThanOrEqual(LONG_TEXT.min);
            expect(answer[k].length).toBeLessThanOrEqual(LONG_TEXT.max);
            prose.push(answer[k]);
          }
          for (const e of answer.evidence) {
            expect(e.length).toBeGreaterThanOrEqual(SHORT_TEXT.min);
            expect(e.length).toBeLessThanOrEqual(SHORT_TEXT.max);
          }
          expect(ALLOW).toContain(answer.recommendation.action_type);
        }
        if (kind === 'DECISION') {
          prose.push(answer.deliberation.rationale);
          expect(answer.deliberation.rationale.length).toBeGreaterThanOrEqual(LONG_TEXT.min);
          expect(answer.order.monitoring.review_in_days).toBe(7);
          expect(answer.order.monitoring.success_criteria[0].metric).toBe('contacts');
          expect(answer.deliberation.selected_action_types).toEqual([
            ...new Set(answer.order.actions.map((a: { action_type: string }) => a.action_type)),
          ]);
        }
        if (kind === 'GOVERNANCE_ETHICS') expect(answer.check_result).toBe('PASS');
        for (const p of prose) expect(kana.test(p)).toBe(lang === 'ja');
      }
    });
});

// Hand-written requests in each vendor's documented shape: a long shared system prompt (or a short one) and a
// user message that differs from its first character.
function body(vendor: Vendor, model: string, system: string, user: string): { path: string; body: any } {
  const tool = { name: 'room_answer', input_schema: schemaFor('ROOM_ANSWER', vendor, ALLOW) };
  if (vendor === 'anthropic')
    return {
      path: '/v1/messages',
      body: {
        model,
        max_tokens: 1024,
        system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: user }],
        tools: [tool],
        tool_choice: { type: 'tool', name: 'room_answer' },
      },
    };
  if (vendor === 'gemini')
    return {
      path: `/v1beta/models/${model}:generateContent`,
      body: {
        systemInstruction: { parts: [{ text: system }] },
        contents: [{ role: 'user', parts: [{ text: user }] }],
        generationConfig: { responseMimeType: 'application/json', responseSchema: tool.input_schema },
      },
    };
  return {
    path: '/v1/chat/completions',
    body: {
      model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'room_answer', strict: true, schema: tool.input_schema },
      },
    },
  };
}

// The stated estimate (src/core/prompts/tokens.ts): a CJK character a token, four other characters a token, over the
// request's parts in the vendor's order joined with new lines; the answer's JSON for the output.
function expectedInput(vendor: Vendor, b: any): number {
  if (vendor === 'anthropic')
    return estimateTokens([JSON.stringify(b.tools[0]), b.system[0].text, b.messages[0].content].join('\n'));
  if (vendor === 'gemini')
    return estimateTokens(
      [
        b.systemInstruction.parts[0].text,
        b.contents[0].parts[0].text,
        JSON.stringify(b.generationConfig.responseSchema),
      ].join('\n'),
    );
  // OpenAI puts the answer's schema before the messages.
  return estimateTokens([JSON.stringify(b.response_format), b.messages[0].content, b.messages[1].content].join('\n'));
}

function usageOf(
  vendor: Vendor,
  raw: any,
): { input: number; output: number; read: number; write: number; text: string } {
  if (vendor === 'anthropic') {
    const u = raw.usage;
    const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    const text = JSON.stringify(raw.content[0].input);
    return {
      input,
      output: u.output_tokens,
      read: u.cache_read_input_tokens,
      write: u.cache_creation_input_tokens,
      text,
    };
  }
  if (vendor === 'gemini') {
    const u = raw.usageMetadata;
    const text = raw.candidates[0].content.parts[0].text;
    return {
      input: u.promptTokenCount,
      output: u.candidatesTokenCount,
      read: u.cachedContentTokenCount,
      write: 0,
      text,
    };
  }
  const u = raw.usage;
  const text = raw.choices[0].message.content;
  return {
    input: u.prompt_tokens,
    output: u.completion_tokens,
    read: u.prompt_tokens_details.cached_tokens,
    write: 0,
    text,
  };
}

// About 1,600 tokens of Japanese (a token a character) and about 300.
const LONG = 'あなたは会議の参加者です。'.repeat(125);
const SHORT = 'あなたは会議の参加者です。'.repeat(25);

describe('usage and prompt caching', () => {
  for (const vendor of VENDORS)
    it(`${vendor}: tokens by the estimate; the second request with the same long prefix reads it from the cache`, async () => {
      clock += 3_600_000;
      const send = async (system: string, user: string, model = MODELS[vendor]) => {
        const q = body(vendor, model, system, user);
        return { sent: q.body, u: usageOf(vendor, await post(q.path, q.body)) };
      };
      const first = await send(LONG, `A ${DATA}`);
      expect(first.u.input).toBe(expectedInput(vendor, first.sent));
      expect(first.u.output).toBe(estimateTokens(first.u.text));
      expect(first.u.read).toBe(0);
      const second = await send(LONG, `B ${DATA}`);
      expect(second.u.input).toBe(expectedInput(vendor, second.sent));
      // The shared prefix: the system prompt and the new line after it (Anthropic: the tool before it; OpenAI: the
      // answer's schema before it).
      const prefix = estimateTokens(
        vendor === 'anthropic'
          ? `${JSON.stringify(second.sent.tools[0])}\n${LONG}`
          : vendor === 'openai'
            ? `${JSON.stringify(second.sent.response_format)}\n${LONG}\n`
            : `${LONG}\n`,
      );
      if (vendor === 'anthropic') {
        expect(first.u.write).toBe(prefix);
        expect(second.u).toMatchObject({ read: prefix, write: 0 });
      } else expect(second.u.read).toBe(vendor === 'openai' ? prefix - (prefix % 128) : prefix);
      expect(second.u.read).toBeGreaterThan(1024);

      // Below the minimum nothing is cached, however often it is sent.
      await send(SHORT, `A ${DATA}`);
      expect((await send(SHORT, `B ${DATA}`)).u).toMatchObject({ read: 0, write: 0 });

      // Five minutes after its last use the cache has expired: the prefix is new again.
      clock += 5 * 60_000 + 1;
      const later = await send(LONG, `C ${DATA}`);
      expect(later.u.read).toBe(0);
      if (vendor === 'anthropic') expect(later.u.write).toBe(prefix);
    });

  it("anthropic: a model's own minimum (Haiku 3.5: 2,048 tokens) keeps a shorter prefix out of the cache", async () => {
    const q = body('anthropic', 'claude-3-5-haiku-latest', LONG, DATA);
    for (let i = 0; i < 2; i++)
      expect(usageOf('anthropic', await post(q.path, q.body))).toMatchObject({ read: 0, write: 0 });
  });
});
