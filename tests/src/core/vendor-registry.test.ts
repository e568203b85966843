// The vendor registry: one list from which keys, env keys and Settings defaults derive; a fifth vendor is one module.
import { describe, expect, it } from 'vitest';
import { phaseRequests } from '../../../src/core/engine.js';
import { vendorKeyProperty } from '../../../src/core/property-keys.js';
import { HttpProvider, type HttpPort, type HttpResult } from '../../../src/core/providers/http.js';
import type { JsonSchema } from '../../../src/core/providers/json-schema.js';
import { registry, vendorRegistry } from '../../../src/core/providers/vendor-registry.js';
import {
  defineVendor,
  join,
  missingFor,
  num,
  repairText,
  settingsBaseUrl,
  type VendorModule,
  type WireRequest,
} from '../../../src/core/providers/vendors.js';
import { defaultSetting, Settings } from '../../../src/core/settings.js';
import { situation } from './answers.js';
import { newDiscussion, testEnv } from './env.js';

// A made-up vendor with a wire format of its own: nothing outside this object knows about it.
const echo = defineVendor({
  name: 'echo',
  wire: {
    // Its dialect: a wrapper the real vendors never produce, so the test sees the module's shaping on the wire.
    shapeSchema: (s: JsonSchema): JsonSchema => ({ echoSchema: s }),
    build: (call, key, base): WireRequest => ({
      url: join(base, `/ask/${call.model}`),
      method: 'post',
      contentType: 'application/json',
      headers: { 'x-echo-key': key },
      payload: JSON.stringify({
        name: call.schemaName,
        schema: call.schema,
        system: call.req.system,
        turns: call.repair
          ? [call.req.user, call.repair.previous, repairText(call.repair.errors, 'en')]
          : [call.req.user],
      }),
    }),
    parse: (body) => {
      const j = JSON.parse(body) as { answer?: unknown; used?: { in?: unknown; out?: unknown } };
      const tokensIn = num(j.used?.in);
      const tokensOut = num(j.used?.out);
      if (typeof j.answer !== 'string') return { tokensIn, tokensOut, error: 'no answer' };
      return { text: j.answer, tokensIn, tokensOut };
    },
  },
  keyProperty: vendorKeyProperty('echo'),
  envKey: 'ECHO_API_KEY',
  defaultBaseUrl: 'https://echo.example/v2',
  defaultModel: 'echo-1',
  baseUrlSetting: 'provider.base_urls',
  needs: { key: true, baseUrl: false },
  warmsCache: false,
});

// Answers each request with the next body, recording what was sent.
function fakePort(bodies: string[]): HttpPort & { sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  return {
    sent,
    fetchAll(requests: WireRequest[]): HttpResult[] {
      sent.push(...requests);
      return requests.map(() => ({ code: 200, headers: {}, body: bodies.shift() ?? '{}' }));
    },
  };
}

function provider(vendor: VendorModule, port: HttpPort, baseUrl = ''): HttpProvider {
  return new HttpProvider(
    {
      vendor,
      model: vendor.defaultModel,
      key: 'echo-key-0123',
      baseUrl,
      maxAttempts: 3,
      baseSeconds: 1,
      jitterMs: 0,
      parallel: true,
      deadline: Number.MAX_SAFE_INTEGER,
    },
    port,
    { now: () => 0, sleep: () => {}, random: () => 0 },
  );
}

describe('the registry', () => {
  it('registers each vendor with a unique name, key property and environment variable', () => {
    const all = registry.all;
    expect(all.map((v) => v.name)).toEqual(['openai', 'anthropic', 'gemini', 'openai-compatible']);
    for (const field of ['name', 'keyProperty', 'envKey'] as const)
      expect(new Set(all.map((v) => v[field])).size, field).toBe(all.length);
    for (const v of all) expect(v.keyProperty, v.name).toBe(vendorKeyProperty(v.name));
    expect(registry.envKeys()).toEqual({
      OPENAI_API_KEY: 'KAIGI_KEY_OPENAI',
      ANTHROPIC_API_KEY: 'KAIGI_KEY_ANTHROPIC',
      GEMINI_API_KEY: 'KAIGI_KEY_GEMINI',
      KAIGI_API_KEY: 'KAIGI_KEY_OPENAI_COMPATIBLE',
    });
  });

  it('refuses a list in which two vendors share a name, a key property or an environment variable', () => {
    expect(() => vendorRegistry([...registry.all, { ...echo, name: 'gemini' }])).toThrow(/name "gemini"/);
    expect(() => vendorRegistry([...registry.all, { ...echo, keyProperty: 'KAIGI_KEY_OPENAI' }])).toThrow(
      /keyProperty "KAIGI_KEY_OPENAI"/,
    );
    expect(() => vendorRegistry([...registry.all, { ...echo, envKey: 'KAIGI_API_KEY' }])).toThrow(/envKey/);
  });

  it('gives Settings their provider defaults, unchanged in value and order', () => {
    const s = new Settings({});
    expect(s.get('provider.default_models')).toEqual(registry.defaultModels());
    expect(s.get('provider.base_urls')).toEqual(registry.baseUrlDefaults());
    for (const v of registry.all) expect(s.get('provider.default_models')[v.name]).toBe(v.defaultModel);
    expect(defaultSetting('provider.default_models').value).toBe(
      '{"openai":"gpt-4.1-mini","anthropic":"claude-haiku-4-5","gemini":"gemini-2.5-flash","openai-compatible":"llama3.1"}',
    );
    expect(defaultSetting('provider.base_urls').value).toBe('{"openai":"","anthropic":"","gemini":""}');
    expect(defaultSetting('provider.default').description).toBe(
      'Provider for agents whose row names none: rules, openai, anthropic, gemini, openai-compatible',
    );
  });

  it('finds each base URL where its module says and reports what a call still needs', () => {
    const s = new Settings({
      'provider.base_url': 'http://local:8080/v1',
      'provider.base_urls': '{"anthropic":"https://gw.example/anthropic"}',
    });
    const base = (name: string) => settingsBaseUrl(registry.find(name)!, s);
    expect(['openai', 'anthropic', 'gemini', 'openai-compatible'].map(base)).toEqual([
      '',
      'https://gw.example/anthropic',
      '',
      'http://local:8080/v1',
    ]);
    expect(missingFor(registry.find('openai')!, { key: '', baseUrl: '' })).toBe('no API key is set');
    expect(missingFor(registry.find('openai-compatible')!, { key: '', baseUrl: '' })).toBe(
      'no base URL is set (Settings: provider.base_url)',
    );
    expect(missingFor(registry.find('openai-compatible')!, { key: '', baseUrl: 'http://x' })).toBeNull();
  });
});

describe('a fifth vendor', () => {
  const reqs = phaseRequests(newDiscussion({ status: 'IN_PROGRESS' }), testEnv(), 1);
  const test = vendorRegistry([...registry.all, echo]);

  it('derives its defaults, key and env key from its module alone', () => {
    expect(test.find('echo')).toBe(echo);
    expect(test.defaultModels().echo).toBe('echo-1');
    expect(test.baseUrlDefaults().echo).toBe('');
    expect(test.envKeys().ECHO_API_KEY).toBe('KAIGI_KEY_ECHO');
    expect(test.names()).toEqual(['openai', 'anthropic', 'gemini', 'openai-compatible', 'echo']);
    // The production registry is untouched.
    expect(registry.find('echo')).toBeUndefined();
    expect(settingsBaseUrl(echo, new Settings({}))).toBe('');
  });

  it('builds and parses through HttpProvider, repair turn included', () => {
    expect(reqs.length).toBe(1);
    const port = fakePort([
      JSON.stringify({ answer: '{"summary":""}', used: { in: 10, out: 2 } }),
      JSON.stringify({ answer: JSON.stringify(situation()), used: { in: 12, out: 30 } }),
    ]);
    const [r] = provider(test.find('echo')!, port).respond(reqs);
    expect(r).toMatchObject({ ok: true, model: 'echo:echo-1', tokensIn: 22, tokensOut: 32, attempts: 2 });
    expect(r.repaired).toBe(true);
    expect(r.content).toEqual(situation());
    expect(port.sent.map((w) => [w.url, w.headers])).toEqual([
      ['https://echo.example/v2/ask/echo-1', { 'x-echo-key': 'echo-key-0123' }],
      ['https://echo.example/v2/ask/echo-1', { 'x-echo-key': 'echo-key-0123' }],
    ]);
    const [first, second] = port.sent.map((w) => JSON.parse(w.payload));
    expect(first.name).toBe('situation_report');
    // The module's own shaping reached the wire, around the generic (closed) schema.
    expect(first.schema.echoSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(first.turns).toEqual([reqs[0].user]);
    expect(second.turns[1]).toBe('{"summary":""}');
    expect(second.turns[2]).toMatch(/^Your previous JSON did not match the schema: /);
  });

  it('uses a base URL from Settings over its own, and reports its parse errors as unusable answers', () => {
    const port = fakePort(['{"used":{"in":3}}']);
    const [r] = provider(echo, port, 'http://gateway.local/echo?v=2').respond(reqs);
    expect(port.sent[0].url).toBe('http://gateway.local/echo/ask/echo-1?v=2');
    expect(r).toMatchObject({ ok: false, model: 'echo:echo-1', tokensIn: 3, error: { code: 'invalid_output' } });
    expect(r.error?.message).toBe('no answer');
  });
});
