// The load bench end to end, short: three clients (one per role) against `kaigi serve` for five seconds, then the
// saved workbook reckoned: nothing acknowledged lost or duplicated, no server error, the audit chain intact.
import { expect, it } from 'vitest';
import { loadBench } from '../../bench/load.js';

it('runs three clients for five seconds and finds nothing lost or duplicated', async () => {
  const r = await loadBench({ clients: 3, seconds: 5 });
  expect(r.roles).toEqual({ coordinator: 1, worker: 1, viewer: 1 });
  // kaigi serve answers when the call's modelled time is over (a few seconds each): every client gets a call in.
  expect(r.requests).toBeGreaterThanOrEqual(3);
  expect(r.ok).toBeGreaterThan(0);
  expect(r).toMatchObject({ server_errors: 0, no_answer: 0, lost: 0, duplicated: 0, phantoms: 0, time_model: true });
  expect(r.findings).toEqual([]);
  expect(r.ok + r.lock_timeouts + r.rate_limited + Object.values(r.other_4xx).reduce((a, b) => a + b, 0)).toBe(
    r.requests,
  );
  expect(r.p95_ms).toBeGreaterThanOrEqual(r.p50_ms);
  expect(r.verify_audit.ok).toBe(true);
  expect(r.serve_exit).toBe(0);
}, 120_000);
