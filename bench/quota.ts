// The quota bench (`npm run bench -- --only quota`): what an idle day and a discussion cost against Apps Script's
// daily quotas, from the runtime's time model (runtime/host/time-model.ts) and a model server answering after L ms.
import { CALL_COST_MS, DAILY_LIMITS, type QuotaUsage, Runtime, type ExecutionResult } from '../runtime/runtime.js';
import { demoTrigger } from '../src/core/demo-data.js';
import { PROPERTY_KEYS } from '../src/core/property-keys.js';
import { ModelServer } from '../tools/model-server.js';

export interface QuotaResult {
  call_cost_ms: typeof CALL_COST_MS;
  time_model: true;
  backstop_minutes: number;
  idle_tick_seconds: number;
  idle_trigger_minutes_per_day: number;
  model_latency_ms: number;
  trigger_seconds_per_discussion: number;
  url_fetches_per_discussion: number;
  properties_calls_per_discussion: number;
  trigger_executions_per_discussion: number;
  discussions_per_day_consumer: number;
  discussions_per_day_workspace: number;
}

function must(r: ExecutionResult): unknown {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.message}`);
  return r.value;
}

function diff(a: QuotaUsage, b: QuotaUsage): QuotaUsage {
  return {
    windowStart: b.windowStart,
    triggerSeconds: b.triggerSeconds - a.triggerSeconds,
    urlFetches: b.urlFetches - a.urlFetches,
    propertiesCalls: b.propertiesCalls - a.propertiesCalls,
    triggerExecutions: b.triggerExecutions - a.triggerExecutions,
  };
}

// What the triggers spend while `f` runs: trigger executions run as the owner, who pays for them.
async function spent(rt: Runtime, f: () => Promise<void>): Promise<QuotaUsage> {
  const before = rt.quota.totals(rt.owner);
  await f();
  return diff(before, rt.quota.totals(rt.owner));
}

export async function quotaBench(startAt: number, latencyMs: number): Promise<QuotaResult> {
  // The local model server is on loopback: allowed explicitly, as the CLI does for a local --base-url.
  // An idle day on a quiet team (no KPI rows, nothing queued): the backstop tick every `backstop` minutes, plus
  // the daily watcher and the daily review.
  const quiet = new Runtime({ startAt });
  let backstop = 0;
  let tick: QuotaUsage;
  let daily: QuotaUsage;
  try {
    must(await quiet.run('setup', [], { kind: 'menu' }));
    // The interval setup installed for the backstop tick (recorded in the workers' claim).
    const claim = quiet.scriptProperties.get(PROPERTY_KEYS.workers);
    backstop = Number(claim ? JSON.parse(claim).backstop_minutes : 0);
    if (!backstop) throw new Error('setup recorded no backstop interval');
    tick = await spent(quiet, async () => {
      must(await quiet.run('tick', [], { kind: 'trigger' }));
    });
    daily = await spent(quiet, async () => {
      must(await quiet.run('dailyReview', [], { kind: 'trigger' }));
      must(await quiet.run('dailyWatch', [], { kind: 'trigger' }));
    });
  } finally {
    await quiet.close();
  }
  const idleSeconds = tick.triggerSeconds * ((24 * 60) / backstop) + daily.triggerSeconds;
  const server = new ModelServer();
  server.latencyMs = latencyMs;
  const base = await server.start();
  // The local model server is on loopback: allowed explicitly, as the CLI does for a local --base-url.
  const rt = new Runtime({ startAt, allowLocalFetch: [base] });
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    // One discussion through the local model server, every agent on a model.
    rt.scriptProperties.set({
      KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
        provider: 'openai-compatible',
        model: 'bench',
        base_url: `${base}/v1`,
      }),
    });
    must(await rt.run('startDiscussion', [demoTrigger()], { kind: 'server' }));
    const log = rt.workbook.sheetByName('Discussion Log');
    if (!log) throw new Error('no Discussion Log tab');
    const d = await spent(rt, async () => {
      for (let i = 0; i < 20; i++) {
        must(await rt.run('tick', [], { kind: 'trigger' }));
        if (rt.workbook.getValues(log, 2, 2, 1, 1)[0][0] === 'DECIDED') return;
        rt.clock.advance(60_000);
      }
      throw new Error('the quota discussion did not reach DECIDED');
    });
    const perDay = (limitSeconds: number) =>
      Math.floor((limitSeconds - idleSeconds) / Math.max(d.triggerSeconds, 1e-9));
    return {
      call_cost_ms: CALL_COST_MS,
      time_model: true,
      backstop_minutes: backstop,
      idle_tick_seconds: round(tick.triggerSeconds),
      idle_trigger_minutes_per_day: round(idleSeconds / 60),
      model_latency_ms: latencyMs,
      trigger_seconds_per_discussion: round(d.triggerSeconds),
      url_fetches_per_discussion: d.urlFetches,
      properties_calls_per_discussion: d.propertiesCalls,
      trigger_executions_per_discussion: d.triggerExecutions,
      discussions_per_day_consumer: perDay(DAILY_LIMITS.consumer.triggerSeconds),
      discussions_per_day_workspace: perDay(DAILY_LIMITS.workspace.triggerSeconds),
    };
  } finally {
    await rt.close();
    await server.stop();
  }
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
