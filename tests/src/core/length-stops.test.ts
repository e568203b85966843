// An answer cut at its output cap, as each vendor says it: asked again once with twice the cap and a line asking for
// a shorter answer; cut twice, it fails with the vendor's own reason, never repaired at the cap that cut it.
import { describe, expect, it } from 'vitest';
import { phaseRequests } from '../../../src/core/engine.js';
import type { AgentRequest, AgentResponse } from '../../../src/core/provider.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { briefText } from '../../../src/core/providers/vendors.js';
import { situation } from './answers.js';
import { newDiscussion, testEnv } from './env.js';
import { type Body, sendThrough } from './wire-send.js';

const whole = JSON.stringify(situation());
const half = whole.slice(0, 40);

// Each vendor's answer: cut at the cap (its own stop reason) or whole.
const REPLY: Record<string, (cut: boolean) => Body> = {
  openai: (cut) => ({
    choices: [{ message: { content: cut ? half : whole }, finish_reason: cut ? 'length' : 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: cut ? 2400 : 300 },
  }),
  anthropic: (cut) => ({
    content: [{ type: 'tool_use', input: cut ? { summary: 'cut' } : situation() }],
    stop_reason: cut ? 'max_tokens' : 'tool_use',
    usage: { input_tokens: 100, output_tokens: cut ? 2400 : 300 },
  }),
  gemini: (cut) => ({
    candidates: [{ content: { parts: [{ text: cut ? half : whole }] }, finishReason: cut ? 'MAX_TOKENS' : 'STOP' }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: cut ? 2400 : 300 },
  }),
};
REPLY['openai-compatible'] = REPLY.openai;

const CAP: Record<string, (b: Body) => number> = {
  openai: (b) => b.max_tokens,
  'openai-compatible': (b) => b.max_tokens,
  anthropic: (b) => b.max_tokens,
  gemini: (b) => b.generationConfig.maxOutputTokens,
};

const REASON: Record<string, string> = {
  openai: 'finish_reason length',
  'openai-compatible': 'finish_reason length',
  anthropic: 'stop_reason max_tokens',
  gemini: 'finishReason MAX_TOKENS',
};

function run(vendor: string, cuts: number): { bodies: Body[]; res: AgentResponse } {
  const v = registry.find(vendor)!;
  // A model that does not think first, so the cap is the answer's own.
  const model = vendor === 'gemini' ? 'gemini-2.0-flash' : v.defaultModel;
  const [req]: AgentRequest[] = phaseRequests(newDiscussion({ status: 'IN_PROGRESS' }), testEnv(), 1);
  const { bodies, responses } = sendThrough(
    vendor,
    [req],
    (_, n) => ({ code: 200, headers: {}, body: JSON.stringify(REPLY[vendor](n <= cuts)) }),
    { model, maxAttempts: 3, capabilities: { [model]: { reasoning_tokens: 0 } } },
  );
  return { bodies, res: responses[0] };
}

describe('an answer cut at its cap', () => {
  it('covers every registered vendor', () => {
    expect(Object.keys(REPLY).sort()).toEqual(registry.names().sort());
  });

  for (const vendor of registry.names()) {
    it(`is asked again of ${vendor} with twice the cap and the brevity line, and counted`, () => {
      const { bodies, res } = run(vendor, 1);
      expect(bodies).toHaveLength(2);
      expect(CAP[vendor](bodies[1])).toBe(2 * CAP[vendor](bodies[0]));
      expect(JSON.stringify(bodies[0])).not.toContain(JSON.stringify(briefText('en')).slice(1, -1));
      expect(JSON.stringify(bodies[1])).toContain(JSON.stringify(briefText('en')).slice(1, -1));
      expect(res.ok).toBe(true);
      // Both calls are counted, and the transcript says why the second was made.
      expect(res.attempts).toBe(2);
      expect(res.tokensOut).toBe(2700);
      expect(res.note).toMatch(/asked again with a cap of \d+ tokens: the first answer was cut/);
    });

    it(`fails on ${vendor} when cut twice, naming the vendor's reason, with no repair call`, () => {
      const { bodies, res } = run(vendor, 2);
      expect(bodies).toHaveLength(2);
      expect(res.ok).toBe(false);
      expect(res.error?.code).toBe('cut');
      expect(res.error?.message).toContain(REASON[vendor]);
    });
  }
});
