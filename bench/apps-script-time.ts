// The apps_script_time bench: one discussion from POST /tasks to DECIDED on Apps Script's modelled clock, once with the
// request carrying the work (wait_seconds) and once left to the one-shot trigger.
import { type ExecutionResult, Runtime } from '../runtime/runtime.js';
import { demoTrigger } from '../src/core/demo-data.js';
import { ModelServer } from '../tools/model-server.js';
import { type Floor, floorOf, type Step, stepsOf } from './apps-script-steps.js';
import { must, sheet } from './discussion.js';

export interface AppsScriptTimeResult {
  L_ms: number;
  to_decided_ms: number;
  trigger_waits_ms: number;
  own_ms: number;
  // own_ms under each seed of the time model's draws (own_ms is their median).
  own_ms_by_seed?: number[];
  model_rounds: number;
  executions: number;
  round_trips: number;
  time_model: true;
  phases: {
    request_ms: number;
    execution_starts_ms: number;
    sheets_ms: number;
    flushes_ms: number;
    properties_ms: number;
    model_ms: number;
    other_calls_ms: number;
    trigger_waits_ms: number;
    // Every service call by service (props, cache, lock, fetch, ss/sh/rg for Sheets …) and the round trips by
    // operation, over the path's executions: which calls the figures above are made of.
    calls_by_service: Record<string, number>;
    round_trips_by_op: Record<string, number>;
    steps: { fn: string; waited_ms: number; ms: number; round_trips: number; fetches: number }[];
  };
  // Each execution split into its steps (the start, the reads, each commit, each model round's overhead, the
  // script's computing), each with its round trips and modelled time, against the floor on paper.
  by_step: Step[];
  floor: Floor;
  // The script's own computing in the path's executions: real time here, so it moves with the machine's load.
  cpu_ms: number;
  // The discussion before the one measured, the first after set-up: the same path with the caches set-up left empty.
  first?: { own_ms: number; round_trips: number; executions: number };
  // The same discussion started without wait_seconds: the request answers 202 at once and the one-shot trigger,
  // which Apps Script fires late, carries the work (the trigger's lateness is the runtime's seeded draw).
  triggered: Omit<AppsScriptTimeResult, 'triggered' | 'phases' | 'time_model' | 'L_ms' | 'by_step' | 'floor'> | null;
}

type Path = Omit<AppsScriptTimeResult, 'triggered'>;

// How many Discussion Log rows say DECIDED: one more once the discussion measured is decided.
function decidedCount(rt: Runtime): number {
  const log = sheet(rt.workbook, 'Discussion Log');
  const last = rt.workbook.lastRow(log);
  if (last < 2) return 0;
  return rt.workbook.getValues(log, 2, 2, last - 1, 1).filter((r) => r[0] === 'DECIDED').length;
}

// The model answers after L ms on the execution's clock (the time model's `fetchMs`), not on the wall: the model
// server itself answers at once. UrlFetchApp blocks the execution while the answer comes, so charging L to each
// fetch (a fetchAll once) is what Apps Script would charge, and a 2 s model costs no real seconds here, so the
// machine's load cannot blur Kaigi's own time.
//
// Each call's price is a seeded draw keyed on its place in the execution, so a change that adds or drops one call
// reshuffles the draws of every call after it, by several hundred ms either way. Each path therefore runs under SEEDS
// seeds of the time model: `own_ms` and `round_trips` are the medians (`own_ms_by_seed` lists them), and the
// detail (phases, steps, the floor) is seed 1's.
const SEEDS = 5;

export async function appsScriptTimeBench(startAt: number, L = 2000): Promise<AppsScriptTimeResult> {
  // What a client that wants the decision does: waits for it in the request (api.max_wait_seconds' default).
  const waited = await seeded((seed) => onePath(startAt, L, 60, seed));
  const {
    L_ms: _l,
    time_model: _t,
    phases: _p,
    by_step: _s,
    floor: _f,
    ...triggered
  } = await seeded((seed) => onePath(startAt, L, 0, seed));
  return { ...waited, triggered };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function seeded(run: (seed: number) => Promise<Path>): Promise<Path> {
  const paths: Path[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) paths.push(await run(seed));
  const own = paths.map((p) => p.own_ms);
  return {
    ...paths[0],
    own_ms: median(own),
    own_ms_by_seed: own,
    round_trips: median(paths.map((p) => p.round_trips)),
    first: paths[0].first && {
      ...paths[0].first,
      own_ms: median(paths.map((p) => p.first?.own_ms ?? 0)),
    },
  };
}

async function onePath(startAt: number, L: number, waitSeconds: number, seed: number): Promise<Path> {
  const server = new ModelServer();
  const base = await server.start();
  // The local model server is on loopback: allowed explicitly, as the CLI does for a local --base-url.
  const rt = new Runtime({ startAt, allowLocalFetch: [base], timeModel: { seed, fetchMs: L, trace: true } });
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    must(await rt.run('updateSetting', [{ key: 'api.client_daily_tokens', value: '100%' }], { kind: 'server' }));
    const admin = must(await rt.run('createApiClient', [{ name: 'bench', role: 'admin' }], { kind: 'server' })) as {
      token: string;
    };
    rt.scriptProperties.set({
      KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
        provider: 'openai-compatible',
        model: 'bench',
        base_url: `${base}/v1`,
      }),
    });
    // Setup's own triggers (the daily ones) are not this discussion's: only what fires after the request counts.
    const body = { token: admin.token, ...demoTrigger(), ...(waitSeconds ? { wait_seconds: waitSeconds } : {}) };
    // The first discussion after set-up pays for caches that set-up and the seed left empty (the KPI copy, the API
    // gate): reported as `first`. The one measured is the next, as a workbook in use runs it, once the Dashboard
    // refresh the first made due has run (a tick a minute later, as the sheets bench lets it).
    const first = summarise(await oneDiscussion(rt, body, waitSeconds), L);
    rt.clock.advance(61_000);
    must(await rt.run('tick', [], { kind: 'trigger' }));
    rt.clock.advance(60_000);
    const measured = summarise(await oneDiscussion(rt, body, waitSeconds), L);
    return {
      ...measured,
      first: { own_ms: first.own_ms, round_trips: first.round_trips, executions: first.executions },
    };
  } finally {
    await rt.close();
    await server.stop();
  }
}

// One POST /tasks and the triggers it leaves, to DECIDED: every execution that took part.
async function oneDiscussion(rt: Runtime, body: object, waitSeconds: number): Promise<ExecutionResult[]> {
  const before = decidedCount(rt);
  const post = await rt.doPost({ path: '/tasks' }, JSON.stringify(body));
  const answer = JSON.parse(post.body) as { error?: unknown; state?: string };
  if (!post.result.ok || answer.error) throw new Error(`POST /tasks answered ${post.body}`);
  if (waitSeconds && answer.state !== 'DECIDED') throw new Error(`POST /tasks with a wait answered ${post.body}`);
  const runs: ExecutionResult[] = [post.result];
  for (let i = 0; i < 50 && decidedCount(rt) === before; i++) {
    const next = rt.triggers.nextDueTime();
    if (next === null) throw new Error('nothing scheduled before DECIDED');
    rt.clock.advanceTo(Math.max(next, rt.clock.now()));
    for (const r of await rt.fireDueTriggers()) {
      must(r);
      runs.push(r);
    }
  }
  if (decidedCount(rt) === before) throw new Error('the apps_script_time discussion did not reach DECIDED');
  return runs;
}

function summarise(runs: ExecutionResult[], L: number): Path {
  const t0 = runs[0].startedAt;
  const end = runs[runs.length - 1].endedAt;
  let waits = 0;
  let prevEnd = t0;
  const steps: AppsScriptTimeResult['phases']['steps'] = [];
  let rounds = 0;
  let roundTrips = 0;
  for (const r of runs) {
    const waited = Math.max(0, r.startedAt - prevEnd);
    waits += waited;
    prevEnd = Math.max(prevEnd, r.endedAt);
    // A fetch call (a fetchAll once) is one model round: its requests go out together.
    const fetches = r.counts.byService.fetch ?? 0;
    rounds += fetches;
    roundTrips += r.counts.roundTrips;
    steps.push({ fn: r.fn, waited_ms: waited, ms: r.endedAt - r.startedAt, round_trips: r.counts.roundTrips, fetches });
  }
  // Each kind of cost's modelled time, as the runtime charged it (counts.msByKind).
  const byKind: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.counts.msByKind)) byKind[k] = (byKind[k] ?? 0) + v;
  const kind = (...ks: string[]) => ks.reduce((a, k) => a + (byKind[k] ?? 0), 0);
  const sum = (pick: (r: ExecutionResult) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const r of runs) for (const [k, v] of Object.entries(pick(r))) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const to = end - t0;
  const modelMs = rounds * L;
  const byStep = runs.flatMap((r) => stepsOf(r, L));
  return {
    L_ms: L,
    to_decided_ms: to,
    trigger_waits_ms: waits,
    own_ms: to - waits - modelMs,
    model_rounds: rounds,
    executions: runs.length,
    round_trips: roundTrips,
    time_model: true,
    by_step: byStep,
    floor: floorOf(byStep, runs.length, rounds),
    cpu_ms: byStep.filter((x) => x.step.startsWith('script computing')).reduce((a, x) => a + x.modelled_ms, 0),
    phases: {
      request_ms: runs[0].endedAt - runs[0].startedAt,
      execution_starts_ms: kind('start'),
      sheets_ms: kind('sheets_read', 'sheets_write'),
      flushes_ms: kind('flush'),
      properties_ms: kind('properties_read', 'properties_write'),
      model_ms: modelMs,
      // The fetches' own overhead (UrlFetchApp's 200–600 ms a call), the cache, locks and trigger calls.
      other_calls_ms: kind('fetch') - modelMs + kind('cache_read', 'cache_write', 'lock', 'triggers'),
      trigger_waits_ms: waits,
      calls_by_service: sum((r) => r.counts.byService),
      round_trips_by_op: sum((r) => r.counts.byOp),
      steps,
    },
  };
}

export function printAppsScriptTime(r: AppsScriptTimeResult): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `\nPOST /tasks with wait_seconds to DECIDED on Apps Script's modelled clock, the model answering after ${r.L_ms} ms`,
  );
  console.log(
    `  ${s(r.to_decided_ms)} to DECIDED (target ≤ 80 s): trigger waits ${s(r.trigger_waits_ms)}, the model ${r.model_rounds} × ${s(r.L_ms)}, Kaigi's own ${s(r.own_ms)} (target ≤ 10 s)`,
  );
  const p = r.phases;
  console.log(
    `  own time: starts ${s(p.execution_starts_ms)}, Sheets ${s(p.sheets_ms)}, flushes ${s(p.flushes_ms)}, properties ${s(p.properties_ms)}, other calls ${s(p.other_calls_ms)}`,
  );
  console.log(`  ${r.executions} executions, ${r.round_trips} round trips`);
  if (r.first)
    console.log(
      `  the first discussion after set-up (caches empty): Kaigi's own ${s(r.first.own_ms)}, ${r.first.round_trips} round trips`,
    );
  const t = r.triggered;
  if (t)
    console.log(
      `  without wait_seconds (the one-shot trigger carries it): ${s(t.to_decided_ms)}, of which trigger waits ${s(t.trigger_waits_ms)}, Kaigi's own ${s(t.own_ms)}, ${t.executions} executions, ${t.round_trips} round trips`,
    );
  for (const x of p.steps)
    console.log(
      `    ${x.fn}: waited ${s(x.waited_ms)}, ran ${s(x.ms)}, ${x.round_trips} round trips, ${x.fetches} fetches`,
    );
  console.log('  by step (round trips, modelled ms; a model round is its overhead, the model apart):');
  for (const x of r.by_step)
    console.log(
      `    ${x.step}: ${x.round_trips} round trips, ${x.modelled_ms} ms, ${x.calls} calls, ${x.sheets_sent} sheets sent`,
    );
  const f = r.floor;
  console.log(
    `  floor on paper: ${s(f.on_paper_ms)} and ${f.on_paper_round_trips} round trips (one read, one write and a flush per commit, ${f.commits} commits, ${f.model_rounds} model rounds); with the ${f.sheets_sent} tabs the commits write, ${s(f.with_tabs_written_ms)}; Kaigi's own ${s(r.own_ms)}, of which the script computing ${s(r.cpu_ms)}`,
  );
}
