// Anthropic: the Messages API, the answer forced through one tool whose input_schema is the plain JSON Schema.
import { vendorKeyProperty } from '../../property-keys.js';
import { estimateTokens } from '../../prompts/tokens.js';
import type { JsonSchema } from '../json-schema.js';
import { anthropicUsage } from '../usage.js';
import {
  at,
  defineVendor,
  join,
  readJson,
  repairText,
  systemAndTurn,
  type Parsed,
  type StructuredCall,
  type WireRequest,
} from '../vendors.js';

// A cache breakpoint where a later call reads the prefix it closes, and only there: Anthropic charges a cache write
// at 1.25 × input, so a breakpoint nobody reads costs more than none. A later call reads it when the round holds
// another call (the same tools, preamble and, within a phase, shared data), and the prefix reaches the model's
// minimum. The system prompt is the preamble (instructions only); the shared data, the role and task, and the
// agent's own data follow as the user turn's blocks (see systemAndTurn).
function blocks(call: StructuredCall, tools: unknown[]): { system: unknown[]; user: unknown[] } {
  const { system, turn } = systemAndTurn(call.req);
  const shared = (call.roundSize ?? 1) > 1;
  let prefix = JSON.stringify(tools);
  const mark = (text: string, cacheable: boolean) => {
    prefix += text;
    const cache =
      cacheable && shared && estimateTokens(prefix) >= call.capability.cache_min_tokens
        ? { cache_control: { type: 'ephemeral' } }
        : {};
    return { type: 'text', text, ...cache };
  };
  const sys = system ? [mark(system, true)] : [];
  // The shared data block (the first of the turn when the request has one) closes the phase's common prefix.
  const user = turn.map((text, i) => mark(text, i === 0 && !!call.req.shared));
  return { system: sys, user };
}

function build(call: StructuredCall, key: string, base: string): WireRequest {
  const r = call.req;
  const name = call.schemaName;
  // Tools come first in Anthropic's cached prefix: the round's calls (Phases 3–4 ask five kinds of answer) offer the
  // same tools and each is told which one to use, so they share the prefix instead of writing five caches.
  const own = [{ name, expect: r.expect, schema: call.schema }];
  const tools = (call.round ?? own).map((t) => ({
    name: t.name,
    description: `Submit the ${t.expect} answer`,
    input_schema: t.schema,
  }));
  const { system, user } = blocks(call, tools);
  const messages: unknown[] = [{ role: 'user', content: user }];
  if (call.repair)
    messages.push(
      { role: 'assistant', content: call.repair.previous },
      { role: 'user', content: repairText(call.repair.errors, r.context.lang) },
    );
  return {
    url: join(base, '/messages'),
    method: 'post',
    contentType: 'application/json',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    payload: JSON.stringify({
      model: call.model,
      max_tokens: call.maxTokens,
      ...(call.capability.temperature ? { temperature: r.agent.temperature } : {}),
      ...(system.length ? { system } : {}),
      messages,
      tools,
      tool_choice: { type: 'tool', name },
    }),
  };
}

// { content: [{ type: 'tool_use', input }], stop_reason, usage: { input_tokens, cache_*_input_tokens, output_tokens } }
function parse(body: string): Parsed {
  const read = readJson(body);
  if (!read.ok) return read.parsed;
  const j = read.value;
  // Cached prompt tokens are input too: the budget counts everything the call consumed.
  const usage = anthropicUsage(at(j, 'usage'));
  const stop = at(j, 'stop_reason');
  // A tool input cut at max_tokens may still parse (Anthropic closes the block): it is cut all the same.
  if (stop === 'max_tokens')
    return { ...usage, cut: 'stop_reason max_tokens', error: 'the answer was cut at its output cap' };
  if (stop === 'refusal') return { ...usage, error: 'the model refused (stop_reason refusal)' };
  const content = at(j, 'content');
  const tool = Array.isArray(content) ? content.find((c: unknown) => at(c, 'type') === 'tool_use') : undefined;
  if (!tool) return { ...usage, error: `no tool_use block in the answer (stop_reason ${String(stop)})` };
  return { text: JSON.stringify(at(tool, 'input')), ...usage };
}

// Anthropic's tool input_schema takes JSON Schema as it is: optional fields stay optional.
const plain = (s: JsonSchema): JsonSchema => s;

export const anthropic = defineVendor({
  name: 'anthropic',
  wire: { shapeSchema: plain, build, parse },
  keyProperty: vendorKeyProperty('anthropic'),
  envKey: 'ANTHROPIC_API_KEY',
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  defaultModel: 'claude-haiku-4-5',
  baseUrlSetting: 'provider.base_urls',
  needs: { key: true, baseUrl: false },
  warmsCache: true,
});
