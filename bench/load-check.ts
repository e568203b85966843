// The load bench's reckoning, on the workbook `kaigi serve` saved: every acknowledged task, room message and KPI row
// exactly once, nothing written for a call refused with an error, each reported order in the status its accepted
// reports lead to, and no record twice in the tabs the run wrote.
import { Runtime } from '../runtime/runtime.js';
import type { TabKey } from '../sheets-schema/index.js';
import { tabRows } from '../tools/tab-rows.js';
import type { Ledger } from './load-clients.js';
import { percentile } from './load-http.js';

export interface LoadCheck {
  lost: number;
  duplicated: number;
  // Rows written for a call whose answer was an error (a lock time-out says nothing was done).
  phantoms: number;
  tasks: { acknowledged: number; opened: number; decided: number; waiting: number; failed: number };
  room_messages: number;
  kpi_rows: number;
  orders: { reported: number; reports: number; inconsistent: number };
  // The load clients' API Log rows: each call's duration on its execution's modelled clock (what Apps Script would
  // have taken, before the row's own write), p50 and p95 by call.
  api_log: { rows: number; modelled_p50_ms: number; modelled_p95_ms: number; by_call: Record<string, number[]> };
  // Where each loss or duplicate was found, at most a few of each, for the report.
  findings: string[];
}

const LADDER = ['PENDING', 'ACKNOWLEDGED', 'IN_PROGRESS', 'DONE'];
// Discussion Log statuses of a discussion the council has finished deliberating.
const DECIDED = ['DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'];

function counts(xs: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function payloadDiscussion(v: unknown): string {
  try {
    return String(JSON.parse(String(v))?.discussion_id ?? '');
  } catch {
    return '';
  }
}

class Reckoning {
  lost = 0;
  duplicated = 0;
  phantoms = 0;
  readonly findings: string[] = [];

  note(what: 'lost' | 'duplicated' | 'phantoms', n: number, where: string): void {
    if (n <= 0) return;
    this[what] += n;
    if (this.findings.length < 20) this.findings.push(`${what} ${n}: ${where}`);
  }

  // Found exactly once: none is lost, more are duplicates.
  once(n: number, where: string): void {
    if (n === 0) this.note('lost', 1, where);
    else this.note('duplicated', n - 1, where);
  }
}

// A record's key that must be unique in its tab: any key found twice is a row written twice.
function uniqueIn(rt: Runtime, r: Reckoning, tab: TabKey, key: (row: Record<string, unknown>) => string): void {
  for (const [k, n] of counts(tabRows(rt, tab).map(key))) if (k && n > 1) r.note('duplicated', n - 1, `${tab} ${k}`);
}

function checkTasks(rt: Runtime, r: Reckoning, ledger: Ledger): LoadCheck['tasks'] {
  const queue = tabRows(rt, 'queue');
  const byKey = new Map<string, Record<string, unknown>[]>();
  for (const q of queue)
    if (q.dedupe_key) byKey.set(String(q.dedupe_key), [...(byKey.get(String(q.dedupe_key)) ?? []), q]);
  const log = counts(tabRows(rt, 'discussions').map((d) => String(d.discussion_id)));
  const status = new Map(tabRows(rt, 'discussions').map((d) => [String(d.discussion_id), String(d.status)]));
  const out = { acknowledged: ledger.tasks.size, opened: 0, decided: 0, waiting: 0, failed: 0 };
  for (const t of ledger.tasks.values()) {
    const rows = byKey.get(`api:${t.client}:key:${t.key}`) ?? [];
    r.once(rows.length, `Queue task of ${t.client} key ${t.key}`);
    const row = rows.find((q) => q.id === t.task_id);
    if (rows.length && !row) r.note('lost', 1, `Queue ${t.task_id} (key ${t.key} is on another task)`);
    const reserved = row ? payloadDiscussion(row.payload_json) : '';
    if (row && reserved && reserved !== t.discussion_id)
      r.note('lost', 1, `${t.task_id} holds ${reserved}, not the acknowledged ${t.discussion_id}`);
    const n = log.get(t.discussion_id) ?? 0;
    if (n > 1) r.note('duplicated', n - 1, `Discussion Log ${t.discussion_id}`);
    if (n > 0) {
      out.opened++;
      if (DECIDED.includes(status.get(t.discussion_id) ?? '')) out.decided++;
    } else if (row && (row.status === 'queued' || row.status === 'processing')) out.waiting++;
    else if (row && (row.status === 'failed' || row.status === 'dead')) out.failed++;
    // Done, yet no discussion: the task ran and its discussion is nowhere.
    else if (row) r.note('lost', 1, `Discussion Log ${t.discussion_id} (its task ${t.task_id} is ${row.status})`);
  }
  for (const k of ledger.refused.values())
    r.note('phantoms', (byKey.get(`api:${k.client}:key:${k.key}`) ?? []).length, `Queue task of refused key ${k.key}`);
  return out;
}

function checkMessages(rt: Runtime, r: Reckoning, ledger: Ledger): void {
  const rows = tabRows(rt, 'room_messages');
  const ids = counts(rows.map((m) => String(m.message_id)));
  const texts = counts(rows.map((m) => `${m.room_name}\u0000${m.message}`));
  for (const m of ledger.messages) {
    r.once(ids.get(m.messageId) ?? 0, `Room Messages ${m.messageId}`);
    // The id may be right and the text another's: the text is found once too, in its room.
    if (ids.get(m.messageId)) r.once(texts.get(`${m.room}\u0000${m.text}`) ?? 0, `Room Messages "${m.text}"`);
  }
}

function checkKpi(rt: Runtime, r: Reckoning, ledger: Ledger): void {
  const rows = tabRows(rt, 'kpi');
  // A date cell is the day's midnight in the spreadsheet's zone: the day it shows there.
  const inZone = new Intl.DateTimeFormat('en-CA', { timeZone: rt.workbook.timeZone });
  const day = (d: unknown) => (d instanceof Date ? inZone.format(d) : String(d).slice(0, 10));
  const key = (k: Record<string, unknown>) => `${k.member_id}\u0000${day(k.date)}\u0000${k.metric}\u0000${k.value}`;
  const found = counts(rows.map(key));
  for (const k of ledger.kpi) r.once(found.get(key({ ...k })) ?? 0, `KPI ${k.member_id} ${k.date} ${k.metric}`);
}

// Reports only move an order forward, so it ends at the furthest status any accepted report gave it; a revised
// decision may cancel an order no one had started carrying out.
function checkOrders(rt: Runtime, r: Reckoning, ledger: Ledger): LoadCheck['orders'] {
  const rows = tabRows(rt, 'orders');
  const status = new Map(rows.map((o) => [String(o.order_id), String(o.status)]));
  const furthest = new Map<string, number>();
  for (const x of ledger.reports)
    furthest.set(x.order_id, Math.max(furthest.get(x.order_id) ?? 0, LADDER.indexOf(x.status)));
  let inconsistent = 0;
  for (const [id, i] of furthest) {
    const now = status.get(id);
    if (now === undefined) r.note('lost', 1, `Orders ${id}`);
    const fine = now === LADDER[i] || (now === 'CANCELLED' && LADDER[i] === 'ACKNOWLEDGED');
    if (now !== undefined && !fine) {
      inconsistent++;
      if (r.findings.length < 20) r.findings.push(`order ${id} is ${now}; accepted reports reached ${LADDER[i]}`);
    }
  }
  return { reported: furthest.size, reports: ledger.reports.length, inconsistent };
}

// Rows of the load's calls only: by its clients, from its start until now (the rooms were entered before, on the
// simulated clock `kaigi run` saved, which may be ahead of the wall clock).
function apiLog(rt: Runtime, clients: ReadonlySet<string>, since: number): LoadCheck['api_log'] {
  const until = Date.now();
  const during = (t: unknown) => t instanceof Date && t.getTime() >= since && t.getTime() <= until;
  const rows = tabRows(rt, 'api_log').filter((r) => clients.has(String(r.client)) && during(r.time));
  const ms = (of: typeof rows) => of.map((r) => Number(r.duration_ms));
  const by_call: Record<string, number[]> = {};
  for (const call of [...new Set(rows.map((r) => String(r.call)))].sort()) {
    const of = ms(rows.filter((r) => r.call === call));
    by_call[call] = [of.length, percentile(of, 0.5), percentile(of, 0.95)];
  }
  return {
    rows: rows.length,
    modelled_p50_ms: percentile(ms(rows), 0.5),
    modelled_p95_ms: percentile(ms(rows), 0.95),
    by_call,
  };
}

export async function checkWorkbook(
  file: string,
  ledger: Ledger,
  clients: ReadonlySet<string>,
  since = 0,
): Promise<LoadCheck> {
  const rt = await Runtime.open(file, { clock: 'real' });
  try {
    const r = new Reckoning();
    const tasks = checkTasks(rt, r, ledger);
    checkMessages(rt, r, ledger);
    checkKpi(rt, r, ledger);
    const orders = checkOrders(rt, r, ledger);
    // No record twice anywhere the run wrote, acknowledged by a client or not.
    uniqueIn(rt, r, 'discussions', (d) => String(d.discussion_id));
    uniqueIn(rt, r, 'queue', (q) => String(q.id));
    uniqueIn(rt, r, 'orders', (o) => String(o.order_id));
    uniqueIn(rt, r, 'room_messages', (m) => String(m.message_id));
    uniqueIn(rt, r, 'messages', (m) => `${m.message_id}#${m.chunk}`);
    uniqueIn(rt, r, 'kpi', (k) => `${k.member_id}\u0000${k.metric}\u0000${String(k.date)}`);
    return {
      lost: r.lost,
      duplicated: r.duplicated + ledger.mismatches,
      phantoms: r.phantoms,
      tasks,
      room_messages: ledger.messages.length,
      kpi_rows: ledger.kpi.length,
      orders,
      api_log: apiLog(rt, clients, since),
      findings: r.findings,
    };
  } finally {
    await rt.close();
  }
}
