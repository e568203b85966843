// What a host-side service handler sees: the runtime's shared state, the calling execution, typed arguments.
import type { ServiceArgs, ServiceOp, ServiceResult } from '../service-calls.js';
import type { CacheStore } from './cache-store.js';
import type { Clock } from './clock.js';
import type { ExecCounts } from './counts.js';
import type { JournalSink } from './journal.js';
import type { LockManager } from './locks.js';
import type { PropertyStore } from './properties-store.js';
import type { QuotaLedger } from './quota.js';
import type { SpreadsheetFiles } from './spreadsheets.js';
import type { ExecClock, TimeModel } from './time-model.js';
import type { TriggerStore } from './triggers.js';
import type { Workbook } from './workbook.js';
import type { WriteBuffer } from './write-buffer.js';

export interface UiRecord {
  menus: { caption: string; items: unknown[] }[];
  sidebars: { title: string; html: string; width: number }[];
  dialogs: { title: string; html: string; modal: boolean }[];
  alerts: { title: string; prompt: string; buttons: string }[];
  toasts: { msg: string; title: string }[];
  // Answers the next alerts/prompts will get; defaults: OK / YES with empty text.
  responses: { button: string; text?: string }[];
}

export interface HostState {
  // The workbook a call is about: the bound spreadsheet's, or (dispatch.ts) the one the call's `ss` names.
  workbook: Workbook;
  // The bound spreadsheet's id and owner (Spreadsheet.getOwner(); null models a shared drive's file, which has none).
  boundId: string;
  owner: string | null;
  // Spreadsheets other than the bound one that users created (SpreadsheetApp.create), by id.
  spreadsheets: SpreadsheetFiles;
  // The bound spreadsheet's editors besides its owner: the runtime's users (users.ts).
  editors: { list(): string[]; add(emails: readonly string[]): void };
  clock: Clock;
  // What each service call costs on the executions' clocks (time-model.ts).
  timeModel: TimeModel;
  locks: LockManager;
  triggers: TriggerStore;
  scriptProperties: PropertyStore;
  userProperties: (user: string) => PropertyStore;
  documentProperties: PropertyStore;
  cache: (scope: string, user: string) => CacheStore;
  ui: UiRecord;
  fetchTimeoutMs: number;
  // Local origins UrlFetchApp may reach all the same (http.ts): the CLI's explicit allowance for a local model server.
  allowLocalFetch: readonly string[];
  timeZone: string;
  // Daily quotas per user (quota.ts).
  quota: QuotaLedger;
  // Where changes to what a save keeps are recorded as they are applied (`kaigi serve`'s journal); absent elsewhere.
  journal?: JournalSink;
}

export interface ExecContext {
  id: number;
  user: string;
  owner: string;
  kind: string;
  counts: ExecCounts;
  // The execution's own clock: the runtime's plus the modelled time its calls took (time-model.ts).
  clock: ExecClock;
  // The spreadsheet writes this execution holds until a read of their sheet, flush() or its normal end.
  writes: WriteBuffer<HostState>;
}

type Handler<K extends ServiceOp> = (
  args: ServiceArgs<K>,
  st: HostState,
  ex: ExecContext,
) => ServiceResult<K> | Promise<ServiceResult<K>>;

// A table of handlers for some operations: an operation left out or not in the map fails to compile.
export type Handlers<K extends ServiceOp = ServiceOp> = { [P in K]: Handler<P> };

// The operations whose names start with one of these prefixes.
export type OpsNamed<Prefix extends string> = Extract<ServiceOp, `${Prefix}.${string}`>;
