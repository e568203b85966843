// The host side of every service call: checks the operation against the typed map, counts it, runs its handler.
import type { ServiceArgs, ServiceOp, ServiceResult } from '../service-calls.js';
import { count } from './counts.js';
import type { ExecContext, Handlers, HostState } from './handler.js';
import { entryFor } from './journal-ops.js';
import { RANGE_HANDLERS } from './range-handlers.js';
import { FETCH_HANDLERS, STORE_HANDLERS, UI_HANDLERS } from './service-handlers.js';
import { SHEET_HANDLERS, SPREADSHEET_HANDLERS } from './sheet-handlers.js';
import { callKind } from './time-model.js';
import type { Workbook } from './workbook.js';
import { chargeSentWrites } from './write-cost.js';
import { HELD_WRITES, IMMEDIATE_SHEET_CALLS } from './write-buffer.js';

export { newCounts } from './counts.js';
export type { ExecContext, HostState, UiRecord } from './handler.js';

// Every operation of the service-call map has exactly one handler; the type makes a gap a compile error.
const HANDLERS: Handlers = {
  ...SPREADSHEET_HANDLERS,
  ...SHEET_HANDLERS,
  ...RANGE_HANDLERS,
  ...STORE_HANDLERS,
  ...FETCH_HANDLERS,
  ...UI_HANDLERS,
};

function isServiceOp(op: string): op is ServiceOp {
  return Object.hasOwn(HANDLERS, op);
}

// One typed call: the map ties the operation's name to its arguments, result and handler.
async function invoke<K extends ServiceOp>(
  st: HostState,
  ex: ExecContext,
  op: K,
  args: ServiceArgs<K>,
): Promise<ServiceResult<K>> {
  const handler: Handlers[K] = HANDLERS[op];
  return handler(args, st, ex);
}

// Calls whose time is spent waiting on something outside the execution.
const WAITS: ReadonlySet<ServiceOp> = new Set<ServiceOp>(['fetch', 'lock.acquire']);

// The sheet a call is about, when it names one.
function sheetOf(args: unknown): number | undefined {
  const sheet = (args as { sheet?: unknown } | null)?.sheet;
  return typeof sheet === 'number' ? sheet : undefined;
}

// The workbook a call is about: the bound spreadsheet's unless it names another (SpreadsheetApp.create / openById),
// which the execution's user must be allowed to open, on every call as Apps Script checks it.
function workbookOf(st: HostState, ex: ExecContext, args: unknown): Workbook {
  const ss = (args as { ss?: unknown } | null)?.ss;
  if (typeof ss !== 'string' || ss === st.workbook.id) return st.workbook;
  return st.spreadsheets.open(ss, ex.owner);
}

// Spreadsheet writes go to the execution's held writes (write-buffer.ts); any other call about a sheet sends that
// sheet's held writes first, so the execution reads its own writes and nobody else's unsent ones. Every call runs
// against the workbook it names, so handlers only ever see `st.workbook`.
async function route<K extends ServiceOp>(
  shared: HostState,
  ex: ExecContext,
  op: K,
  args: ServiceArgs<K>,
): Promise<unknown> {
  const workbook = workbookOf(shared, ex, args);
  const st = workbook === shared.workbook ? shared : { ...shared, workbook };
  const sheet = sheetOf(args);
  if (sheet !== undefined && HELD_WRITES.has(op)) {
    const handler: Handlers[K] = HANDLERS[op];
    ex.writes.hold(st, sheet, op, args, (target) => void handler(args, target, ex));
    return null;
  }
  if (op === 'ss.deleteSheet' && sheet !== undefined) ex.writes.discardSheet(st, sheet);
  else if (sheet !== undefined && !IMMEDIATE_SHEET_CALLS.has(op))
    chargeSentWrites(st, ex, ex.writes.sendSheet(st, sheet));
  // A change is journaled once it has been applied, in the order changes are applied (journal.ts).
  const entry = st.journal ? entryFor(st, ex, op, args) : null;
  if (entry) {
    const result = await invoke(st, ex, op, args);
    st.journal!.append(entry(result));
    return result;
  }
  if (!WAITS.has(op)) return invoke(st, ex, op, args);
  // Waiting for answers or for a lock is time the execution spends (quota.ts charges it to trigger runtime): real
  // time while a server answers or a holder runs, modelled time while a lock's holder ran on its own clock.
  const started = performance.now();
  const modelled = ex.clock.modelledMs;
  try {
    return await invoke(st, ex, op, args);
  } finally {
    const real = performance.now() - started;
    ex.counts.waitRealMs += real;
    st.quota.chargeWait(ex, (real + ex.clock.modelledMs - modelled) / 1000);
  }
}

// What a call counts for against its daily quota: a fetchAll's requests, and each property setProperties writes
// (Google does not say whether a batch is one call; counting each is the harsher reading).
function requestsIn(op: ServiceOp, a: unknown): number {
  if (op === 'fetch') return (a as ServiceArgs<'fetch'>).requests.length;
  if (op === 'props.set') return Math.max(1, Object.keys((a as ServiceArgs<'props.set'>).entries).length);
  return 1;
}

// A call as it arrives from an execution: the operation's name and its decoded arguments. The arguments were
// built by the typed `call` on the execution's side, so once the name is known they have that operation's type.
export async function dispatch(st: HostState, ex: ExecContext, op: string, args: unknown): Promise<unknown> {
  if (!isServiceOp(op)) {
    // Still a call the execution made: it counts as one, in no round-trip category.
    ex.counts.calls++;
    ex.counts.other++;
    throw new Error(`unknown service operation ${op}`);
  }
  if (!st.timeModel.options.trace) return dispatchOp(st, ex, op, args);
  const at = ex.clock.modelledMs;
  const sentBefore = ex.counts.sentBatches;
  try {
    return await dispatchOp(st, ex, op, args);
  } finally {
    const sent = ex.counts.sentBatches - sentBefore;
    ex.counts.trace ??= [];
    ex.counts.trace.push({ op, at, ms: ex.clock.modelledMs - at, about: aboutOf(args), ...(sent ? { sent } : {}) });
  }
}

// What a traced call names: a sheet by name, or the keys it reads or writes.
function aboutOf(args: unknown): string | undefined {
  const a = args as { name?: unknown; keys?: unknown; entries?: unknown } | null;
  if (typeof a?.name === 'string') return a.name;
  const keys = Array.isArray(a?.keys)
    ? a.keys.map(String)
    : a?.entries && typeof a.entries === 'object'
      ? Object.keys(a.entries)
      : null;
  if (!keys) return undefined;
  // A cache read of a tab's parts names dozens of keys: the first says which.
  return keys.length > 2 ? `${keys[0]} +${keys.length - 1}` : keys.join(',');
}

async function dispatchOp(st: HostState, ex: ExecContext, op: ServiceOp, args: unknown): Promise<unknown> {
  const a = args as ServiceArgs<typeof op>;
  const n = requestsIn(op, a);
  count(ex.counts, op, op === 'fetch' ? n : 1);
  // The call's time on Apps Script's clock, drawn for this execution's n-th call (time-model.ts); a write the
  // execution only queues is priced when it is sent.
  const kind = callKind(op, sheetOf(a) !== undefined && HELD_WRITES.has(op));
  const ms = kind ? st.timeModel.cost(kind, ex.id, ex.counts.calls, n) : 0;
  // A call past a spent daily quota is refused before it does anything (and so costs no time).
  st.quota.charge(ex, op, n, ms / 1000);
  ex.clock.spend(ms);
  if (kind) ex.counts.msByKind[kind] = (ex.counts.msByKind[kind] ?? 0) + ms;
  return route(st, ex, op, a);
}

// A journaled change carried out again on a loaded snapshot (journal-replay.ts): the handler alone, nothing counted,
// charged or held.
export function replayOp(st: HostState, ex: ExecContext, op: string, args: unknown): unknown {
  if (!isServiceOp(op)) throw new Error(`unknown service operation ${op}`);
  const handler = HANDLERS[op] as (a: unknown, s: HostState, e: ExecContext) => unknown;
  return handler(args, st, ex);
}
