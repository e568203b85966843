// A person's own changes in the spreadsheet (typing, inserting or deleting rows, columns and sheets), applied as
// the UI applies them, then the installable triggers Apps Script fires for a user's change: onEdit for typed cells,
// onChange (with its changeType) for those and for every change of the grid's structure.
import type { ExecutionResult, RunOptions } from './execution-types.js';
import { newCounts, replayOp } from './host/dispatch.js';
import type { ExecContext, HostState } from './host/handler.js';
import type { Journal } from './host/journal.js';
import { sheetEntry } from './host/sheet-entry.js';
import type { TriggerStore } from './host/triggers.js';
import type { Workbook } from './host/workbook.js';
import { ExecClock } from './host/time-model.js';
import { WriteBuffer } from './host/write-buffer.js';
import type { ServiceOp } from './service-calls.js';

// What of the runtime a person's change needs.
export interface PersonHost {
  readonly workbook: Workbook;
  readonly journal: Journal | undefined;
  readonly owner: string;
  readonly triggers: TriggerStore;
  // Whether an edit event may name this person (host/users.ts): else the event has no `user` at all.
  revealsEditor(user: string): boolean;
  hostState(): HostState;
  run(fn: string, args: unknown[], opts: RunOptions): Promise<ExecutionResult>;
}

// A change of the grid's structure on one sheet: rows or columns inserted before `at` or removed from `at` on, or
// the sheet itself added (named by the change) or removed.
export type StructuralChange =
  | { kind: 'insertRows' | 'deleteRows' | 'insertColumns' | 'deleteColumns'; at: number; count?: number }
  | { kind: 'insertSheet' | 'deleteSheet' };

// Apps Script's changeType for each (Sheets also reports FORMAT and OTHER, which no change here makes).
const CHANGE_TYPES: Record<StructuralChange['kind'], string> = {
  insertRows: 'INSERT_ROW',
  deleteRows: 'REMOVE_ROW',
  insertColumns: 'INSERT_COLUMN',
  deleteColumns: 'REMOVE_COLUMN',
  insertSheet: 'INSERT_GRID',
  deleteSheet: 'REMOVE_GRID',
};

// The service call a script would make for the same change: applied by the same handler, journaled the same way.
function callFor(wb: Workbook, sheetName: string, change: StructuralChange): { op: ServiceOp; args: object } {
  if (change.kind === 'insertSheet') return { op: 'ss.insertSheet', args: { ss: wb.id, name: sheetName } };
  const sheet = wb.sheetByName(sheetName);
  if (!sheet) throw new Error(`no sheet named ${sheetName}`);
  if (!('at' in change)) return { op: 'ss.deleteSheet', args: { ss: wb.id, sheet: sheet.id } };
  return gridCall(wb.id, sheet.id, change);
}

function gridCall(
  ss: string,
  sheet: number,
  change: Extract<StructuralChange, { at: number }>,
): { op: ServiceOp; args: object } {
  const n = change.count ?? 1;
  const at = change.at;
  const base = { ss, sheet };
  if (change.kind === 'insertRows')
    return { op: 'sh.insertRows', args: { ...base, at, n, copyFrom: at > 1 ? at - 1 : at } };
  if (change.kind === 'deleteRows') return { op: 'sh.deleteRows', args: { ...base, start: at, n } };
  if (change.kind === 'insertColumns') return { op: 'sh.insertColumns', args: { ...base, at, n } };
  return { op: 'sh.deleteColumns', args: { ...base, start: at, n } };
}

// The event's `user`: present only for a person Google would name to the script (the owner, a user of the owner's
// domain). For anyone else it is left out, the harsher of the two readings Google's "if available" allows.
function userOf(host: PersonHost, user: string): Record<string, unknown> {
  return host.revealsEditor(user) ? { user: { $user: user } } : {};
}

// Every installable trigger of `type`, each run as the account that made it (a person's change fires everyone's).
async function fire(host: PersonHost, type: 'ON_EDIT' | 'ON_CHANGE', event: object): Promise<ExecutionResult[]> {
  const out: ExecutionResult[] = [];
  for (const t of host.triggers.triggers.filter((x) => x.eventType === type))
    out.push(await host.run(t.handler, [{ ...event, triggerUid: t.uid }], { kind: 'trigger', user: t.owner }));
  return out;
}

// A person typing into the sheet: values are parsed as typed input, then installable on-edit triggers fire, then
// on-change triggers with changeType EDIT. As in Apps Script, e.oldValue and e.value come only for a one-cell edit
// (as text; no oldValue for an empty cell).
export async function personEdit(
  host: PersonHost,
  sheetName: string,
  row: number,
  col: number,
  values: unknown[][],
  user: string,
): Promise<ExecutionResult[]> {
  const wb = host.workbook;
  const sheet = wb.sheetByName(sheetName);
  if (!sheet) throw new Error(`no sheet named ${sheetName}`);
  const single = values.length === 1 && values[0].length === 1;
  const before = single ? wb.getValues(sheet, row, col, 1, 1)[0][0] : '';
  // Journaled as the call a script would make for it.
  const [r, c, nr, nc] = [row, col, values.length, values[0].length];
  const args = { ss: wb.id, sheet: sheet.id, r, c, nr, nc, values };
  const entry = host.journal && sheetEntry(wb, { user, owner: host.owner }, 'rg.setValues', args);
  wb.setValues(sheet, r, c, nr, nc, values);
  if (entry) host.journal!.append(entry(null));
  const after = single ? wb.getValues(sheet, row, col, 1, 1)[0][0] : '';
  const event: Record<string, unknown> = {
    authMode: 'FULL',
    ...userOf(host, user),
    range: { $range: { sheet: sheet.id, name: sheet.name, row, col, rows: nr, cols: nc } },
  };
  if (single && before !== '') event.oldValue = String(before);
  if (single) event.value = String(after);
  await host.journal?.sync();
  const edits = await fire(host, 'ON_EDIT', event);
  return edits.concat(await fire(host, 'ON_CHANGE', { authMode: 'FULL', changeType: 'EDIT', ...userOf(host, user) }));
}

// A person inserting or deleting rows, columns or a sheet in the UI: refused as Sheets refuses it (the same handler
// as the script's call), then every installable on-change trigger fires with the change's changeType. No on-edit
// trigger fires: onEdit never sees a row inserted or removed.
export async function personChange(
  host: PersonHost,
  sheetName: string,
  change: StructuralChange,
  user: string,
): Promise<ExecutionResult[]> {
  const wb = host.workbook;
  const { op, args } = callFor(wb, sheetName, change);
  const who = { user, owner: host.owner };
  const ex: ExecContext = {
    id: 0,
    ...who,
    kind: 'person',
    counts: newCounts(),
    clock: new ExecClock(host.hostState().clock),
    writes: new WriteBuffer(who),
  };
  const entry = host.journal && sheetEntry(wb, who, op, args);
  const made = replayOp(host.hostState(), ex, op, args);
  if (entry) host.journal!.append(entry(made));
  await host.journal?.sync();
  return fire(host, 'ON_CHANGE', { authMode: 'FULL', changeType: CHANGE_TYPES[change.kind], ...userOf(host, user) });
}
