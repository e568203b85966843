// The load bench (issue 25 `load`): concurrent API clients, each with its own token, against `kaigi serve` for a
// minute of real time while discussions run, then the saved workbook reckoned: nothing acknowledged lost or
// duplicated, no server error, lock time-outs counted (the runtime's time model makes them possible).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newLedger, runClients } from './load-clients.js';
import { checkWorkbook, type LoadCheck } from './load-check.js';
import { type Tally, tally } from './load-http.js';
import { prepareWorkbook, startServe, type TriggerRuns, type VerifyAudit, verifyAudit } from './load-serve.js';

export interface LoadOptions {
  clients: number;
  seconds: number;
  seed: number;
  // How late a one-shot trigger may fire on the served runtime (`kaigi serve --after-max-ms`).
  afterMaxMs: number;
  // Who gets a released lock among its waiters: the first, or one drawn at random (`kaigi serve --lock-order`).
  lockOrder: 'fifo' | 'random';
}

export type LoadResult = Omit<Tally, 'by_kind'> & {
  clients: number;
  roles: Record<string, number>;
  seconds: number;
  // Real seconds from the first client's start to the last answer.
  wall_seconds: number;
  requests_per_second: number;
  lost: number;
  duplicated: number;
  phantoms: number;
  // Service calls cost modelled time on each execution's clock and locks wait on holders' clocks
  // (runtime/host/time-model.ts): always on; `kaigi serve` runs that on real time.
  time_model: true;
  tasks: LoadCheck['tasks'];
  room_messages: number;
  kpi_rows: number;
  orders: LoadCheck['orders'];
  api_log: LoadCheck['api_log'];
  // Trigger executions (ticks) the server ran during the load and until it stopped.
  triggers: TriggerRuns;
  verify_audit: VerifyAudit;
  serve_exit: number | null;
  lock_order: 'fifo' | 'random';
  findings: string[];
  by_kind: Tally['by_kind'];
};

export const LOAD_DEFAULTS: LoadOptions = { clients: 30, seconds: 60, seed: 25, afterMaxMs: 2000, lockOrder: 'fifo' };

export async function loadBench(options: Partial<LoadOptions> = {}): Promise<LoadResult> {
  const o = { ...LOAD_DEFAULTS, ...options };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-load-bench-'));
  const file = path.join(dir, 'load.xlsx');
  try {
    const clients = await prepareWorkbook(file, o.clients);
    const served = await startServe(file, o.afterMaxMs, o.lockOrder === 'random' ? `random:${o.seed}` : 'fifo');
    const ledger = newLedger();
    let exit: number | null = null;
    const t0 = performance.now();
    const since = Date.now();
    let wall = 0;
    let samples: Awaited<ReturnType<typeof runClients>> = [];
    try {
      samples = await runClients(clients, served.exec, o.seconds, o.seed, ledger);
      wall = (performance.now() - t0) / 1000;
    } finally {
      // SIGTERM: the server finishes the executions under way and saves the workbook.
      exit = await served.stop();
    }
    if (exit !== 0) throw new Error(`kaigi serve exited ${exit}: ${served.stderr().slice(-1000)}`);
    const check = await checkWorkbook(file, ledger, new Set(clients.map((c) => c.name)), since);
    const { by_kind, ...t } = tally(samples);
    const roles: Record<string, number> = {};
    for (const c of clients) roles[c.role] = (roles[c.role] ?? 0) + 1;
    return {
      clients: clients.length,
      roles,
      seconds: o.seconds,
      wall_seconds: Math.round(wall * 10) / 10,
      requests_per_second: Math.round((t.requests / Math.max(wall, 1)) * 10) / 10,
      ...t,
      lost: check.lost,
      duplicated: check.duplicated,
      phantoms: check.phantoms,
      time_model: true,
      tasks: check.tasks,
      room_messages: check.room_messages,
      kpi_rows: check.kpi_rows,
      orders: check.orders,
      api_log: check.api_log,
      triggers: served.triggers,
      verify_audit: verifyAudit(file),
      serve_exit: exit,
      lock_order: o.lockOrder,
      findings: check.findings,
      by_kind,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printLoad(r: LoadResult): void {
  const roles = Object.entries(r.roles)
    .map(([k, v]) => `${v} ${k}s`)
    .join(', ');
  console.log(
    `\nLoad: ${r.clients} API clients (${roles}) against kaigi serve for ${r.seconds} s of real time, the time model on, locks ${r.lock_order === 'random' ? 'to a random waiter' : 'first come first served'}`,
  );
  console.log(
    `  ${r.requests} requests (${r.requests_per_second}/s): ${r.ok} ok, ${r.server_errors} server errors, ${r.lock_timeouts} lock time-outs, ${r.rate_limited} rate-limited, ${r.no_answer} unanswered; other 4xx ${JSON.stringify(r.other_4xx)}`,
  );
  console.log(
    `  latency (real, client side, following the 302): p50 ${r.p50_ms} ms, p95 ${r.p95_ms} ms; modelled (API Log, ${r.api_log.rows} rows): p50 ${r.api_log.modelled_p50_ms} ms, p95 ${r.api_log.modelled_p95_ms} ms; ${r.api_log_not_recorded} answers say their API Log row was not written`,
  );
  for (const [k, v] of Object.entries(r.by_kind))
    console.log(
      `    ${k.padEnd(32)} ${String(v.requests).padStart(5)} calls, ${String(v.ok).padStart(5)} ok, ${String(v.lock_timeouts).padStart(3)} lock time-outs, p50 ${v.p50_ms} ms, p95 ${v.p95_ms} ms`,
    );
  console.log(
    `  tasks acknowledged ${r.tasks.acknowledged}: ${r.tasks.opened} opened (${r.tasks.decided} decided), ${r.tasks.waiting} still queued, ${r.tasks.failed} failed; room messages ${r.room_messages}, KPI rows ${r.kpi_rows}, ${r.orders.reports} order reports on ${r.orders.reported} orders (${r.orders.inconsistent} inconsistent)`,
  );
  console.log(
    `  triggers while serving: ${r.triggers.ran} ran, ${r.triggers.failed} failed (${r.triggers.lock_timeouts} could not have the lock) ${JSON.stringify(r.triggers.by_fn)}`,
  );
  console.log(
    `  after SIGTERM and reopening: lost ${r.lost}, duplicated ${r.duplicated}, written though refused ${r.phantoms}; verify-audit: ${r.verify_audit.line}`,
  );
  for (const f of r.findings) console.log(`    ${f}`);
}
