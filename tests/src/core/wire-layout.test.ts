// What reaches each vendor: an output cap on every request, the parameters a model takes, the shared preamble first.
import { describe, expect, it } from 'vitest';
import { defaultAgents } from '../../../src/core/discussion/default-council.js';
import { phaseRequests } from '../../../src/core/engine.js';
import type { AgentRequest, Expectation } from '../../../src/core/provider.js';
import type { HttpOptions } from '../../../src/core/providers/http.js';
import { type Body, sendThrough } from './wire-send.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { capabilityOf, DEFAULT_CAPABILITIES } from '../../../src/core/providers/model-table.js';
import { situation } from './answers.js';
import { newDiscussion, testEnv } from './env.js';

// The first request of a discussion (the analyst's situation report), as another agent or expectation when asked.
function request(over: Partial<AgentRequest> = {}, agentId = 'analyst'): AgentRequest {
  const [r] = phaseRequests(newDiscussion({ status: 'IN_PROGRESS' }), testEnv(), 1);
  // Without a preamble or the phase's task unless a test gives them: each test here sets what it is about.
  return {
    ...r,
    preamble: undefined,
    shared: undefined,
    task: undefined,
    agent: defaultAgents().find((a) => a.agent_id === agentId)!,
    ...over,
  };
}

// The bodies a vendor was sent for one request: the answer, then (when `answers` holds a bad one first) the repair.
function sent(vendor: string, req: AgentRequest, o: Partial<HttpOptions> = {}, answers = ['']): Body[] {
  return sendThrough(
    vendor,
    [req],
    () => {
      const text = answers.shift() || JSON.stringify(situation());
      // One reply every wire format reads: each vendor's parse takes its own field.
      const body = {
        choices: [{ message: { content: text } }],
        content: [{ type: 'tool_use', input: JSON.parse(text) }],
        candidates: [{ content: { parts: [{ text }] } }],
      };
      return { code: 200, headers: {}, body: JSON.stringify(body) };
    },
    o,
  ).bodies;
}

// The first bodies sent for a round of requests made together.
function sentRound(vendor: string, reqs: AgentRequest[], o: Partial<HttpOptions> = {}): Body[] {
  const reply = JSON.stringify({ content: [{ type: 'tool_use', input: situation() }] });
  return sendThrough(vendor, reqs, () => ({ code: 200, headers: {}, body: reply }), o).bodies;
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
  it('cap every request of every registered vendor, by the kind of answer', () => {
    expect(Object.keys(CAP).sort()).toEqual(registry.names().sort());
    for (const vendor of registry.names()) {
      const [body] = sent(vendor, request());
      // Plus the thinking budget of a default model that thinks first (Gemini 2.5 Flash).
      const v = registry.find(vendor)!;
      const thinking = capabilityOf(DEFAULT_CAPABILITIES, vendor, v.defaultModel).reasoning_tokens;
      expect(CAP[vendor](body), vendor).toBe(2400 + thinking);
      expect(TEMPERATURE[vendor](body), vendor).toBe(0.4);
    }
  });

  it('give the decider, a balancer, a room answer and an agent of its own their caps; Settings change them', () => {
    const cap = (req: AgentRequest, o: Partial<HttpOptions> = {}) => sent('anthropic', req, o)[0].max_tokens;
    const as = (agentId: string, expect: Expectation) => request({ expect }, agentId);
    expect(cap(as('decider', 'DECISION'))).toBe(4100);
    expect(cap(as('devils_advocate', 'PERSPECTIVE_NEGATIVE'))).toBe(1900);
    expect(cap(as('devils_advocate', 'ROOM_ANSWER'))).toBe(2500);
    const own = request();
    own.agent = { ...own.agent, max_output_tokens: 650 };
    expect(cap(own)).toBe(650);
    // A Settings map keyed by group applies where it names no kind; one naming the kind wins.
    expect(cap(request(), { outputCaps: { specialist: 700 } })).toBe(700);
    expect(cap(request(), { outputCaps: { specialist: 700, SITUATION_REPORT: 800 } })).toBe(800);
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
      expect(body.max_completion_tokens, model).toBe(2400 + 8000);
    }
    const [plain] = sent('openai', request(), { model: 'gpt-4o-mini' });
    expect([plain.temperature, plain.max_tokens, plain.max_completion_tokens]).toEqual([0.4, 2400, undefined]);
  });

  it('read the table from Settings: a local model named there goes without a temperature', () => {
    const capabilities = { 'qwen3-': { temperature: false }, 'qwen3-8b': { reasoning_tokens: 500 } };
    const [body] = sent('openai-compatible', request(), { model: 'qwen3-8b', capabilities });
    expect([body.temperature, body.max_tokens]).toEqual([undefined, 2900]);
    const [other] = sent('openai-compatible', request(), { model: 'llama3.1', capabilities });
    expect([other.temperature, other.max_tokens]).toEqual([0.4, 2400]);
  });
});

describe('instructions and data', () => {
  const preamble = `# Product\n${'The product, its dictionaries and the scoring. '.repeat(260)}`;
  const shared = `<data name="trigger">\n${'The team, the trigger, the KPI. '.repeat(300)}\n</data>`;
  const task = '# Task\nShared by every call of the phase.';

  it('go to OpenAI as system messages around the shared data: preamble, data, role and task, own data', () => {
    const req = request({ preamble, shared, task });
    const [body] = sent('openai', req);
    expect(body.messages).toEqual([
      { role: 'system', content: preamble },
      { role: 'user', content: shared },
      { role: 'system', content: `${task}\n\n${req.system}` },
      { role: 'user', content: req.user },
    ]);
    // One discussion's calls share a cache key.
    expect(body.prompt_cache_key).toBe(req.context.discussion_id);
    expect(sent('openai', request({ preamble: '' }))[0].messages.map((m: Body) => m.role)).toEqual(['system', 'user']);
  });

  it('go to an OpenAI-compatible server as one system message first and one user message, the JSON shape told', () => {
    const req = request({ preamble, shared, task });
    const [body] = sent('openai-compatible', req);
    expect(body.messages.map((m: Body) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0].content.startsWith(`${preamble}\n\n${task}\n\n${req.system}\n\n# Answer format`)).toBe(
      true,
    );
    expect(body.messages[0].content).toContain(JSON.stringify(body.response_format.json_schema.schema));
    expect(body.messages[1].content).toBe(`${shared}\n\n${req.user}`);
    expect(body.response_format.json_schema.strict).toBe(false);
    expect(body.prompt_cache_key).toBeUndefined();
  });

  it('go to Gemini as the system instruction (the preamble) and the user turn: data, role and task, own data', () => {
    const req = request({ preamble, shared, task });
    const [body] = sent('gemini', req);
    expect(body.systemInstruction.parts).toEqual([{ text: preamble }]);
    expect(body.contents[0].parts).toEqual([
      { text: shared },
      { text: `${task}\n\n${req.system}` },
      { text: req.user },
    ]);
    // Without a preamble the role is the system instruction.
    expect(sent('gemini', request())[0].systemInstruction.parts).toEqual([{ text: req.system }]);
  });

  it('go to Anthropic the same way, with cache breakpoints only where another call of the round reads them', () => {
    const req = request({ preamble, shared, task });
    const alone = sent('anthropic', req)[0];
    // A call alone in its round: nobody reads a cache it would write.
    expect(JSON.stringify(alone)).not.toContain('cache_control');
    expect(alone.system).toEqual([{ type: 'text', text: preamble }]);
    expect(alone.messages[0].content.map((b: Body) => b.text)).toEqual([shared, `${task}\n\n${req.system}`, req.user]);
    // Two calls of one round: after the preamble and after the shared data, once each prefix reaches the minimum.
    const both = sentRound('anthropic', [req, { ...req, key: `${req.key}-2` }], { model: 'claude-sonnet-4-5' });
    expect(both[0].system).toEqual([{ type: 'text', text: preamble, cache_control: { type: 'ephemeral' } }]);
    expect(both[0].messages[0].content.map((b: Body) => !!b.cache_control)).toEqual([true, false, false]);
    // Claude Haiku 4.5 caches from 4,096 tokens: the preamble alone is too short to mark.
    const haiku = sentRound('anthropic', [req, { ...req, key: `${req.key}-2` }], { model: 'claude-haiku-4-5' });
    expect(haiku[0].system[0].cache_control).toBeUndefined();
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

  it('stay in place through the repair call', () => {
    const req = request({ preamble, shared });
    const bad = JSON.stringify({ summary: '' });
    const [, openai] = sent('openai', req, {}, [bad]);
    expect(openai.messages.map((m: Body) => m.role)).toEqual(['system', 'user', 'system', 'user', 'assistant', 'user']);
    expect(openai.messages[0].content).toBe(preamble);
    expect(openai.max_tokens).toBe(2400);
    const [, claude] = sent('anthropic', req, {}, [bad]);
    expect(claude.system[0].text).toBe(preamble);
    expect(claude.messages.map((m: Body) => m.role)).toEqual(['user', 'assistant', 'user']);
    const [, gemini] = sent('gemini', req, {}, [bad]);
    expect(gemini.systemInstruction.parts[0].text).toBe(preamble);
    expect(gemini.contents.map((c: Body) => c.role)).toEqual(['user', 'model', 'user']);
  });
});
