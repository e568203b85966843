// The start dialog's estimate warns, before anything runs, of a model whose tokens would count as $0 toward the
// budget: an openai-compatible model (a gateway, which may be paid) the Settings price table has no entry for.
import { describe, expect, it } from 'vitest';
import { estimateStart } from '../../../../src/app/discussions/start.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { kaigi, setSetting } from '../inproc.js';

const FORM = { target_user_id: 'tanaka', type: 'kpi_decline', priority: 'HIGH' };
const override = (provider: string, model: string) => JSON.stringify({ provider, model });

describe('the start estimate', () => {
  it('names an openai-compatible model with no price, whose tokens count as $0', () => {
    const k = kaigi();
    k.ports.properties.setProperty(PROPERTY_KEYS.providerOverride, override('openai-compatible', 'gateway-model'));
    const e = estimateStart(FORM, k.council());
    expect(e.byModel).toEqual([expect.objectContaining({ model: 'openai-compatible:gateway-model', cost_usd: 0 })]);
    expect(e.unpriced).toEqual(['openai-compatible:gateway-model']);
  });

  it('says nothing once a person prices it in Settings, and prices the estimate with it', () => {
    const k = kaigi();
    k.ports.properties.setProperty(PROPERTY_KEYS.providerOverride, override('openai-compatible', 'gateway-model'));
    setSetting(
      k,
      'provider.prices_per_1k_tokens_usd',
      JSON.stringify({ 'openai-compatible:gateway-model': { input: 0.001, output: 0.002 } }),
    );
    const e = estimateStart(FORM, k.council());
    expect(e.unpriced).toEqual([]);
    expect(e.cost_usd).toBeGreaterThan(0);
  });

  it('says nothing of the rules, nor of a vendor’s model the table charges at its dearest', () => {
    const k = kaigi();
    expect(estimateStart(FORM, k.council()).unpriced).toEqual([]);
    k.ports.properties.setProperty(PROPERTY_KEYS.providerOverride, override('gemini', 'gemini-9-ultra'));
    const e = estimateStart(FORM, k.council());
    expect(e.cost_usd).toBeGreaterThan(0);
    expect(e.unpriced).toEqual([]);
  });
});
