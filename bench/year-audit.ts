// The year bench's fast path into the workbook: rows appended straight into the runtime's sheets, with the audit
// chain, the store's tails and its counters moved on exactly as a commit by Kaigi would have left them.
import { createHash } from 'node:crypto';
import type { Runtime } from '../runtime/runtime.js';
import { emptyCell, type SheetModel } from '../runtime/host/workbook.js';
import { type Cell, coerceInput, isDate, zoneOffsetMinutes } from '../runtime/host/values.js';
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

// The instants of these Dates, in ms, earliest and latest.
function span(rows: readonly unknown[][]): [number, number] | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const r of rows)
    for (const v of r)
      if (isDate(v)) {
        const t = v.getTime();
        if (t < lo) lo = t;
        if (t > hi) hi = t;
      }
  return lo <= hi ? [lo, hi] : null;
}

// How a Date written to a cell reads back: Workbook.setValues (runtime/host/values.ts sheetDate) truncates it to the
// second and takes it through the spreadsheet's wall clock and back, which is the truncation alone wherever the
// zone keeps one offset from a day before to a day after it. That is checked over the rows' whole span (two days
// either side; a span over 20 days, or an offset that differs, takes setValues' own way for every cell), so each
// Date is not looked up in the zone's rules one at a time (most of the bulk's set-up time).
function fastDates(tz: string, rows: readonly unknown[][]): boolean {
  const s = span(rows);
  if (!s) return true;
  if (s[1] - s[0] > 20 * 24 * 3600_000) return false;
  return zoneOffsetMinutes(s[0] - 2 * 24 * 3600_000, tz) === zoneOffsetMinutes(s[1] + 2 * 24 * 3600_000, tz);
}

// Appends rows after a tab's committed tail, growing its grid as the store grows it; returns the first row written.
// Written straight into the model, each cell as Workbook.setValues parses it (runtime/host/values.ts coerceInput):
// set-up of the bulk, not an execution, so no service call is counted.
export function appendRows(rt: Runtime, state: StoreState, tab: TabKey, rows: unknown[][]): number {
  const wb = rt.workbook;
  const s: SheetModel = sheet(wb, tabByKey(tab).name);
  const at = (state.tails[tab]?.last ?? 1) + 1;
  if (!rows.length) return at;
  const need = at + rows.length - 1 - s.maxRows;
  if (need > 0) wb.insertRows(s, s.maxRows + 1, need + 1000, s.maxRows);
  const fast = fastDates(wb.timeZone, rows);
  if (!fast) {
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      const width = Math.max(...chunk.map((r) => r.length));
      const values = chunk.map((r) => Array.from({ length: width }, (_, c) => (r[c] === undefined ? '' : r[c])));
      wb.setValues(s, at + i, 1, chunk.length, width, values);
    }
  } else
    rows.forEach((r, i) => {
      const row: (Cell | undefined)[] = [];
      r.forEach((v, c) => {
        const cell = isDate(v)
          ? { v: new Date(Math.floor(v.getTime() / 1000) * 1000) }
          : coerceInput(v, wb.format(s, at + i, c + 1), wb.timeZone);
        if (!emptyCell(cell)) row[c] = cell;
      });
      // A new row of the model's own (the rows past the tail are empty): nothing else shares it.
      s.cells[at + i - 1] = row;
    });
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
