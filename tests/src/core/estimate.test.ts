// The estimate before a discussion starts: close to what the rule-based council spends, with every input bounded.
import { describe, expect, it } from 'vitest';
import { demoTrigger } from '../../../src/core/demo-data.js';
import { phaseRequests } from '../../../src/core/engine.js';
import { estimateDiscussion } from '../../../src/core/engine/estimate.js';
import { totalTokens } from '../../../src/core/engine/plan.js';
import { estimateTokens } from '../../../src/core/prompts/tokens.js';
import { newDiscussion, runToRest, testEnv } from './env.js';

function memo(n: number): string {
  const unit = '田中さんの営業メモ：顧客訪問の記録と所感。';
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

function withMemo(n: number) {
  const { priority, ...trigger } = demoTrigger();
  return newDiscussion({ priority, trigger: { ...trigger, context: { ...trigger.context, memo: memo(n) } } });
}

describe('estimateDiscussion', () => {
  it('forecasts the demo discussion within 15 % of what the rule-based council spends, in either language', () => {
    for (const lang of ['ja', 'en'] as const) {
      const env = testEnv({ lang });
      const e = estimateDiscussion(newDiscussion(), env);
      const spent = totalTokens(runToRest(newDiscussion(), env).d);
      expect(e.prompts).toBe(15);
      expect(e.over).toBe(false);
      expect(Math.abs(e.tokens - spent) / spent).toBeLessThan(0.15);
    }
  });

  it('counts a 120,000-character memo bounded: the forecast and the spend stay near the limit, not at millions', () => {
    const env = testEnv({ lang: 'ja' });
    const plain = estimateDiscussion(newDiscussion(), env);
    const e = estimateDiscussion(withMemo(120_000), env);
    const limit = env.settings.number('limits.input_tokens');
    // The memo adds at most the input limit to each prompt's data.
    expect(e.data - plain.data).toBeGreaterThan(limit * 0.8);
    expect(e.data - plain.data).toBeLessThanOrEqual(limit);
    const spent = totalTokens(runToRest(withMemo(120_000), env).d);
    expect(spent).toBeLessThanOrEqual(60_000);
    expect(Math.abs(e.tokens - spent) / spent).toBeLessThan(0.15);
  });

  it('is told by the limit: a discussion whose forecast passes limits.max_tokens_per_discussion says over', () => {
    const env = testEnv({ lang: 'ja', settings: { 'limits.max_tokens_per_discussion': 30_000 } });
    expect(estimateDiscussion(newDiscussion(), env).over).toBe(false);
    const e = estimateDiscussion(withMemo(120_000), env);
    expect(e).toMatchObject({ limit: 30_000, over: true });
  });

  it('shows every prompt the memo bounded: head, pointer and tail, under the limit of each input', () => {
    const env = testEnv({ lang: 'ja' });
    const run = runToRest(withMemo(120_000), env);
    for (const phase of [1, 2, 3, 4, 5])
      for (const r of phaseRequests(run.d, env, phase)) {
        const text = r.shared ?? '';
        expect(text).toMatch(
          /\[… \d+ characters omitted; full value: Discussion Log DISC-2026-01-15-001 trigger_context_json → context\.memo, sha256 [0-9a-f]{64}\]/,
        );
        expect(estimateTokens(text)).toBeLessThan(estimateTokens(text.replace(/"memo":"[^"]*"/, '')) + 1000);
      }
  });
});
