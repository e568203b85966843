// The model table in Settings: capabilities by name or prefix, the documented cache minimums, the default prices,
// the vendors' default models (rendered into docs/providers.md) and the one cost formula.
import { describe, expect, it } from 'vitest';
import { cell, checkGenerated } from '../../docs-block.js';
import {
  capabilityOf,
  costUsd,
  DEFAULT_CAPABILITIES,
  DEFAULT_PRICES,
  modelPrice,
  PRICES_TAKEN,
  pricesOf,
  roundUsd,
  VENDOR_DEFAULTS,
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
        ['anthropic', 'claude-sonnet-4-6'],
        ['anthropic', 'claude-haiku-4-5-20251001'],
        ['anthropic', 'claude-opus-4-5-20251101'],
        ['anthropic', 'claude-opus-4-6'],
        ['gemini', 'gemini-2.5-flash'],
        ['gemini', 'gemini-2.5-pro'],
      ].map(([v, m]) => min(v, m)),
    ).toEqual([1024, 1024, 1024, 2048, 4096, 4096, 4096, 2048, 2048]);
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'openai', 'gpt-5').token_field).toBe('max_completion_tokens');
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'openai', 'gpt-5-mini').temperature).toBe(false);
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'openai', 'gpt-4.1-mini')).toEqual({
      temperature: true,
      reasoning_tokens: 0,
      cache_min_tokens: 1024,
    });
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'gemini', 'gemini-2.5-flash').reasoning_tokens).toBe(8000);
    // Flash-Lite starts like Flash but does not think unless asked to.
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'gemini', 'gemini-2.5-flash-lite').reasoning_tokens).toBe(0);
    expect(capabilityOf(DEFAULT_CAPABILITIES, 'gemini', 'gemini-2.0-flash').reasoning_tokens).toBe(0);
  });

  // A row applies to a model its key starts (capabilityOf); every priced model has one, and every row is for a model
  // the table prices, so a row for a model no vendor serves any more goes with its price.
  it('every model in the price table has a price and a capability row', () => {
    const rowsOf = (model: string) => {
      const name = model.slice(model.indexOf(':') + 1);
      return Object.keys(DEFAULT_CAPABILITIES).filter((k) => name.indexOf(k) === 0);
    };
    const priced = Object.keys(DEFAULT_PRICES);
    expect(priced.filter((m) => rowsOf(m).length === 0)).toEqual([]);
    const unpricedRows = Object.keys(DEFAULT_CAPABILITIES).filter((k) => !priced.some((m) => rowsOf(m).includes(k)));
    expect(unpricedRows).toEqual([]);
    for (const m of priced)
      expect(modelPrice(DEFAULT_PRICES, m), m).toEqual({ price: DEFAULT_PRICES[m], stand_in: null });
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
    expect(prices['anthropic:claude-haiku-4-5'].input).toBe(0.001);
  });

  it('take a person’s price for an openai-compatible model, which otherwise has none', () => {
    const model = 'openai-compatible:meta-llama/llama-3.3-70b';
    expect(modelPrice(pricesOf(new Settings({})), model)).toBeNull();
    const priced = new Settings({
      'provider.prices_per_1k_tokens_usd': JSON.stringify({ [model]: { input: 0.0006, output: 0.0009 } }),
    });
    expect(modelPrice(pricesOf(priced), model)).toEqual({ price: { input: 0.0006, output: 0.0009 }, stand_in: null });
    // The defaults are still there beside it.
    expect(modelPrice(pricesOf(priced), 'openai:gpt-4.1-mini')?.stand_in).toBeNull();
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
    expect(modelPrice(prices, 'anthropic:claude-haiku-4-5-latest')).toEqual({
      price: prices['anthropic:claude-haiku-4-5'],
      stand_in: null,
    });
    // Sonnet and Opus 4.6 at their own prices, not as the dearest Claude (Opus 4.1) stands in.
    expect(modelPrice(prices, 'anthropic:claude-sonnet-4-6')).toEqual({
      price: { input: 0.003, output: 0.015, cached_input: 0.0003, cache_write: 0.00375 },
      stand_in: null,
    });
    expect(modelPrice(prices, 'anthropic:claude-opus-4-6')).toEqual({
      price: { input: 0.005, output: 0.025, cached_input: 0.0005, cache_write: 0.00625 },
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
    expect(costUsd(null, 2000, 500, { cachedIn: 1000, cacheWriteIn: 500, thinkingOut: 200 })).toBe(0);
  });

  it('prices cache reads at cached_input and cache writes at cache_write, the rest of the prompt at input', () => {
    const sonnet = DEFAULT_PRICES['anthropic:claude-sonnet-4-6'];
    // 10,000 prompt tokens: 6,000 read from the cache, 3,000 written to it, 1,000 plain; 500 out.
    const cost = costUsd(sonnet, 10_000, 500, { cachedIn: 6000, cacheWriteIn: 3000 });
    expect(cost).toBeCloseTo((6000 * 0.3 + 3000 * 3.75 + 1000 * 3 + 500 * 15) / 1e6, 12);
    // Without the parts every prompt token costs the input price.
    expect(costUsd(sonnet, 10_000, 500)).toBeCloseTo((10_000 * 3 + 500 * 15) / 1e6, 12);
    // A price without cached_input or cache_write charges those tokens at input.
    const plain = { input: 0.001, output: 0.002 };
    expect(costUsd(plain, 1000, 0, { cachedIn: 400, cacheWriteIn: 300 })).toBeCloseTo(costUsd(plain, 1000, 0), 12);
    // A person's table entry with a cached price that is not a number: the input price.
    const odd = { input: 0.001, output: 0.002, cached_input: 'cheap' } as never;
    expect(costUsd(odd, 1000, 0, { cachedIn: 1000 })).toBeCloseTo(0.001, 12);
  });

  it('prices thinking as output, inside the output total, and never a part as free', () => {
    const flash = DEFAULT_PRICES['gemini:gemini-2.5-flash'];
    // 1,200 output tokens of which 800 were thinking: 1,200 at the output price, not 2,000.
    expect(costUsd(flash, 1000, 1200, { thinkingOut: 800 })).toBeCloseTo((1000 * 0.3 + 1200 * 2.5) / 1e6, 12);
    expect(costUsd(flash, 1000, 1200, { thinkingOut: 800 })).toBe(costUsd(flash, 1000, 1200));
    // Totals smaller than their parts are taken as the parts.
    expect(costUsd(flash, 0, 0, { cachedIn: 1000, thinkingOut: 100 })).toBeCloseTo((1000 * 0.03 + 100 * 2.5) / 1e6, 12);
    // Parts that are not counts count nothing.
    expect(costUsd(flash, 1000, 100, { cachedIn: -5, cacheWriteIn: Number.NaN })).toBe(costUsd(flash, 1000, 100));
  });

  it('takes an answer as it is: an AgentResponse carries its parts', () => {
    const res = { tokensIn: 2000, tokensOut: 100, cachedIn: 1500, key: 'k', ok: true, model: 'openai:gpt-4.1-mini' };
    const mini = DEFAULT_PRICES['openai:gpt-4.1-mini'];
    expect(costUsd(mini, res.tokensIn, res.tokensOut, res)).toBeCloseTo((500 * 0.4 + 1500 * 0.1 + 100 * 1.6) / 1e6, 12);
  });

  it('rounds a cost to the millionth of a dollar, as records keep it', () => {
    expect(roundUsd(0.0000004)).toBe(0);
    expect(roundUsd(0.0000015)).toBe(0.000002);
    expect(roundUsd(costUsd({ input: 0.00015, output: 0.0006 }, 123, 45))).toBe(0.000045);
  });
});

// The table docs/providers.md shows: KAIGI_UPDATE_DOCS=1 npx vitest run tests/src/core/model-table.test.ts rewrites it.
const BEGIN = '<!-- defaults: generated from src/core/providers/model-table.ts -->';
const END = '<!-- end of defaults -->';

// Per million tokens, as the vendors' pages give them: cents at least ($0.40, $0.03, $1.25).
function perM(p: number | undefined): string {
  if (p === undefined) return '–';
  const s = String(Number((p * 1000).toPrecision(6)));
  const decimals = s.indexOf('.') < 0 ? 0 : s.length - s.indexOf('.') - 1;
  return `$${decimals >= 2 ? s : Number(s).toFixed(2)}`;
}

function defaultsTable(): string {
  const rows = Object.keys(VENDOR_DEFAULTS).map((vendor) => {
    const d = VENDOR_DEFAULTS[vendor];
    const p = DEFAULT_PRICES[`${vendor}:${d.model}`];
    const prices = [p.input, p.output, p.cached_input, p.cache_write].map(perM).join(' / ');
    return `| ${vendor} | \`${d.model}\` | ${prices} | ${cell(d.why)} | [${d.taken}](${d.pricing}) |`;
  });
  return [
    BEGIN,
    '| vendor | default model | USD per 1M tokens: input / output / cached input / cache write | why | price taken |',
    '|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

describe('the vendors’ default models', () => {
  it('are each vendor module’s default, priced, with where and when the price was read', () => {
    const billing = registry.all.filter((v) => v.defaultBaseUrl !== '');
    expect(Object.keys(VENDOR_DEFAULTS).sort()).toEqual(billing.map((v) => v.name).sort());
    for (const v of billing) {
      const d = VENDOR_DEFAULTS[v.name];
      expect(d.model, v.name).toBe(v.defaultModel);
      expect(DEFAULT_PRICES[`${v.name}:${d.model}`], v.name).toBeDefined();
      expect(d.pricing, v.name).toMatch(/^https:\/\/[^\s]+$/);
      expect(PRICES_TAKEN).toBe(`as published, taken ${d.taken}`);
    }
    // Retired or deprecated defaults are gone.
    expect(billing.map((v) => v.defaultModel)).not.toContain('claude-3-5-haiku-latest');
    expect(billing.map((v) => v.defaultModel)).not.toContain('gemini-2.0-flash');
  });

  it('are shown in docs/providers.md as the table says', () => {
    checkGenerated('docs/providers.md', BEGIN, END, defaultsTable());
  });
});
