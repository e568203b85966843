// The year bench's bulk discussions: a discussion the real path just decided, copied under new ids and times with
// the audit events its commits wrote, each digest taken again over the copied row and the chain extended.
import type { Runtime } from '../runtime/runtime.js';
import { auditKeyOf, columnTypesOf, rowsOf, type TabKey, tabByKey } from '../sheets-schema/index.js';
import type { AuditEvent } from '../src/core/audit/audit.js';
import { rowDigests } from '../src/core/audit/audit-rows.js';
import { appendAudit, appendRows, bumpCounter, readState, sha256, writeState } from './year-audit.js';
import { sheet } from './discussion.js';

// The tabs a decided discussion's rows stand in; its Queue item and learning are the engine's, not copied.
const TABS: readonly TabKey[] = ['discussions', 'messages', 'orders'];
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z/g;

export interface Template {
  discussion: string;
  // Its decisions, in the Orders tab's order: a discussion decided again (after an objection) has more than one.
  decisions: string[];
  created: number;
  rows: Record<string, unknown[][]>;
  events: { at: string; event: AuditEvent }[];
}

function tabValues(rt: Runtime, tab: TabKey): unknown[][] {
  const s = sheet(rt.workbook, tabByKey(tab).name);
  const last = rt.workbook.lastRow(s);
  return last < 2 ? [] : rt.workbook.getValues(s, 2, 1, last - 1, rowsOf(tab).width);
}

// The last discussion of the log (decided by the real path), its rows, and the audit events on them since `fromSeq`.
export function captureTemplate(rt: Runtime, fromSeq: number): Template {
  const log = tabValues(rt, 'discussions');
  const d = rowsOf('discussions').read(log[log.length - 1]);
  const id = String(d.discussion_id);
  if (d.status !== 'DECIDED') throw new Error(`the template discussion ${id} is ${d.status}, not DECIDED`);
  const rows: Record<string, unknown[][]> = {};
  for (const tab of TABS) {
    const col = rowsOf(tab).index('discussion_id');
    rows[tab] = tabValues(rt, tab).filter((v) => v[col] === id);
  }
  const decisions = Array.from(new Set(rows.orders.map((o) => String(rowsOf('orders').read(o).decision_id))));
  const names: string[] = TABS.map((t) => tabByKey(t).name);
  const audit = rowsOf('audit');
  const events = tabValues(rt, 'audit')
    .map((v) => audit.read(v))
    .filter((a) => Number(a.seq) > fromSeq && names.indexOf(String(a.tab)) >= 0)
    .map((a) => ({
      at: String(a.timestamp),
      event: {
        actor: String(a.actor),
        event: String(a.event),
        tab: String(a.tab),
        row_key: String(a.row_key),
        payload: JSON.parse(String(a.payload_json || '{}')) as Record<string, unknown>,
      },
    }));
  return { discussion: id, decisions, created: Date.parse(String(d.created_at)) || Number(d.created_at), rows, events };
}

// The copy's ids for the template's: its discussion's and each of its decisions'.
type Ids = Record<string, string>;

function escaped(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A text with the template's ids and instants replaced by the copy's, in one pass (a copy's new id may be another
// of the template's: replaced one after another, it would be replaced again).
function rewrite(s: string, ids: Ids, shift: number): string {
  const keys = Object.keys(ids).sort((a, b) => b.length - a.length);
  return s
    .replace(new RegExp(keys.map(escaped).join('|'), 'g'), (m) => ids[m])
    .replace(ISO, (m) => new Date(Date.parse(m) + shift).toISOString());
}

function copyRow(v: readonly unknown[], ids: Ids, shift: number): unknown[] {
  return v.map((c) =>
    c instanceof Date ? new Date(c.getTime() + shift) : typeof c === 'string' ? rewrite(c, ids, shift) : c,
  );
}

// Each message's message_sha256 taken again over its copied chunks, as the engine writes it.
function resealMessages(rows: unknown[][]): void {
  const m = rowsOf('messages');
  const [id, json, seal] = (['message_id', 'message_json', 'message_sha256'] as const).map((c) => m.index(c));
  const text: Record<string, string> = {};
  for (const r of rows) text[String(r[id])] = (text[String(r[id])] ?? '') + String(r[json]);
  for (const r of rows) if (r[seal] !== '') r[seal] = sha256(text[String(r[id])]);
}

// `count` copies of the template on the day `day` (YYYY-MM-DD in the script's zone) starting at `at`, one a minute,
// numbered after the day's discussions so far. Returns the discussion ids and order ids written.
export function cloneDiscussions(
  rt: Runtime,
  t: Template,
  day: string,
  at: number,
  count: number,
): { discussions: string[]; orders: string[] } {
  const state = readState(rt);
  // Numbered after the day's discussions and decisions so far, each counter on its own: a discussion decided again
  // (after an objection) took two decision numbers, and its copies take as many each.
  const first = (state.counters.disc.days[day] ?? 0) + 1;
  const firstDecision = (state.counters.dec.days[day] ?? 0) + 1;
  const perCopy = t.decisions.length;
  const id = (kind: string, n: number) => `${kind}-${day}-${String(n).padStart(3, '0')}`;
  const out = { discussions: [] as string[], orders: [] as string[] };
  const rows: Record<string, unknown[][]> = { discussions: [], messages: [], orders: [] };
  const events: { at: string; event: AuditEvent }[] = [];
  // Where each copied row will stand, to take its digest at its row.
  const next: Record<string, number> = {};
  for (const tab of TABS) next[tab] = (state.tails[tab]?.last ?? 1) + 1;
  const orderCol = rowsOf('orders').index('order_id');
  for (let i = 0; i < count; i++) {
    const disc = id('DISC', first + i);
    const ids: Ids = { [t.discussion]: disc };
    t.decisions.forEach((d, k) => (ids[d] = id('DEC', firstDecision + i * perCopy + k)));
    const shift = at + i * 60_000 - t.created;
    const placed: Record<string, { row: number; values: unknown[] }> = {};
    for (const tab of TABS)
      for (const v of t.rows[tab]) {
        const values = copyRow(v, ids, shift);
        if (tab === 'orders') out.orders.push(String(values[orderCol]));
        rows[tab].push(values);
        placed[`${tabByKey(tab).name}|${auditKeyOf(tab, values)}`] = { row: next[tab]++, values };
      }
    resealMessages(rows.messages.slice(rows.messages.length - t.rows.messages.length));
    out.discussions.push(disc);
    for (const e of t.events) {
      const payload = JSON.parse(rewrite(JSON.stringify(e.event.payload), ids, shift)) as Record<string, unknown>;
      const key = rewrite(e.event.row_key, ids, shift);
      const p = placed[`${e.event.tab}|${key}`];
      const tab = TABS.find((k) => tabByKey(k).name === e.event.tab)!;
      // Only the row's latest digest is checked: every event on it records the copy's final row.
      if (p && payload.digest) payload.digest = { row: p.row, ...rowDigests(columnTypesOf(tab), p.values, sha256) };
      events.push({
        at: rewrite(e.at, ids, shift),
        event: { ...e.event, row_key: key, payload },
      });
    }
  }
  // The message seals changed after the digests were planned: digests are taken once more on the final rows.
  for (const e of events) {
    const d = e.event.payload.digest as { row: number } | undefined;
    if (!d) continue;
    const tab = TABS.find((k) => tabByKey(k).name === e.event.tab)!;
    const values = rows[tab][d.row - ((state.tails[tab]?.last ?? 1) + 1)];
    e.event.payload.digest = { row: d.row, ...rowDigests(columnTypesOf(tab), values, sha256) };
  }
  for (const tab of TABS) appendRows(rt, state, tab, rows[tab]);
  appendAudit(rt, state, events);
  bumpCounter(state.counters.disc, day, first + count - 1);
  bumpCounter(state.counters.dec, day, firstDecision + count * perCopy - 1);
  writeState(rt, state);
  return out;
}
