// A fetchAll in the runtime goes out at most fetch_concurrency requests at a time, each round paid on the clock.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CALL_COST_MS, TimeModel } from '../../../runtime/host/time-model.js';
import { withRuntime } from '../../helpers.js';

describe('a bounded fetchAll', () => {
  it('sends 14 requests in two rounds of 10 and 4, and pays two rounds of the model latency', async () => {
    let inFlight = 0;
    let most = 0;
    const server = http.createServer((_req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('ok');
      }, 150);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const latency = 2000;
    try {
      await withRuntime(
        async (rt) => {
          const r = await rt.evaluate(
            `var t = Date.now();
            var reqs = []; for (var i = 0; i < 14; i++) reqs.push({ url: ${JSON.stringify(`${base}/x`)} + '?i=' + i });
            var answers = UrlFetchApp.fetchAll(reqs);
            return [answers.length, Date.now() - t];`,
          );
          expect(r.ok).toBe(true);
          const [answered, took] = r.value as [number, number];
          expect(answered).toBe(14);
          // No more than ten at once on the wire; two rounds of the model's latency on the script's clock.
          expect(most).toBe(10);
          expect(took).toBeGreaterThanOrEqual(2 * (latency + CALL_COST_MS.fetch[0]));
          expect(r.counts.msByKind.fetch).toBeLessThanOrEqual(2 * (latency + CALL_COST_MS.fetch[1]));
        },
        { allowLocalFetch: [base], timeModel: { fetchMs: latency } },
      );
    } finally {
      server.close();
    }
  });

  it('counts rounds from the concurrency: one round up to it, then one more for each further batch', () => {
    const m = new TimeModel({ fetchConcurrency: 10 });
    expect([1, 10, 11, 14, 20, 21].map((n) => m.fetchRounds(n))).toEqual([1, 1, 2, 2, 2, 3]);
    expect(new TimeModel({ fetchConcurrency: 20 }).fetchRounds(14)).toBe(1);
  });
});
