// What reaches each vendor: an output cap on every request, the parameters a model takes, the shared preamble first.
import { describe, expect, it } from 'vitest';
import { defaultAgents } from '../../../src/core/discussion/default-council.js';
import { phaseRequests } from '../../../src/core/engine.js';
import type { AgentRequest, Expectation } from '../../../src/core/provider.js';
import { HttpProvider, type HttpOptions } from '../../../src/core/providers/http.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { situation } from './answers.js';
import { newDiscussion, testEnv } from './env.js';

type Body = Record<string, any>;

// The first request of a discussion (the analyst's situation report), as another agent or expectation when asked.
function request(over: Partial<AgentRequest> = {}, agentId = 'analyst'): AgentRequest {
  const [r] = phaseRequests(newDiscussion({ status: 'IN_PROGRESS' }), testEnv(), 1);
  // Without a preamble or the phase's task unless a test gives them: each test here sets what it is about.
  return {
    ...r,
    preamble: undefined,
    task: undefined,
    agent: defaultAgents().find((a) => a.agent_id === agentId)!,
    ...over,
  };
}

// The bodies a vendor was sent for one request: the answer, then (when `answers` holds a bad one first) the repair.
function sent(vendor: string, req: AgentRequest, o: Partial<HttpOptions> = {}, answers = ['']): Body[] {
  const bodies: Body[] = [];
  const v = registry.find(vendor)!;
  const p = new HttpProvider(
    {
      vendor: v,
      model: v.defaultModel,
      key: 'k',
      baseUrl: 'http://model.test/v1',
      maxAttempts: 1,
      baseSeconds: 1,
      jitterMs: 0,
      parallel: true,
      deadline: Number.MAX_SAFE_INTEGER,
      ...o,
    },
    {
      fetchAll: (ws) =>
        ws.map((w) => {
          bodies.push(JSON.parse(w.payload));
          const text = answers.shift() || JSON.stringify(situation());
          // One reply every wire format reads: each vendor's parse takes its own field.
          const body = {
            choices: [{ message: { content: text } }],
            content: [{ type: 'tool_use', input: JSON.parse(text) }],
            candidates: [{ content: { parts: [{ text }] } }],
          };
          return { code: 200, headers: {}, body: JSON.stringify(body) };
        }),
    },
    { now: () => 0, sleep: () => {}, random: () => 0 },
  );
  p.respond([req]);
  return bodies;
}

// Where each registered vendor's wire format carries the output cap; a vendor added without one fails here.
const CAP: Record<string, (b: Body) => unknown> = {
  openai: (b) => b.max_tokens,
  'openai-compatible': (b) => b.max_tokens,
  anthropic: (b) => b.max_tokens,
  gemini: (b) => b.generationConfig.maxOutputTokens,
};
const TEMPERATURE: Record<string, (b: Body) => unknown> = {
  ...CAP,
  openai: (b) => b.temperature,
  'openai-compatible': (b) => b.temperature,
  anthropic: (b) => b.temperature,
  gemini: (b) => b.generationConfig.temperature,
};

describe('output caps', () => {
  it('cap every request of every registered vendor, by the agent’s group', () => {
    expect(Object.keys(CAP).sort()).toEqual(registry.names().sort());
    for (const vendor of registry.names()) {
      const [body] = sent(vendor, request());
      expect(CAP[vendor](body), vendor).toBe(1200);
      expect(TEMPERATURE[vendor](body), vendor).toBe(0.4);
    }
  });

  it('give the decider, a balancer, a room answer and an agent of its own their caps; Settings change the groups', () => {
    const cap = (req: AgentRequest, o: Partial<HttpOptions> = {}) => sent('anthropic', req, o)[0].max_tokens;
    const as = (agentId: string, expect: Expectation) => request({ expect }, agentId);
    expect(cap(as('decider', 'DECISION'))).toBe(3000);
    expect(cap(as('devils_advocate', 'PERSPECTIVE_NEGATIVE'))).toBe(900);
    expect(cap(as('devils_advocate', 'ROOM_ANSWER'))).toBe(2500);
    const own = request();
    own.agent = { ...own.agent, max_output_tokens: 650 };
    expect(cap(own)).toBe(650);
    expect(cap(request(), { outputCaps: { specialist: 700 } })).toBe(700);
    // A group the map leaves out, or a value that is no number, gets the fallback rather than no cap.
    expect(cap(request(), { outputCaps: { specialist: 'lots' as unknown as number } })).toBe(1500);
  });
});

describe('model capabilities', () => {
  it('send a reasoning model no temperature and its cap as max_completion_tokens, with room to think', () => {
    for (const model of ['o3-mini', 'o4-mini', 'gpt-5-mini', 'o1']) {
      const [body] = sent('openai', request(), { model });
      expect(body.temperature, model).toBeUndefined();
      expect(body.max_tokens, model).toBeUndefined();
      expect(body.max_completion_tokens, model).toBe(1200 + 8000);
    }
    const [plain] = sent('openai', request(), { model: 'gpt-4o-mini' });
    expect([plain.temperature, plain.max_tokens, plain.max_completion_tokens]).toEqual([0.4, 1200, undefined]);
  });

  it('read the table from Settings: a local model named there goes without a temperature', () => {
    const capabilities = { 'qwen3-': { temperature: false }, 'qwen3-8b': { reasoning_tokens: 500 } };
    const [body] = sent('openai-compatible', request(), { model: 'qwen3-8b', capabilities });
    expect([body.temperature, body.max_tokens]).toEqual([undefined, 1700]);
    const [other] = sent('openai-compatible', request(), { model: 'llama3.1', capabilities });
    expect([other.temperature, other.max_tokens]).toEqual([0.4, 1200]);
  });
});

describe('the shared preamble', () => {
  const preamble = `# Product\n${'The team, its data and the dictionaries. '.repeat(260)}`;

  it('goes first to OpenAI and OpenAI-compatible servers, as a system message of its own', () => {
    for (const vendor of ['openai', 'openai-compatible']) {
      const req = request({ preamble });
      const [body] = sent(vendor, req);
      expect(body.messages, vendor).toEqual([
        { role: 'system', content: preamble },
        { role: 'system', content: req.system },
        { role: 'user', content: req.user },
      ]);
      expect(sent(vendor, request({ preamble: '' }))[0].messages.map((m: Body) => m.role)).toEqual(['system', 'user']);
    }
  });

  it('goes first to Gemini, as the first part of the system instruction', () => {
    const req = request({ preamble });
    expect(sent('gemini', req)[0].systemInstruction.parts).toEqual([{ text: preamble }, { text: req.system }]);
    expect(sent('gemini', request())[0].systemInstruction.parts).toEqual([{ text: req.system }]);
  });

  it('goes first to Anthropic with the cache breakpoint after it, when the prefix is long enough to cache', () => {
    const req = request({ preamble });
    expect(sent('anthropic', req)[0].system).toEqual([
      { type: 'text', text: preamble, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: req.system },
    ]);
    // Claude Haiku 3.5 caches from 2,048 tokens: a short preamble or role prompt gets no breakpoint.
    expect(sent('anthropic', request({ preamble: 'short' }))[0].system).toEqual([
      { type: 'text', text: 'short' },
      { type: 'text', text: req.system },
    ]);
    expect(sent('anthropic', request())[0].system).toEqual([{ type: 'text', text: req.system }]);
    // Without a preamble, a role prompt long enough is cached on its own, as before; Sonnet 4 caches from 1,024.
    const long = request({ system: 'role '.repeat(1200) });
    expect(sent('anthropic', long, { model: 'claude-sonnet-4-5' })[0].system).toEqual([
      { type: 'text', text: long.system, cache_control: { type: 'ephemeral' } },
    ]);
  });

  it("is followed by the phase's task, then the role, with Anthropic breaking the cache after each shared block", () => {
    const task = '# Task\nShared by every call of the phase.';
    const req = request({ preamble, task });
    expect(sent('openai', req)[0].messages.map((m: Body) => m.content)).toEqual([preamble, task, req.system, req.user]);
    expect(sent('gemini', req)[0].systemInstruction.parts).toEqual([
      { text: preamble },
      { text: task },
      { text: req.system },
    ]);
    expect(sent('anthropic', req)[0].system).toEqual([
      { type: 'text', text: preamble, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: task, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: req.system },
    ]);
  });

  it('offers Anthropic the tools of the whole round, in one order, and names its own', () => {
    const round = ['PERSPECTIVE_POSITIVE', 'GOVERNANCE_ETHICS', 'PERSPECTIVE_NEGATIVE'] as const;
    const bodies = round.map((expect) => sent('anthropic', request({ preamble, expect, round: [...round] }))[0]);
    const names = bodies.map((b) => b.tools.map((t: Body) => t.name));
    expect(names[0]).toEqual(['governance_ethics', 'perspective_negative', 'perspective_positive']);
    expect(names[1]).toEqual(names[0]);
    expect(JSON.stringify(bodies[1].tools)).toBe(JSON.stringify(bodies[0].tools));
    expect(bodies.map((b) => b.tool_choice.name)).toEqual([
      'perspective_positive',
      'governance_ethics',
      'perspective_negative',
    ]);
    // Another vendor is sent its own schema only.
    const openai = sent('openai', request({ preamble, expect: 'PERSPECTIVE_POSITIVE', round: [...round] }))[0];
    expect(openai.response_format.json_schema.name).toBe('perspective_positive');
  });

  it('stays first through the repair call', () => {
    const req = request({ preamble });
    const bad = JSON.stringify({ summary: '' });
    const [, openai] = sent('openai', req, {}, [bad]);
    expect(openai.messages.map((m: Body) => m.role)).toEqual(['system', 'system', 'user', 'assistant', 'user']);
    expect(openai.messages[0].content).toBe(preamble);
    expect(openai.max_tokens).toBe(1200);
    const [, claude] = sent('anthropic', req, {}, [bad]);
    expect(claude.system[0]).toEqual({ type: 'text', text: preamble, cache_control: { type: 'ephemeral' } });
    expect(claude.messages.map((m: Body) => m.role)).toEqual(['user', 'assistant', 'user']);
    const [, gemini] = sent('gemini', req, {}, [bad]);
    expect(gemini.systemInstruction.parts[0].text).toBe(preamble);
    expect(gemini.contents.map((c: Body) => c.role)).toEqual(['user', 'model', 'user']);
  });
});
