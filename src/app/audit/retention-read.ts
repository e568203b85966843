// What the archive run reads of the spreadsheet: narrow columns to plan with, whole rows to copy, and the cells.
import {
  APPEND_TABS,
  auditKeyOf,
  rowsOf,
  rowsOfAny,
  type TabKey,
  tabByKey,
  TABS,
} from '../../../sheets-schema/index.js';
import { isDate } from '../../store/records.js';
import type { Store, StoreState } from '../../store/store.js';
import { parsePointer } from '../../core/cells.js';
import type { AuditLine, DiscussionLine, Line, MovingTab } from '../../core/audit/retention-plan.js';
import { parseInstant } from '../../core/instant.js';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

// A cell's date as epoch ms: a date cell, or the ISO text the Messages and Audit tabs keep; null otherwise.
export function timeOf(v: unknown): number | null {
  if (isDate(v)) return Number.isNaN(v.getTime()) ? null : v.getTime();
  if (typeof v === 'string' && v !== '') {
    const t = parseInstant(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

// Some columns of a tab's committed rows, one read per run of adjacent columns (wide text columns are skipped),
// as full-width rows with the other cells empty. Rows past the committed tail are a dead commit's and not read.
function readColumns(store: Store, state: StoreState, tab: TabKey, names: readonly string[]): unknown[][] {
  const last = state.tails[tab]?.last ?? 1;
  if (last < 2) return [];
  const cols = rowsOfAny(tab);
  const idx = names.map((n) => cols.index(n)).sort((a, b) => a - b);
  const out: unknown[][] = Array.from({ length: last - 1 }, () => new Array(cols.width).fill(''));
  let i = 0;
  while (i < idx.length) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1] === idx[j] + 1) j++;
    const from = idx[i];
    const width = idx[j] - from + 1;
    const values = store
      .sheet(tab)
      .getRange(2, from + 1, last - 1, width)
      .getValues();
    values.forEach((v, r) => {
      for (let c = 0; c < width; c++) out[r][from + c] = v[c];
    });
    i = j + 1;
  }
  return out;
}

function blank(values: readonly unknown[]): boolean {
  return values.every((v) => v === '' || v === null || v === undefined);
}

function lines(
  store: Store,
  state: StoreState,
  tab: Exclude<MovingTab, 'discussions'>,
  names: readonly string[],
  at: (r: Record<string, unknown>) => number | null,
): Line[] {
  const cols = rowsOfAny(tab);
  const out: Line[] = [];
  readColumns(store, state, tab, names).forEach((v, i) => {
    if (blank(v)) return;
    const r = cols.read(v);
    out.push({ row: i + 2, key: auditKeyOf(tab, v), discussion: String(r.discussion_id), at: at(r) });
  });
  return out;
}

export interface MainLines {
  discussions: DiscussionLine[];
  messages: Line[];
  orders: Line[];
  objections: Line[];
  outcomes: Line[];
  audit: AuditLine[];
  overflow: { row: number; id: string; owner: string }[];
}

// The dates retention counts from: a discussion from when it closed (or was created, if it never closed), an
// order from its last change, an objection from its resolution (or filing), an outcome from its measurement.
export function readLines(store: Store, state: StoreState): MainLines {
  const discussions: DiscussionLine[] = [];
  const d = rowsOf('discussions');
  readColumns(store, state, 'discussions', ['discussion_id', 'status', 'created_at', 'closed_at']).forEach((v, i) => {
    if (blank(v)) return;
    const r = d.read(v);
    discussions.push({
      row: i + 2,
      key: String(r.discussion_id),
      discussion: String(r.discussion_id),
      status: String(r.status),
      at: timeOf(r.closed_at) ?? timeOf(r.created_at),
      created: timeOf(r.created_at),
    });
  });
  const audit: AuditLine[] = [];
  readColumns(store, state, 'audit', ['seq', 'timestamp']).forEach((v, i) => {
    if (!blank(v)) audit.push({ row: i + 2, seq: Number(v[0]), at: timeOf(v[1]) });
  });
  const overflow: MainLines['overflow'] = [];
  const o = rowsOf('overflow');
  readColumns(store, state, 'overflow', ['blob_id', 'owner', 'chunk']).forEach((v, i) => {
    const r = o.read(v);
    if (r.blob_id !== '') overflow.push({ row: i + 2, id: String(r.blob_id), owner: String(r.owner) });
  });
  return {
    discussions,
    messages: lines(
      store,
      state,
      'messages',
      ['message_id', 'discussion_id', 'seq', 'chunk', 'chunks', 'phase', 'speaker', 'message_type', 'timestamp'],
      (r) => timeOf(r.timestamp),
    ),
    orders: lines(store, state, 'orders', ['order_id', 'discussion_id', 'updated_at'], (r) => timeOf(r.updated_at)),
    objections: lines(
      store,
      state,
      'objections',
      ['objection_id', 'discussion_id', 'created_at', 'resolved_at'],
      (r) => timeOf(r.resolved_at) ?? timeOf(r.created_at),
    ),
    outcomes: lines(store, state, 'outcomes', ['outcome_id', 'discussion_id', 'evaluated_at'], (r) =>
      timeOf(r.evaluated_at),
    ),
    audit,
    overflow,
  };
}

// Whole rows of a tab, by sheet row, in one read of the span they cover.
export function readWhole(store: Store, tab: TabKey, rows: readonly number[]): Record<number, unknown[]> {
  const out: Record<number, unknown[]> = {};
  if (!rows.length) return out;
  const from = Math.min(...rows);
  const to = Math.max(...rows);
  const values = store.readRows(tab, from, to - from + 1);
  for (const r of rows) out[r] = values[r - from];
  return out;
}

// The keys at the given rows, read again under the lock: one narrow read of the span they cover.
export function keysAt(store: Store, tab: TabKey, rows: readonly number[], width: number): Record<number, string> {
  const out: Record<number, string> = {};
  if (!rows.length) return out;
  const from = Math.min(...rows);
  const to = Math.max(...rows);
  const values = store
    .sheet(tab)
    .getRange(from, 1, to - from + 1, width)
    .getValues();
  for (const r of rows) {
    const v = values[r - from];
    out[r] = tab === 'overflow' ? String(v[0]) : tab === 'audit' ? String(v[0]) : auditKeyOf(tab, v);
  }
  return out;
}

// The Overflow ids the cells of these rows point to.
export function pointedBlobs(rows: readonly unknown[][]): string[] {
  const out: string[] = [];
  for (const r of rows)
    for (const v of r) {
      const p = parsePointer(v);
      if (p && p.$ref === 'Overflow') out.push(p.id);
    }
  return out;
}

// Cells of the whole spreadsheet, split into the tabs whose size the store's tails know and the others, with each
// sheet's grid width (what deleting one of its rows gives back).
export function measureCells(ss: Spreadsheet): { used: number; other: number; widths: Record<string, number> } {
  const tailed: Record<string, TabKey> = {};
  for (const key of APPEND_TABS) {
    const t = tabByKey(key);
    tailed[t.name] = key;
    tailed[t.nameJa] = key;
  }
  let used = 0;
  let other = 0;
  const widths: Record<string, number> = {};
  for (const s of ss.getSheets()) {
    const rows = s.getMaxRows();
    const cols = s.getMaxColumns();
    used += rows * cols;
    const key = tailed[s.getName()];
    if (key) widths[key] = cols;
    else other += rows * cols;
  }
  return { used, other, widths };
}

// The cells the daily check counts without opening a sheet: the tailed tabs from the store's state (their grid
// is as wide as their columns), the others as last measured.
export function estimateCells(state: StoreState, other: number): number {
  let n = other;
  for (const t of TABS) {
    const tail = state.tails[t.key];
    if (tail) n += tail.max * t.columns.length;
  }
  return n;
}
