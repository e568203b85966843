// The model table in Settings: capabilities by name or prefix, the documented cache minimums, the default prices.
import { describe, expect, it } from 'vitest';
import {
  capabilityOf,
  costUsd,
  DEFAULT_CAPABILITIES,
  DEFAULT_PRICES,
  modelPrice,
  PRICES_TAKEN,
  pricesOf,
  roundUsd,
} from '../../../src/core/providers/model-table.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { Settings } from '../../../src/core/settings.js';

describe('capabilityOf', () => {
  it('gives a model not listed a temperature, its vendor’s cap field, no thinking and the smallest cache minimum', () => {
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'openai-compatible', 'llama3.1')).toEqual({
      temperature: true,
      reasoning_tokens: 0,
      cache_min_tokens: 1024,
    });
  });

  it('applies every matching key shortest first, by name, vendor:model or after a gateway’s prefix', () => {
    const table = {
      o3: { temperature: false, token_field: 'max_completion_tokens' as const, reasoning_tokens: 100 },
      'o3-mini': { reasoning_tokens: 50 },
      'openai-compatible:': { cache_min_tokens: 0 },
      '': { temperature: false },
    };
    expect(capabilityOf(table, 'openai', 'o3-mini-2025')).toEqual({
      temperature: false,
      token_field: 'max_completion_tokens',
      reasoning_tokens: 50,
      cache_min_tokens: 1024,
    });
    expect(capabilityOf(table, 'openai-compatible', 'openai/o3-mini')).toMatchObject({
      temperature: false,
      reasoning_tokens: 50,
      cache_min_tokens: 0,
    });
    // An empty key matches nothing, and a field of the wrong kind (the table is a person's JSON) is passed over.
    expect(capabilityOf(table, 'openai', 'gpt-4o').temperature).toBe(true);
    const odd = { m: { temperature: 'no', token_field: 'tokens', reasoning_tokens: -5, cache_min_tokens: '9' } };
    expect(capabilityOf(odd as never, 'openai', 'm')).toEqual(capabilityOf({}, 'openai', 'm'));
  });

  it('holds the documented cache minimums and which models think first', () => {
    const min = (vendor: string, model: string) => capabilityOf(DEFAULT_CAPABILITIES, vendor, model).cache_min_tokens;
    expect(
      [
        ['openai', 'gpt-4o-mini'],
        ['anthropic', 'claude-sonnet-4-5-20250929'],
        ['anthropic', 'claude-opus-4-1-20250805'],
        ['anthropic', 'claude-3-5-haiku-latest'],
        ['anthropic', 'claude-3-haiku-20240307'],
        ['anthropic', 'claude-haiku-4-5-20251001'],
        ['anthropic', 'claude-opus-4-5-20251101'],
        ['gemini', 'gemini-2.5-flash'],
        ['gemini', 'gemini-2.5-pro'],
      ].map(([v, m]) => min(v, m)),
    ).toEqual([1024, 1024, 1024, 2048, 2048, 4096, 4096, 2048, 2048]);
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'openai', 'gpt-5').token_field).toBe('max_completion_tokens');
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'gemini', 'gemini-2.5-flash').reasoning_tokens).toBe(8000);
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'gemini', 'gemini-2.0-flash').reasoning_tokens).toBe(0);
  });
});

describe('prices', () => {
  it('price the default model of every vendor that bills, cached input included', () => {
    const prices = pricesOf(new Settings({}));
    for (const v of registry.all.filter((x) => x.needs.key)) {
      const p = prices[`${v.name}:${v.defaultModel}`];
      expect(p, v.name).toBeDefined();
      expect(p.input > 0 && p.output > p.input && p.cached_input! < p.input, v.name).toBe(true);
    }
  });

  it('fill a workbook’s older table with the defaults it lacks, its own entries first', () => {
    const old = new Settings({
      'provider.prices_per_1k_tokens_usd': '{"openai:gpt-4o-mini":{"input":0.1,"output":0.2}}',
    });
    const prices = pricesOf(old);
    expect(prices['openai:gpt-4o-mini']).toEqual({ input: 0.1, output: 0.2 });
    expect(prices['anthropic:claude-3-5-haiku-latest'].input).toBe(0.0008);
  });

  it('cover every default model of each vendor with an endpoint of its own, with the date they were taken', () => {
    const s = new Settings({});
    // A vendor with no endpoint of its own (openai-compatible: a gateway or a local server) has no list price.
    const priced = registry.all.filter((v) => v.defaultBaseUrl !== '');
    expect(priced.length).toBeGreaterThan(2);
    for (const v of priced) {
      const vendor = v.name;
      expect(DEFAULT_PRICES[`${vendor}:${v.defaultModel}`], vendor).toBeDefined();
      expect(Object.keys(DEFAULT_PRICES).filter((k) => k.startsWith(`${vendor}:`)).length).toBeGreaterThan(2);
    }
    expect(PRICES_TAKEN).toBe('as published, taken 2026-11');
    expect(s.raw('provider.prices_taken')).toBe(PRICES_TAKEN);
  });

  it('price a model by its entry, a dated release of one, else the dearest model of its vendor, saying so', () => {
    const prices = pricesOf(new Settings({}));
    expect(modelPrice(prices, 'anthropic:claude-3-5-haiku-latest')).toEqual({
      price: prices['anthropic:claude-3-5-haiku-latest'],
      stand_in: null,
    });
    expect(modelPrice(prices, 'anthropic:claude-sonnet-4-5-20250929')?.price.output).toBe(0.015);
    expect(modelPrice(prices, 'openai:gpt-4o-2024-08-06')?.price.input).toBe(0.0025);
    // A name that only starts like a priced model is not that model: gpt-4o-audio is priced as the dearest.
    expect(modelPrice(prices, 'openai:gpt-4o-audio-preview')).toEqual({
      price: prices['openai:o1'],
      stand_in: 'openai:o1',
    });
    expect(modelPrice(prices, 'anthropic:claude-opus-9')?.stand_in).toBe('anthropic:claude-opus-4-1');
    expect(modelPrice(prices, 'gemini:gemini-3-pro-preview')?.stand_in).toBe('gemini:gemini-2.5-pro');
    // A vendor the table has no entry for, and the rules, cost nothing.
    expect(modelPrice(prices, 'openai-compatible:llama3.1')).toBeNull();
    expect(modelPrice(prices, 'rules')).toBeNull();
    // A person's entry that is not a price never stands in.
    const odd = { 'openai:x': { input: 'a lot' }, 'openai:y': { input: 0.001, output: 0.002 } } as never;
    expect(modelPrice(odd, 'openai:z')?.stand_in).toBe('openai:y');
  });
});

describe('costUsd', () => {
  it('prices prompt and output tokens per 1,000 at their own rates, and no price at 0', () => {
    const price = { input: 0.003, output: 0.015 };
    expect(costUsd(price, 2000, 500)).toBeCloseTo(0.006 + 0.0075, 12);
    expect(costUsd(price, 0, 1000)).toBeCloseTo(0.015, 12);
    expect(costUsd(null, 2000, 500)).toBe(0);
    expect(costUsd(undefined, 2000, 500)).toBe(0);
  });

  it('rounds a cost to the millionth of a dollar, as records keep it', () => {
    expect(roundUsd(0.0000004)).toBe(0);
    expect(roundUsd(0.0000015)).toBe(0.000002);
    expect(roundUsd(costUsd({ input: 0.00015, output: 0.0006 }, 123, 45))).toBe(0.000045);
  });
});
