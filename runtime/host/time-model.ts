// What each service call costs on Apps Script's clock: seeded draws per call kind, and each execution's own clock.
import type { ServiceOp } from '../service-calls.js';
import type { Clock } from './clock.js';
import { IMMEDIATE_SHEET_CALLS } from './write-buffer.js';

// Google publishes no per-call latencies. These ranges come from public measurements (docs/apps-script-clock.md
// names each), and each is the slow end of what was measured, so that a local run overstates the time a script
// takes rather than understates it (the harsher reading). Writes are measured slower than reads everywhere, so they
// are priced apart. Milliseconds, drawn uniformly in [low, high]:
// - sheets_read: a Sheets call that answers at once (a read, a sheet's metadata, a UI call): 100–300 ms;
// - sheets_write: one sheet's held writes reaching the spreadsheet, whether a read of that sheet, flush() or the
//   execution's end sends them (a write then a read measures about 800 ms), and a change Sheets makes at once
//   (a new sheet, a protection, a chart): 300–700 ms. A held write's own call costs nothing: it is only queued;
// - flush: the call itself, 100–300 ms, on top of the held writes it sends (610 ms measured after a 4,000-cell
//   write);
// - properties_read 30–90 ms (20–84 measured, 30 on average); properties_write 60–230 ms (62 on average, up to 231);
// - cache_read 20–60 ms (3–28 measured); cache_write (put, remove) 60–280 ms (56–93 on average, up to 281);
// - lock (the call itself, before any wait for a holder): 30–100 ms;
// - triggers (ScriptApp): 100–300 ms;
// - fetch: 200–600 ms of overhead per round of a fetchAll (`fetchConcurrency` requests at a time), plus
//   the real time its answers took, plus `fetchMs` a round when a bench or a test models a slow server (a model
//   that thinks for 10 s) without anyone waiting for it;
// - start (loading the project, authorising, starting the trigger or web request): 800–1,500 ms.
// A one-shot trigger's lateness is modelled apart, where triggers fire (triggers.ts).
export const CALL_COST_MS = {
  sheets_read: [100, 300],
  sheets_write: [300, 700],
  flush: [100, 300],
  properties_read: [30, 90],
  properties_write: [60, 230],
  cache_read: [20, 60],
  cache_write: [60, 280],
  lock: [30, 100],
  triggers: [100, 300],
  fetch: [200, 600],
  start: [800, 1500],
} as const satisfies Record<string, readonly [number, number]>;

export type CallKind = keyof typeof CALL_COST_MS;

export interface TimeModelOptions {
  // Seeds every draw, so that a run is the same run each time.
  seed: number;
  // Modelled time a remote server takes to answer each UrlFetchApp call, on top of the call's overhead and the
  // real time the answer took: a slow model without a slow test.
  fetchMs: number;
  // The share of each drawn cost that is spent: 1 (the default) is Apps Script's time; `kaigi serve --time-scale`
  // takes less for a preview (or a test) that is not about time, so its answers, paced at their executions' ends,
  // come sooner and its lock holds are shorter. Every call is still made, counted and metered.
  scale: number;
  // How many requests of a fetchAll are in flight at once (the `fetchConcurrency` time-model option). Google documents no
  // figure; practitioners observe about 10–20, so the runtime takes 10 and sends the rest in later rounds.
  fetchConcurrency: number;
  // Keep each execution's calls in order with their modelled times (ExecCounts.trace): off but for benches.
  trace: boolean;
}

const DEFAULT_TIME_MODEL: TimeModelOptions = { seed: 1, fetchMs: 0, scale: 1, fetchConcurrency: 10, trace: false };

// Draws for a fetchAll's later rounds are numbered apart from the calls' own.
const ROUND_DRAWS = 2_000_000;

// Sheets calls that change the spreadsheet at once, not queued with the held writes: the sheet-level ones the write
// buffer lists, and the spreadsheet's own changes. Priced as writes.
const IMMEDIATE_SHEETS_WRITES: ReadonlySet<string> = new Set([
  ...IMMEDIATE_SHEET_CALLS,
  'ss.insertSheet',
  'ss.rename',
  'ss.setTimeZone',
  'ss.setLocale',
  'ss.moveActive',
  'ss.addEditors',
  'ss.removeEditor',
  'ss.create',
]);

// The price of a call as it is made; `held` is true for a write the execution only queues (priced when sent).
export function callKind(op: ServiceOp, held = false): CallKind | null {
  if (op === 'ss.flush') return 'flush';
  if (/^(ss|sh|rg|pr|ui)\./.test(op)) {
    if (held) return null;
    return IMMEDIATE_SHEETS_WRITES.has(op) ? 'sheets_write' : 'sheets_read';
  }
  if (op.startsWith('props.')) return op === 'props.get' || op === 'props.all' ? 'properties_read' : 'properties_write';
  if (op.startsWith('cache.')) return op === 'cache.get' ? 'cache_read' : 'cache_write';
  if (op.startsWith('lock.')) return 'lock';
  if (op.startsWith('trig.')) return 'triggers';
  if (op === 'fetch') return 'fetch';
  return null;
}

// A small, fast, well-mixed hash (mulberry32's finaliser) of the seed, the execution and the call: the same run
// draws the same costs, and no execution's draws depend on another's.
function unit(seed: number, exec: number, call: number): number {
  let t = (seed ^ Math.imul(exec, 0x9e3779b1) ^ Math.imul(call + 1, 0x85ebca6b)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export class TimeModel {
  readonly options: TimeModelOptions;

  constructor(options: Partial<TimeModelOptions> = {}) {
    this.options = { ...DEFAULT_TIME_MODEL, ...options };
  }

  // A fetchAll of `requests` goes out in rounds of at most fetchConcurrency requests.
  fetchRounds(requests: number): number {
    return Math.max(1, Math.ceil(requests / Math.max(1, this.options.fetchConcurrency)));
  }

  // The cost of a call of this kind: the execution's `call`-th draw; a fetchAll pays each of its rounds.
  cost(kind: CallKind, exec: number, call: number, requests = 1): number {
    if (kind !== 'fetch') return this.draw(kind, exec, call);
    let ms = 0;
    for (let r = 0; r < this.fetchRounds(requests); r++)
      ms += this.draw(kind, exec, r === 0 ? call : ROUND_DRAWS + call * 64 + r);
    return ms;
  }

  // The cost of one call of this kind: the execution's `call`-th draw.
  draw(kind: CallKind, exec: number, call: number): number {
    const [low, high] = CALL_COST_MS[kind];
    const base = low + (high - low) * unit(this.options.seed, exec, call);
    return Math.round((kind === 'fetch' ? base + this.options.fetchMs : base) * this.options.scale);
  }
}

// One execution's clock: the runtime's clock as the execution found it (with the lead it started with, clock.ts)
// plus the modelled time its service calls, lock waits and sleeps took. Both live in shared memory, so the
// execution's own Date (worker.ts) reads them without a call: [modelled ms, lead at start].
export class ExecClock {
  readonly buffer: SharedArrayBuffer;
  private readonly cell: Float64Array;

  constructor(private readonly clock: Clock) {
    this.buffer = new SharedArrayBuffer(16);
    this.cell = new Float64Array(this.buffer);
    this.cell[1] = clock.lead();
  }

  // Modelled milliseconds spent so far.
  get modelledMs(): number {
    return this.cell[0];
  }

  now(): number {
    return this.clock.explicitNow() + this.cell[1] + this.cell[0];
  }

  spend(ms: number): void {
    if (ms > 0) this.cell[0] += ms;
  }

  // Waits (in modelled time) until the execution's clock reads `time`; returns how long that was.
  waitUntil(time: number): number {
    const wait = time - this.now();
    this.spend(wait);
    return Math.max(0, wait);
  }
}
