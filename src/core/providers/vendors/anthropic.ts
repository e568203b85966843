// Anthropic: the Messages API, the answer forced through one tool whose input_schema is the plain JSON Schema.
import { vendorKeyProperty } from '../../property-keys.js';
import { estimateTokens } from '../../prompts/tokens.js';
import type { JsonSchema } from '../json-schema.js';
import {
  at,
  defineVendor,
  join,
  num,
  readJson,
  repairText,
  systemTexts,
  type Parsed,
  type StructuredCall,
  type WireRequest,
} from '../vendors.js';

// The system blocks: the shared preamble, the phase's task, then the role prompt. A cache breakpoint goes after each
// block but the last once the prefix (the tools and the blocks so far) reaches the model's minimum: the calls of a
// round read the preamble from the cache even when their tasks differ (Phases 3–4), and those with the same task
// (the eight specialists) read the task too. With a single block, it is the one that may be cached.
function systemBlocks(call: StructuredCall, tools: unknown[]): unknown[] {
  const texts = systemTexts(call.req);
  let prefix = JSON.stringify(tools);
  return texts.map((text, i) => {
    prefix += text;
    const last = i === texts.length - 1 && texts.length > 1;
    const cache =
      !last && estimateTokens(prefix) >= call.capability.cache_min_tokens
        ? { cache_control: { type: 'ephemeral' } }
        : {};
    return { type: 'text', text, ...cache };
  });
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
  const messages: unknown[] = [{ role: 'user', content: r.user }];
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
      system: systemBlocks(call, tools),
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
  const u = at(j, 'usage');
  // Cached prompt tokens are input too: the budget counts everything the call consumed.
  const tokensIn =
    num(at(u, 'input_tokens')) + num(at(u, 'cache_creation_input_tokens')) + num(at(u, 'cache_read_input_tokens'));
  const tokensOut = num(at(u, 'output_tokens'));
  const content = at(j, 'content');
  const tool = Array.isArray(content) ? content.find((c: unknown) => at(c, 'type') === 'tool_use') : undefined;
  if (!tool)
    return { tokensIn, tokensOut, error: `no tool_use block in the answer (stop_reason ${at(j, 'stop_reason')})` };
  return { text: JSON.stringify(at(tool, 'input')), tokensIn, tokensOut };
}

// Anthropic's tool input_schema takes JSON Schema as it is: optional fields stay optional.
const plain = (s: JsonSchema): JsonSchema => s;

export const anthropic = defineVendor({
  name: 'anthropic',
  wire: { shapeSchema: plain, build, parse },
  keyProperty: vendorKeyProperty('anthropic'),
  envKey: 'ANTHROPIC_API_KEY',
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  defaultModel: 'claude-3-5-haiku-latest',
  baseUrlSetting: 'provider.base_urls',
  needs: { key: true, baseUrl: false },
});
