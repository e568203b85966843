// The daily cost cap with Anthropic and Gemini agents over real HTTP against the local model server: their default
// models are priced, so their answers cost money and the cap trips; a model with no price is charged at its vendor's
// dearest and the Inbox says so once; an openai-compatible model (a paid gateway) costs what a person priced it at.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { DEFAULT_PRICES } from '../../../src/core/providers/model-table.js';
import { council, messages, setAgent, setSetting, settle, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { localModelServer } from '../../model-server-hooks.js';

const KEY = 'placeholder-cred-cost-cap';
const models = localModelServer();

// Every agent on Anthropic's or Gemini's model by turns (the Agents tab's model column), both through the server.
async function mixedTeam(rt: Runtime, team: string[]): Promise<void> {
  rt.scriptProperties.set({ KAIGI_KEY_ANTHROPIC: KEY, KAIGI_KEY_GEMINI: KEY });
  models.allow(rt);
  const base = models.base();
  await setSetting(rt, 'provider.base_urls', JSON.stringify({ anthropic: `${base}/v1`, gemini: `${base}/v1beta` }));
  const ids = records(rt, 'agents').map((r) => String(r.agent_id));
  for (let i = 0; i < ids.length; i++) await setAgent(rt, ids[i], 'model', team[i % team.length]);
}

const inbox = (rt: Runtime, start: string) => records(rt, 'inbox').filter((r) => String(r.title).startsWith(start));

describe('the daily cost cap', () => {
  it('trips with Anthropic and Gemini agents at their default models’ prices, and tells a person once', async () => {
    const rt = await council();
    await mixedTeam(rt, ['anthropic:claude-haiku-4-5', 'gemini:gemini-2.5-flash']);
    // A budget of tokens no discussion reaches: only the cost can trip.
    await setSetting(rt, 'limits.daily_token_budget', '100000000');
    await setSetting(rt, 'limits.daily_cost_budget_usd', '0.002');
    await start(rt);
    await settle(rt);
    const ms = messages(rt);
    const paid = ms.filter((m) => m.metadata.model_used !== 'rules:default' && m.metadata.tokens_consumed > 0);
    for (const vendor of ['anthropic:', 'gemini:']) {
      const own = paid.filter((m) => String(m.metadata.model_used).startsWith(vendor));
      expect(own.length, vendor).toBeGreaterThan(0);
      for (const m of own) expect(m.metadata.cost_usd, vendor).toBeGreaterThan(0);
    }
    // Checked before each phase: the phases that ran on the models spent past the cap, every later one was the rules'.
    const spent = paid.reduce((a, m) => a + m.metadata.cost_usd, 0);
    expect(spent).toBeGreaterThanOrEqual(0.002);
    const lastPaid = Math.max(...paid.map((m) => m.phase));
    const late = ms.filter((m) => m.phase > lastPaid);
    expect(late.length).toBeGreaterThan(0);
    for (const m of late) expect([m.metadata.model_used, m.metadata.fallback_level]).toEqual(['rules:default', 4]);
    expect(inbox(rt, 'Daily model budget spent')).toHaveLength(1);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });

  it('charges a model with no price at its vendor’s dearest model, and the Inbox says so once', async () => {
    const rt = await council();
    const unpriced = 'gemini:gemini-9-ultra';
    expect(DEFAULT_PRICES[unpriced]).toBeUndefined();
    await mixedTeam(rt, [unpriced, 'anthropic:claude-haiku-4-5']);
    await start(rt);
    await settle(rt);
    const dearest = DEFAULT_PRICES['gemini:gemini-2.5-pro'];
    const own = messages(rt).filter((m) => m.metadata.model_used === unpriced && m.metadata.tokens_consumed > 0);
    expect(own.length).toBeGreaterThan(0);
    // Every token costs between the stand-in's input and output price (rounded to a millionth of a dollar).
    for (const m of own) {
      const t = m.metadata.tokens_consumed / 1000;
      expect(m.metadata.cost_usd).toBeGreaterThanOrEqual(t * dearest.input - 1e-6);
      expect(m.metadata.cost_usd).toBeLessThanOrEqual(t * dearest.output + 1e-6);
    }
    const told = inbox(rt, `No price for ${unpriced}`);
    expect(told).toHaveLength(1);
    expect(String(told[0].title)).toContain('gemini:gemini-2.5-pro');
    expect(dearest.output).toBe(
      Math.max(
        ...Object.entries(DEFAULT_PRICES)
          .filter(([k]) => k.startsWith('gemini:'))
          .map(([, p]) => p.output),
      ),
    );
    // A second discussion charges it again and says nothing more.
    await start(rt);
    await settle(rt);
    expect(inbox(rt, `No price for ${unpriced}`)).toHaveLength(1);
    expect(inbox(rt, 'No price for anthropic')).toHaveLength(0);
  });

  it('charges an openai-compatible model at the price a person set for it, and past the cost budget falls back', async () => {
    const rt = await council();
    rt.scriptProperties.set({
      KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
        provider: 'openai-compatible',
        model: 'any',
        base_url: `${models.base()}/v1`,
      }),
    });
    models.allow(rt);
    // A paid gateway: 1 cent per 1,000 tokens either way, so $0.03 is the 3,000 tokens of the daily token budget's test
    // (tests/src/app/providers.test.ts): phase 1 spends less, phase 2 passes it.
    await setSetting(
      rt,
      'provider.prices_per_1k_tokens_usd',
      JSON.stringify({ 'openai-compatible:any': { input: 0.01, output: 0.01 } }),
    );
    await setSetting(rt, 'limits.daily_token_budget', '100000000');
    await setSetting(rt, 'limits.daily_cost_budget_usd', '0.03');
    await start(rt);
    await settle(rt);
    const ms = messages(rt);
    const paid = ms.filter((m) => m.metadata.model_used === 'openai-compatible:any');
    expect(paid.length).toBeGreaterThan(0);
    for (const m of paid) expect(m.metadata.cost_usd).toBeCloseTo(m.metadata.tokens_consumed / 100_000, 6);
    const cost = (phase: number) =>
      ms.filter((m) => m.phase <= phase).reduce((a, m) => a + (m.metadata.cost_usd ?? 0), 0);
    expect(cost(1)).toBeLessThan(0.03);
    expect(cost(2)).toBeGreaterThanOrEqual(0.03);
    expect(ms.map((m) => [m.phase, m.metadata.model_used])).toEqual(
      ms.map((m) => [m.phase, m.phase <= 2 ? 'openai-compatible:any' : 'rules:default']),
    );
    expect(inbox(rt, 'Daily model budget spent')).toHaveLength(1);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });
});
