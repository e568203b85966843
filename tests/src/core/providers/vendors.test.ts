// What every vendor's calls share about retries: which statuses are tried again, and how long to wait first.
import { describe, expect, it } from 'vitest';
import { retryable, retryDelayMs, retryInfoMs } from '../../../../src/core/providers/vendors.js';

// A Gemini 429 as the API sends it: the wait is in a google.rpc.RetryInfo detail, not in a header.
const gemini429 = (retryDelay: unknown) =>
  JSON.stringify({
    error: {
      code: 429,
      message: 'You exceeded your current quota',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
      ],
    },
  });

describe('retryable', () => {
  it('retries time-outs, rate limits, server errors and Anthropic’s overload; never a request the server refused', () => {
    for (const code of [408, 429, 500, 502, 503, 504, 529]) expect(retryable(code), String(code)).toBe(true);
    for (const code of [200, 400, 401, 403, 404, 409, 413, 422, 501]) expect(retryable(code), String(code)).toBe(false);
  });
});

describe('retryInfoMs', () => {
  it('reads the wait of a google.rpc.RetryInfo detail, seconds with an optional fraction', () => {
    expect(retryInfoMs(gemini429('37s'))).toBe(37_000);
    expect(retryInfoMs(gemini429('1.5s'))).toBe(1500);
    expect(retryInfoMs(gemini429('0s'))).toBe(0);
    expect(retryInfoMs(gemini429('0.0001s'))).toBe(1);
    // Wrapped in an array, as some Google endpoints send their errors.
    expect(retryInfoMs(`[${gemini429('2s')}]`)).toBe(2000);
  });

  it('is null for any other body, however it is broken', () => {
    for (const body of [
      '',
      'busy',
      'null',
      '[]',
      '{"error":"quota"}',
      '{"error":{"details":{}}}',
      '{"error":{"details":[null,1,"x"]}}',
      gemini429('37'),
      gemini429('-3s'),
      gemini429('1e3s'),
      gemini429('37ms'),
      gemini429(37),
      gemini429({ seconds: 37 }),
      JSON.stringify({ error: { details: [{ '@type': 'type.googleapis.com/google.rpc.Help', retryDelay: '3s' }] } }),
    ])
      expect(retryInfoMs(body), body).toBeNull();
  });
});

describe('retryDelayMs', () => {
  const now = Date.UTC(2026, 10, 1);
  it('waits as Retry-After says, else as the body asked, else backs off exponentially with jitter', () => {
    expect(retryDelayMs(1, '3', 2, 500, 0.5, now, 37_000)).toBe(3000);
    expect(retryDelayMs(1, new Date(now + 5000).toUTCString(), 2, 500, 0.5, now, 37_000)).toBe(5000);
    expect(retryDelayMs(1, undefined, 2, 500, 0.5, now, 37_000)).toBe(37_000);
    expect(retryDelayMs(2, undefined, 2, 500, 0.5, now, null)).toBe(4250);
    expect(retryDelayMs(1, undefined, 2, 500, 0, now)).toBe(2000);
    // A Retry-After that is neither seconds nor a date is passed over.
    expect(retryDelayMs(1, 'soon', 2, 0, 0, now, 1500)).toBe(1500);
  });
});
