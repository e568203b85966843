// The host side of every service call: checks the operation against the typed map, counts it, runs its handler.
import type { ServiceArgs, ServiceOp, ServiceResult } from '../service-calls.js';
import { count } from './counts.js';
import type { ExecContext, Handlers, HostState } from './handler.js';
import { RANGE_HANDLERS } from './range-handlers.js';
import { FETCH_HANDLERS, STORE_HANDLERS, UI_HANDLERS } from './service-handlers.js';
import { SHEET_HANDLERS, SPREADSHEET_HANDLERS } from './sheet-handlers.js';

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

// A call as it arrives from an execution: the operation's name and its decoded arguments. The arguments were
// built by the typed `call` on the execution's side, so once the name is known they have that operation's type.
export async function dispatch(st: HostState, ex: ExecContext, op: string, args: unknown): Promise<unknown> {
  if (!isServiceOp(op)) {
    // Still a call the execution made: it counts as one, in no round-trip category.
    ex.counts.calls++;
    ex.counts.other++;
    throw new Error(`unknown service operation ${op}`);
  }
  const a = args as ServiceArgs<typeof op>;
  count(ex.counts, op, op === 'fetch' ? (a as ServiceArgs<'fetch'>).requests.length : 1);
  return invoke(st, ex, op, a);
}
