// The year bench's fast path into the workbook: rows appended straight into the runtime's sheets, with the audit
// chain, the store's tails and its counters moved on exactly as a commit by Kaigi would have left them.
import { createHash } from 'node:crypto';
import type { Runtime } from '../runtime/runtime.js';
import type { SheetModel } from '../runtime/host/workbook.js';
import { tabByKey, type TabKey } from '../sheets-schema/index.js';
import { type AuditEvent, auditRows } from '../src/core/audit/audit.js';
import { PROPERTY_KEYS } from '../src/core/property-keys.js';
import { sheet } from './discussion.js';

export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

// The parts of the store's state (KAIGI_STATE) the fast path moves on; the rest is kept as read.
export interface StoreState {
  tails: Record<string, { last: number; max: number }>;
  audit: { seq: number; hash: string };
  counters: Record<string, unknown> & { disc: DayCounter; dec: DayCounter };
  [k: string]: unknown;
}

export interface DayCounter {
  day: string;
  seq: number;
  days: Record<string, number>;
}

export function readState(rt: Runtime): StoreState {
  const raw = rt.scriptProperties.get(PROPERTY_KEYS.state);
  if (!raw) throw new Error('the workbook has no store state: run setup first');
  return JSON.parse(raw) as StoreState;
}

export function writeState(rt: Runtime, s: StoreState): void {
  rt.scriptProperties.set({ [PROPERTY_KEYS.state]: JSON.stringify(s) });
}

// Appends rows after a tab's committed tail, growing its grid as the store grows it; returns the first row written.
export function appendRows(rt: Runtime, state: StoreState, tab: TabKey, rows: unknown[][]): number {
  const wb = rt.workbook;
  const s: SheetModel = sheet(wb, tabByKey(tab).name);
  const at = (state.tails[tab]?.last ?? 1) + 1;
  if (!rows.length) return at;
  const need = at + rows.length - 1 - s.maxRows;
  if (need > 0) wb.insertRows(s, s.maxRows + 1, need + 1000, s.maxRows);
  // Written straight into the model: set-up of the bulk, not an execution, so no service call is counted.
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    const width = Math.max(...chunk.map((r) => r.length));
    const values = chunk.map((r) => Array.from({ length: width }, (_, c) => (r[c] === undefined ? '' : r[c])));
    wb.setValues(s, at + i, 1, chunk.length, width, values);
  }
  state.tails[tab] = { last: at + rows.length - 1, max: s.maxRows };
  return at;
}

// Audit rows for the events, chained from the state's head, each with its own timestamp (ISO text).
export function appendAudit(rt: Runtime, state: StoreState, events: { at: string; event: AuditEvent }[]): void {
  const rows: unknown[][] = [];
  let head = state.audit;
  for (const e of events) {
    const r = auditRows(head, [e.event], e.at, sha256);
    rows.push(...r.rows);
    head = r.head;
  }
  appendRows(rt, state, 'audit', rows);
  state.audit = head;
}

// The per-day id counter moved to `seq` on `day`, as the store's sequence keeps it (its last 40 days).
export function bumpCounter(c: DayCounter, day: string, seq: number): void {
  c.days[day] = Math.max(c.days[day] ?? 0, seq);
  if (day >= c.day) {
    c.day = day;
    c.seq = c.days[day];
  }
  const days = Object.keys(c.days).sort();
  for (const d of days.slice(0, Math.max(0, days.length - 40))) delete c.days[d];
}
