// Anthropic: the Messages API, the answer forced through one tool whose input_schema is the plain JSON Schema.
import { vendorKeyProperty } from '../../property-keys.js';
import { estimateTokens } from '../../tokens.js';
import type { JsonSchema } from '../schema.js';
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

// The system blocks: the shared preamble, then the role prompt. The cache breakpoint goes after the preamble (or on the
// role prompt when there is none), so every call of a discussion reads the preamble from the cache; the cached prefix
// is the tools and the system blocks up to the breakpoint, and one shorter than the model's minimum caches nothing,
// so it gets no breakpoint.
function systemBlocks(call: StructuredCall, tools: unknown[]): unknown[] {
  const r = call.req;
  const texts = systemTexts(r);
  const head = estimateTokens(JSON.stringify(tools) + (texts[0] ?? ''));
  const cache = head >= call.capability.cache_min_tokens ? { cache_control: { type: 'ephemeral' } } : {};
  return texts.map((text, i) => ({ type: 'text', text, ...(i === 0 ? cache : {}) }));
}

function build(call: StructuredCall, key: string, base: string): WireRequest {
  const r = call.req;
  const name = call.schemaName;
  const tools = [{ name, description: `Submit the ${r.expect} answer`, input_schema: call.schema }];
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
