// What each service call costs on Apps Script's clock: seeded draws per call kind, and each execution's own clock.
import type { ServiceOp } from '../service-calls.js';
import type { Clock } from './clock.js';

// Google publishes no per-call latencies. These ranges are what users report from their own timings (community
// write-ups and Q&A threads; Google's "Best practices" page says only that service calls are what make a script
// slow and that batching helps). Each range is the slower part of what is reported, so that a local run overstates
// the time a script takes rather than understates it (SPEC §12: the harsher reading). Milliseconds, drawn
// uniformly in [low, high]:
// - a Sheets call (read, write, append, structural change, a sheet's metadata, a UI call): reported 0.05–0.3 s a
//   round trip; 100–300 ms here, for every call, although Apps Script batches some writes;
// - SpreadsheetApp.flush(): the held writes go out; 150–500 ms;
// - PropertiesService: reported 0.02–0.05 s; 30–80 ms;
// - CacheService: reported a little faster than properties; 20–60 ms;
// - LockService (the call itself, before any wait for a holder): 30–100 ms;
// - ScriptApp (triggers): 100–300 ms;
// - UrlFetchApp: reported 0.1–0.5 s of overhead over the remote server's own time; 200–600 ms per call (a
//   fetchAll's requests go out together), plus the real time its answers took, plus `fetchMs` when a bench or a
//   test models a slow server (a model that thinks for 10 s) without anyone waiting for it;
// - starting an execution (loading the project, authorising, starting the trigger or web request): reported
//   0.5–1 s, more for a large project; 800–1,500 ms.
// A one-shot trigger's lateness is modelled apart, where triggers fire (triggers.ts).
export const CALL_COST_MS = {
  sheets: [100, 300],
  flush: [150, 500],
  properties: [30, 80],
  cache: [20, 60],
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
}

const DEFAULT_TIME_MODEL: TimeModelOptions = { seed: 1, fetchMs: 0, scale: 1 };

export function callKind(op: ServiceOp): CallKind | null {
  if (op === 'ss.flush') return 'flush';
  if (/^(ss|sh|rg|pr|ui)\./.test(op)) return 'sheets';
  if (op.startsWith('props.')) return 'properties';
  if (op.startsWith('cache.')) return 'cache';
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
