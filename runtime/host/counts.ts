// Counting an execution's service calls and the round trips among them (docs/benchmarks.md).
import type { ServiceOp } from '../service-calls.js';

type CountKey = 'reads' | 'writes' | 'appends' | 'flushes' | 'fetches' | 'other';

export interface ExecCounts {
  calls: number;
  reads: number;
  writes: number;
  appends: number;
  flushes: number;
  fetches: number;
  other: number;
  roundTrips: number;
  // Round trips by operation, for finding where an execution spends them.
  byOp: Record<string, number>;
  // Every call by service, the operation's prefix: props, cache, lock, ss/sh/rg/pr (Sheets), fetch, … (what a
  // request costs in Properties or Sheets calls, round trip or not).
  byService: Record<string, number>;
  // Modelled milliseconds by kind of cost (time-model.ts: start, sheets, flush, properties, fetch, …): where an
  // execution's time on Apps Script's clock went.
  msByKind: Record<string, number>;
  // Sheets whose held writes were sent (a read of the sheet, flush() or the end), each priced as one Sheets write.
  sentBatches: number;
  // Real milliseconds spent waiting for fetch answers and locks: the rest of the real time is the script computing.
  waitRealMs: number;
  // Each call in order with the modelled time it took (held writes it sent included) and where on the execution's
  // clock it began, when the time model is asked to trace (a bench splitting an execution into its steps).
  trace?: TracedCall[];
}

export interface TracedCall {
  op: string;
  at: number;
  ms: number;
  // What the call named, when that tells a reader which step it belongs to: a sheet's name, property or cache keys.
  about?: string;
  // Sheets whose held writes the call sent, each priced as one Sheets write inside `ms`.
  sent?: number;
}

export function newCounts(): ExecCounts {
  return {
    calls: 0,
    reads: 0,
    writes: 0,
    appends: 0,
    flushes: 0,
    fetches: 0,
    other: 0,
    roundTrips: 0,
    byOp: {},
    byService: {},
    sentBatches: 0,
    waitRealMs: 0,
    msByKind: {},
  };
}

// Typed by the service-call map, so a renamed operation cannot silently drop out of the counts.
const READS: ReadonlySet<ServiceOp> = new Set<ServiceOp>([
  'rg.getValues',
  'rg.getDisplayValues',
  'rg.getFormulas',
  'rg.getNumberFormats',
  'rg.getValidations',
  'rg.find',
  'sh.lastRow',
  'sh.lastColumn',
  'sh.maxRows',
  'sh.maxColumns',
  'sh.extent',
  'sh.size',
]);
const WRITES: ReadonlySet<ServiceOp> = new Set<ServiceOp>([
  'rg.setValues',
  'rg.setFormulas',
  'rg.setNumberFormats',
  'rg.setValidation',
  'rg.clear',
  'rg.setStyle',
  'rg.protect',
  'sh.insertRows',
  'sh.deleteRows',
  'sh.insertColumns',
  'sh.deleteColumns',
  'sh.setFrozen',
  'sh.setColumnWidths',
  'sh.protect',
  'sh.setName',
  'sh.clear',
  'sh.setHidden',
  'sh.setTabColor',
  'sh.chartUpsert',
  'sh.chartRemove',
  'ss.insertSheet',
  'ss.deleteSheet',
  'pr.update',
  'pr.remove',
]);

// Round trips as the benchmarks count them: reads and writes of values (and of the sheet's shape), appends, flushes.
function category(op: ServiceOp): CountKey {
  if (READS.has(op)) return 'reads';
  if (WRITES.has(op)) return 'writes';
  if (op === 'sh.appendRow') return 'appends';
  if (op === 'ss.flush') return 'flushes';
  if (op === 'fetch') return 'fetches';
  return 'other';
}

// Whether a call is one of the round trips counted above (a bench splitting a trace into steps asks).
export function isRoundTrip(op: string): boolean {
  const k = category(op as ServiceOp);
  return k === 'reads' || k === 'writes' || k === 'appends' || k === 'flushes';
}

export function count(c: ExecCounts, op: ServiceOp, fetches = 1): void {
  c.calls++;
  const service = op.split('.')[0];
  c.byService[service] = (c.byService[service] ?? 0) + 1;
  const k = category(op);
  c[k] += k === 'fetches' ? fetches : 1;
  if (k === 'reads' || k === 'writes' || k === 'appends' || k === 'flushes') {
    c.roundTrips++;
    c.byOp[op] = (c.byOp[op] ?? 0) + 1;
  }
}
