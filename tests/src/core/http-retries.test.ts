// HttpProvider's retry loop on a fake transport and clock: answers kept after a fetchAll that failed as a whole,
// only requests without an answer sent again, and no round or wait that could not end before the deadline.
import { describe, expect, it } from 'vitest';
import { phaseRequests } from '../../../src/core/engine.js';
import { RequeueError } from '../../../src/core/errors.js';
import type { AgentRequest } from '../../../src/core/provider.js';
import { FETCH_LIMIT_MS, HttpProvider, type HttpResult } from '../../../src/core/providers/http.js';
import { defineVendor, type WireRequest } from '../../../src/core/providers/vendors.js';
import { situation } from './answers.js';
import { newDiscussion, testEnv } from './env.js';

// A minimal wire format that carries the request's key, so the fake transport knows who is asking.
const keyed = defineVendor({
  name: 'keyed',
  wire: {
    shapeSchema: (s) => s,
    build: (call, _key, base): WireRequest => ({
      url: `${base}/ask`,
      method: 'post',
      contentType: 'application/json',
      headers: {},
      payload: JSON.stringify({ key: call.req.key }),
    }),
    parse: (body) => ({ text: (JSON.parse(body) as { answer: string }).answer, tokensIn: 1, tokensOut: 1 }),
  },
  keyProperty: 'KAIGI_KEY_KEYED',
  envKey: 'KEYED_API_KEY',
  defaultBaseUrl: 'https://keyed.example',
  defaultModel: 'k-1',
  baseUrlSetting: 'provider.base_urls',
  needs: { key: false, baseUrl: false },
  warmsCache: true,
});

const OK: HttpResult = { code: 200, headers: {}, body: JSON.stringify({ answer: JSON.stringify(situation()) }) };
const TIMEOUT = (k: string): HttpResult => ({
  code: 0,
  headers: {},
  body: '',
  error: `Timeout: https://keyed.example/ask#${k}`,
});

type Outcome = { result: HttpResult; ms: number } | 'fail-call';

// A transport over a clock: each call takes as long as its slowest request; a 'fail-call' loses the whole call.
function world(answer: (key: string, sent: number) => Outcome) {
  let now = 1_000_000;
  const calls: { keys: string[]; at: number; end: number }[] = [];
  const sentCount: Record<string, number> = {};
  const clock = { now: () => now, sleep: (ms: number) => void (now += ms), random: () => 0 };
  const port = {
    fetchAll(requests: WireRequest[]): HttpResult[] {
      const keys = requests.map((w) => (JSON.parse(w.payload) as { key: string }).key);
      const outs = keys.map((k) => answer(k, (sentCount[k] = (sentCount[k] ?? 0) + 1)));
      const at = now;
      now += Math.max(...outs.map((o) => (o === 'fail-call' ? FETCH_LIMIT_MS : o.ms)));
      calls.push({ keys, at, end: now });
      if (outs.some((o) => o === 'fail-call')) {
        // What the port reports when UrlFetchApp.fetchAll throws: nothing came back for anyone.
        const lost = requests.length > 1;
        return keys.map(() => ({ code: 0, headers: {}, body: '', error: 'Timeout: x', lost }));
      }
      return outs.map((o) => (o as { result: HttpResult }).result);
    },
  };
  const provider = (deadlineIn: number, parallel = true, concurrency?: number) =>
    new HttpProvider(
      {
        vendor: keyed,
        model: 'k-1',
        key: '',
        baseUrl: '',
        maxAttempts: 3,
        baseSeconds: 2,
        jitterMs: 0,
        parallel,
        concurrency,
        deadline: now + deadlineIn,
      },
      port,
      clock,
    );
  return { calls, sentCount, provider, now: () => now };
}

const base = phaseRequests(newDiscussion({ status: 'IN_PROGRESS' }), testEnv(), 1)[0];
const requests = (...keys: string[]): AgentRequest[] => keys.map((key) => ({ ...base, key }));

describe('after a fetchAll that failed as a whole', () => {
  it('keeps every answer and sends again only the requests without one, one at a time', () => {
    const w = world((k, n) =>
      k === 'b' && n <= 2 ? (n === 1 ? 'fail-call' : { result: TIMEOUT(k), ms: 60_000 }) : { result: OK, ms: 1000 },
    );
    const out = w.provider(270_000).respond(requests('a', 'b', 'c', 'd'));
    expect(out.map((r) => r.ok)).toEqual([true, true, true, true]);
    // The round's first call goes alone (it writes the prompt cache the others read), then the rest together.
    expect(w.calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c', 'd'], ['b'], ['c'], ['d'], ['b']]);
    // c and d: the lost call, then once more; never again once answered.
    expect(w.sentCount).toEqual({ a: 1, b: 3, c: 2, d: 2 });
    expect(out.map((r) => r.attempts)).toEqual([1, 3, 2, 2]);
    // The lost call may have been answered and billed: its prompt counts as spent (1 token per answer here).
    expect(out[0].tokensIn).toBe(1);
    expect(out[2].tokensIn).toBeGreaterThan(1);
  });

  it('sends the whole round at once when two rounds of calls would not fit the tick', () => {
    const w = world(() => ({ result: OK, ms: 1000 }));
    w.provider(FETCH_LIMIT_MS + 30_000).respond(requests('a', 'b', 'c'));
    expect(w.calls.map((c) => c.keys)).toEqual([['a', 'b', 'c']]);
  });

  it('gives up on a request that keeps failing, keeping the others', () => {
    const w = world((k) => (k === 'b' ? 'fail-call' : { result: OK, ms: 1000 }));
    const out = w.provider(270_000).respond(requests('a', 'b', 'c'));
    expect(out.map((r) => r.ok)).toEqual([true, false, true]);
    expect(out[1].error).toMatchObject({ code: 'network' });
    expect(out[1].error!.message).toMatch(/Timeout: x \(after 3 attempts\)/);
    expect(w.sentCount).toEqual({ a: 1, b: 3, c: 2 });
  });
});

describe('the time budget', () => {
  it('starts no round that could not end (60 s) before the deadline', () => {
    const w = world(() => ({ result: OK, ms: 1000 }));
    const started = w.now();
    let err: unknown;
    try {
      w.provider(FETCH_LIMIT_MS - 1).respond(requests('a', 'b'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RequeueError);
    // Not before the deadline, so the tick that gave it back does not claim it again.
    expect((err as RequeueError).retryAt).toBe(started + FETCH_LIMIT_MS - 1);
    expect(w.calls).toEqual([]);
    // Exactly 60 s is enough.
    expect(
      world(() => ({ result: OK, ms: 1000 }))
        .provider(FETCH_LIMIT_MS)
        .respond(requests('a'))[0].ok,
    ).toBe(true);
  });

  it('sends twenty agents in rounds of the fetch concurrency, each round checked against the deadline', () => {
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    const w = world(() => ({ result: OK, ms: 50_000 }));
    const started = w.now();
    const out = w.provider(270_000, true, 10).respond(requests(...keys));
    expect(out.every((r) => r.ok)).toBe(true);
    // The lead alone (it warms the prompt cache: three rounds fit), then ten, then nine.
    expect(w.calls.map((c) => c.keys.length)).toEqual([1, 10, 9]);
    for (const c of w.calls) expect(c.end - started).toBeLessThanOrEqual(270_000);
    // With room for two rounds only, the lead does not go alone, and the second round of ten still fits.
    const tight = world(() => ({ result: OK, ms: 50_000 }));
    tight.provider(2 * FETCH_LIMIT_MS + 10_000, true, 10).respond(requests(...keys));
    expect(tight.calls.map((c) => c.keys.length)).toEqual([10, 10]);
    // With room for one round, the second is not started: the work comes back for the next tick.
    const one = world(() => ({ result: OK, ms: 50_000 }));
    expect(() => one.provider(FETCH_LIMIT_MS + 10_000, true, 10).respond(requests(...keys))).toThrow(RequeueError);
    expect(one.calls.map((c) => c.keys.length)).toEqual([10]);
  });

  it('re-queues a retry whose wait and round would pass the deadline, without sleeping', () => {
    const w = world((_k, n) =>
      n === 1 ? { result: { code: 503, headers: {}, body: 'busy' }, ms: 1000 } : { result: OK, ms: 1000 },
    );
    const started = w.now();
    // Round 1 ends at +1 s; the retry waits 2 s, so it would start at +3 s and could run to +63 s.
    let err: unknown;
    try {
      w.provider(62_999).respond(requests('a'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RequeueError);
    expect((err as RequeueError).retryAt).toBe(started + 62_999);
    expect(w.now()).toBe(started + 1000);
    expect(w.calls.length).toBe(1);
    expect(
      world((_k, n) =>
        n === 1 ? { result: { code: 503, headers: {}, body: '' }, ms: 1000 } : { result: OK, ms: 1000 },
      )
        .provider(63_000)
        .respond(requests('a'))[0].attempts,
    ).toBe(2);
  });

  it('checks before each request when they go one at a time', () => {
    const w = world(() => ({ result: OK, ms: 30_000 }));
    expect(() => w.provider(100_000, false).respond(requests('a', 'b', 'c'))).toThrow(RequeueError);
    // a at 0 s and b at 30 s could end by 90 s; c at 60 s could not end by 100 s.
    expect(w.calls.map((c) => c.keys)).toEqual([['a'], ['b']]);
  });

  it('with a hanging endpoint, never lets a round or a wait end past the deadline', () => {
    for (const budget of [150_000, 200_000, 270_000]) {
      const w = world((k) => (k === 'b' ? 'fail-call' : { result: OK, ms: 1000 }));
      const started = w.now();
      let requeued = false;
      try {
        w.provider(budget).respond(requests('a', 'b', 'c', 'd'));
      } catch (e) {
        if (!(e instanceof RequeueError)) throw e;
        requeued = true;
      }
      for (const c of w.calls) expect(c.end - started, `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(w.now() - started).toBeLessThanOrEqual(budget);
      // 60 s lost, 2 s wait, a/b/c/d alone (b 60 s), 4 s wait, b alone again: done at 187 s.
      expect(requeued, `budget ${budget}`).toBe(budget < 187_000);
    }
  });
});

describe('the wait before a retry', () => {
  // Gemini's 429: no Retry-After header, the wait in the body's google.rpc.RetryInfo.
  const quota = (retryDelay: string, headers: Record<string, string> = {}): HttpResult => ({
    code: 429,
    headers,
    body: JSON.stringify({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }],
      },
    }),
  });

  it('is the RetryInfo delay of a Gemini 429 when no Retry-After header comes', () => {
    const w = world((_k, n) => (n === 1 ? { result: quota('37s'), ms: 1000 } : { result: OK, ms: 1000 }));
    const out = w.provider(270_000).respond(requests('a'));
    expect(out[0]).toMatchObject({ ok: true, attempts: 2 });
    // Not the 2 s back-off: the 37 s the server asked for, after the first call's 1 s.
    expect(w.calls.map((c) => c.at - w.calls[0].at)).toEqual([0, 1000 + 37_000]);
  });

  it('is Retry-After when the header comes too, and a 529 (overloaded) is retried like a 503', () => {
    const w = world((_k, n) =>
      n === 1 ? { result: quota('37s', { 'Retry-After': '5' }), ms: 1000 } : { result: OK, ms: 1000 },
    );
    w.provider(270_000).respond(requests('a'));
    expect(w.calls.map((c) => c.at - w.calls[0].at)).toEqual([0, 1000 + 5000]);
    const busy = world((_k, n) =>
      n === 1 ? { result: { code: 529, headers: {}, body: 'overloaded' }, ms: 1000 } : { result: OK, ms: 1000 },
    );
    expect(busy.provider(270_000).respond(requests('a'))[0]).toMatchObject({ ok: true, attempts: 2 });
    expect(busy.calls.map((c) => c.at - busy.calls[0].at)).toEqual([0, 1000 + 2000]);
  });
});
