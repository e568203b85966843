// Rows ↔ records for the tabs the engine writes: date cells in the spreadsheet's zone, JSON cells, chunked messages.
import { rowsOf } from '../../sheets-schema/index.js';
import { chunks } from '../core/cells.js';
import { spentOf } from '../core/engine/estimate.js';
import type { Message } from '../core/discussion/messages.js';
import type { QueueItem } from '../core/queue.js';
import type { Discussion, InboxItem, KpiRow, Member, ObjectionRow, OrderRow, Priority, Status } from '../core/types.js';
import { sha256Hex } from './crypto.js';
import { sheetZone } from './spreadsheet.js';
import { ports } from '../ports.js';
import { parseInstant } from '../core/instant.js';

export function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

function ms(v: unknown): number {
  if (isDate(v)) return v.getTime();
  if (typeof v === 'number') return v;
  const t = parseInstant(String(v));
  return Number.isNaN(t) ? 0 : t;
}

// The script's zone (appsscript.json): Kaigi's calendar, by which "today", ids and review dates are counted.
export function scriptZone(): string {
  return ports().host.scriptTimeZone();
}

// An instant's day in a zone never changes: each is formatted once per execution. Reading the KPI tab asks for the
// same few dozen days once for every member's row.
const days: Record<string, string> = {};

export function dayOf(t: number, tz = scriptZone()): string {
  const key = `${tz} ${t}`;
  return days[key] ?? (days[key] = ports().host.formatDate(new Date(t), tz, 'yyyy-MM-dd'));
}

// ---- date cells ----------------------------------------------------------------------------
// A day (YYYY-MM-DD) is a calendar label. In a cell it is midnight in the SPREADSHEET's zone, so the sheet
// shows that day whatever its zone, and a day a person types ("2026-03-08") reads back as that day. Callers
// still pass the script's zone as a second argument; it does not decide how a cell holds a day.

const HOUR = 3600000;
const DAY = 24 * HOUR;

// The zone's offset from UTC at an instant, in ms.
function offsetAt(t: number, tz: string): number {
  const z = ports().host.formatDate(new Date(t), tz, 'Z');
  return (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * 60000;
}

// The instant a wall clock (given as the UTC fields of a number) names in a zone: the earlier one in an hour
// the zone repeats, the hour after in one it skips.
function wallToInstant(wall: number, tz: string): number {
  const before = offsetAt(wall - DAY, tz);
  const valid = [before, offsetAt(wall + DAY, tz)].map((o) => wall - o).filter((t) => t + offsetAt(t, tz) === wall);
  return valid.length ? Math.min(...valid) : wall - before;
}

// A Date as the cell will give it back (the runtime's readings, runtime/host/values.ts): to the whole second,
// and never inside the hours a DST zone repeats, whose wall clock names two instants and is read back as one
// of them. An instant there moves to the nearer edge of those hours, or to the one its meaning allows: a
// lease must not expire early ('later'), work must not become available late ('earlier'). So the value hashed
// for the audit, the time the queue compares and the value the sheet returns are one and the same.
export function cellDate(t: number, edge: 'nearest' | 'earlier' | 'later' = 'nearest', tz = sheetZone()): Date {
  const s = Math.floor(t / 1000) * 1000;
  const a = offsetAt(s - 3 * HOUR, tz);
  const b = offsetAt(s + 3 * HOUR, tz);
  // Only a fall in the offset (clocks going back) repeats wall-clock time; no zone changes twice in six hours.
  if (b >= a) return new Date(s);
  const wall = s + offsetAt(s, tz);
  if (offsetAt(wall - a, tz) !== a || offsetAt(wall - b, tz) !== b) return new Date(s);
  // The offset changes at T, found to the second; the instants T - (a - b) up to T + (a - b) are ambiguous.
  let lo = s - 3 * HOUR;
  let hi = s + 3 * HOUR;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, tz) === a) lo = mid;
    else hi = mid;
  }
  const before = hi - (a - b) - 1000;
  const after = hi + (a - b);
  if (edge === 'nearest') return new Date(s - before <= after - s ? before : after);
  return new Date(edge === 'earlier' ? before : after);
}

// Midnight of a day in the spreadsheet's zone, as the Date a date cell holds. Where midnight itself is repeated
// (a zone that turns its clocks back at 01:00 to 00:00), it moves to the end of that hour: still the same day.
export function dayToDate(day: string, _scriptZone?: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const tz = sheetZone();
  return cellDate(wallToInstant(Date.UTC(y, m - 1, d), tz), 'later', tz);
}

// The day a date cell shows. A Date is read in the spreadsheet's zone (a KPI date typed in an Auckland sheet
// is that Auckland day); a serial number (a date cell formatted as a number) and text are read as written.
export function dayCell(v: unknown, _scriptZone?: string): string {
  if (isDate(v)) return dayOf(v.getTime(), sheetZone());
  if (typeof v === 'number' && v > 0 && v < 2958466)
    return new Date(Date.UTC(1899, 11, 30) + v * DAY).toISOString().slice(0, 10);
  const text = String(v ?? '').trim();
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(text);
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : text;
}

// An instant as the spreadsheet shows it: its wall clock in the sheet's zone, with that zone's offset, so an export
// reads the same as the cell a person sees (2026-12-03T09:00:00+13:00), and still names one instant.
export function sheetInstant(v: Date): string {
  return ports().host.formatDate(v, sheetZone(), "yyyy-MM-dd'T'HH:mm:ssXXX");
}

function json(v: unknown): string {
  return v === null || v === undefined ? '' : JSON.stringify(v);
}

function parseJson<T>(v: unknown, fallback: T): T {
  if (v === '' || v === null || v === undefined) return fallback;
  return JSON.parse(String(v)) as T;
}

// ---- queue ---------------------------------------------------------------------------------

const queueCols = rowsOf('queue');

export function queueRow(i: QueueItem): unknown[] {
  return queueCols.write({
    id: i.id,
    type: i.type,
    from: i.from,
    to: i.to,
    priority: i.priority,
    payload_json: json(i.payload),
    status: i.status,
    attempts: i.attempts,
    available_at: cellDate(i.available_at, 'earlier'),
    lease_owner: i.lease_owner,
    lease_until: i.lease_until ? cellDate(i.lease_until, 'later') : '',
    dedupe_key: i.dedupe_key,
    created_at: cellDate(i.created_at),
    updated_at: cellDate(i.updated_at),
    last_error: i.last_error,
  });
}

export function queueItem(values: unknown[], row: number): QueueItem {
  const r = queueCols.read(values);
  let payload: Record<string, unknown> | null = null;
  let payloadError: string | undefined;
  try {
    payload = parseJson<Record<string, unknown> | null>(r.payload_json, null);
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
      throw new Error('payload is not a JSON object');
  } catch (e) {
    payload = null;
    payloadError = `malformed payload_json: ${(e as Error).message}`;
  }
  return {
    row,
    id: String(r.id),
    type: String(r.type),
    from: String(r.from),
    to: String(r.to),
    priority: (['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'].indexOf(String(r.priority)) >= 0
      ? r.priority
      : 'MEDIUM') as Priority,
    payload,
    payloadError,
    status: String(r.status) as QueueItem['status'],
    attempts: Number(r.attempts) || 0,
    available_at: ms(r.available_at),
    lease_owner: String(r.lease_owner),
    lease_until: ms(r.lease_until),
    dedupe_key: String(r.dedupe_key),
    created_at: ms(r.created_at),
    updated_at: ms(r.updated_at),
    last_error: String(r.last_error),
  };
}

// ---- discussions ---------------------------------------------------------------------------

const logCols = rowsOf('discussions');
const messageCols = rowsOf('messages');

// The budget cells: the estimate written at open (kept as it was on every later write) and the running totals.
export function logRow(
  d: Discussion,
  messagesCell: string,
  estimate: { tokens: unknown; cost_usd: unknown } = { tokens: '', cost_usd: '' },
): unknown[] {
  const spent = spentOf(d.messages);
  return logCols.write({
    discussion_id: d.discussion_id,
    status: d.status,
    priority: d.priority,
    trigger_type: d.trigger.type,
    trigger_target_user: d.trigger.target_user_id,
    trigger_context_json: JSON.stringify({ source: d.trigger.source, context: d.trigger.context }),
    created_at: cellDate(parseInstant(d.created_at)),
    closed_at: d.closed_at ? cellDate(parseInstant(d.closed_at)) : '',
    participants_json: JSON.stringify(d.participants),
    messages_json: messagesCell,
    final_decision_json: json(d.final_decision),
    execution_status: d.execution_status,
    outcome_evaluated: d.outcome_evaluated,
    notes: d.notes.join('\n'),
    estimate_tokens: estimate.tokens,
    estimate_cost_usd: estimate.cost_usd,
    spent_tokens: spent.tokens,
    spent_cost_usd: spent.cost_usd,
    spent_by_phase: spent.by_phase,
  });
}

// Reads a log row whose overflow pointers are already resolved; messages come separately.
export function discussionFromRow(values: unknown[]): Omit<Discussion, 'messages'> {
  const r = logCols.read(values);
  const trig = parseJson<{ source: string; context: Record<string, unknown> }>(r.trigger_context_json, {
    source: '',
    context: {},
  });
  return {
    discussion_id: String(r.discussion_id),
    status: String(r.status) as Status,
    priority: String(r.priority) as Priority,
    trigger: {
      type: String(r.trigger_type),
      source: trig.source,
      target_user_id: String(r.trigger_target_user),
      context: trig.context,
    },
    created_at: new Date(ms(r.created_at)).toISOString(),
    closed_at: r.closed_at === '' ? '' : new Date(ms(r.closed_at)).toISOString(),
    participants: parseJson<string[]>(r.participants_json, []),
    final_decision: parseJson<Record<string, unknown> | null>(r.final_decision_json, null),
    execution_status: String(r.execution_status),
    outcome_evaluated: String(r.outcome_evaluated),
    notes: String(r.notes) ? String(r.notes).split('\n') : [],
  };
}

// A message's rows (its JSON in chunks) and the SHA-256 of that JSON, which the first row and its audit event carry:
// the text is serialised and hashed once for both.
export function messageRecord(m: Message): { rows: unknown[][]; sha256: string } {
  const text = JSON.stringify(m);
  const sha = sha256Hex(text);
  const parts = chunks(text);
  const seq = Number(m.message_id.slice(m.message_id.lastIndexOf('-') + 1));
  const rows = parts.map((p, i) =>
    messageCols.write({
      message_id: m.message_id,
      discussion_id: m.discussion_id,
      seq,
      chunk: i,
      chunks: parts.length,
      phase: m.phase,
      speaker: m.speaker,
      message_type: m.message_type,
      timestamp: m.timestamp,
      message_json: p,
      processing_time_ms: m.metadata.processing_time_ms,
      model_used: m.metadata.model_used,
      tokens_consumed: m.metadata.tokens_consumed,
      fallback_level: m.metadata.fallback_level,
      error_code: m.metadata.error_code ?? '',
      stated_confidence: m.metadata.stated_confidence ?? '',
      computed_confidence: m.metadata.computed_confidence ?? '',
      message_sha256: i === 0 ? sha : '',
    }),
  );
  return { rows, sha256: sha };
}

// Reassembles messages from Messages rows (any order, other discussions' rows mixed in), verifying each hash.
export function messagesFromRows(rows: unknown[][], discussionId: string): Message[] {
  type MessageCells = ReturnType<typeof messageCols.read>;
  const byId: Record<string, MessageCells[]> = {};
  for (const r of rows.map((v) => messageCols.read(v)))
    if (r.discussion_id === discussionId) (byId[String(r.message_id)] ??= []).push(r);
  const out: Message[] = [];
  for (const id of Object.keys(byId)) {
    const parts = byId[id].sort((a, b) => Number(a.chunk) - Number(b.chunk));
    const text = parts.map((p) => String(p.message_json)).join('');
    const first = parts[0];
    const sha = String(first.message_sha256);
    if (parts.length !== Number(first.chunks) || sha256Hex(text) !== sha)
      throw new Error(`message ${id} is incomplete or altered in the Messages tab`);
    out.push(JSON.parse(text) as Message);
  }
  return out.sort((a, b) => (a.message_id < b.message_id ? -1 : 1));
}

// ---- other records -------------------------------------------------------------------------

export function orderRow(o: OrderRow, now: number): unknown[] {
  return rowsOf('orders').write({
    order_id: o.order_id,
    decision_id: o.decision_id,
    discussion_id: o.discussion_id,
    target_agent: o.target_agent,
    action_json: JSON.stringify(o.action),
    status: o.status,
    review_date: dayToDate(o.review_date),
    success_criteria_json: JSON.stringify(o.success_criteria),
    updated_at: cellDate(now),
  });
}

export function objectionRow(o: ObjectionRow): unknown[] {
  return rowsOf('objections').write({
    objection_id: o.objection_id,
    discussion_id: o.discussion_id,
    decision_id: o.decision_id,
    source: o.source,
    objector: o.objector,
    reason: o.reason,
    alternative: o.alternative,
    evidence: o.evidence,
    urgency: o.urgency,
    status: o.status,
    resolution: o.resolution,
    resolved_by: o.resolved_by,
    created_at: o.created_at ? cellDate(parseInstant(o.created_at)) : '',
    resolved_at: o.resolved_at ? cellDate(parseInstant(o.resolved_at)) : '',
  });
}

export function inboxRow(i: InboxItem, now: number): unknown[] {
  return rowsOf('inbox').write({
    inbox_id: i.inbox_id,
    from_agent: i.from_agent,
    type: i.type,
    priority: i.priority,
    title: i.title,
    body: i.body,
    discussion_id: i.discussion_id,
    status: 'unread',
    response: '',
    created_at: cellDate(now),
    updated_at: cellDate(now),
  });
}

// Each row's four cells read by column index, with no object made for the rows skipped: a discussion reads the whole
// tab (hundreds of rows) before its first prompt.
export function kpiFromRows(rows: unknown[][], _scriptZone?: string): KpiRow[] {
  const cols = rowsOf('kpi');
  const [date, member, metric, value] = (['date', 'member_id', 'metric', 'value'] as const).map((c) => cols.index(c));
  const cell = (v: unknown[], i: number): unknown => (i < v.length ? v[i] : '');
  const out: KpiRow[] = [];
  for (const v of rows) {
    const m = cell(v, member);
    const k = cell(v, metric);
    const x = cell(v, value);
    if (m === '' || k === '' || typeof x !== 'number') continue;
    out.push({ date: dayCell(cell(v, date)), member_id: String(m), metric: String(k), value: x });
  }
  return out;
}

export function membersFromRows(rows: unknown[][]): Member[] {
  const cols = rowsOf('members');
  return rows
    .map((v) => cols.read(v))
    .filter((r) => r.member_id !== '')
    .map((r) => ({
      member_id: String(r.member_id),
      name: String(r.name),
      team: String(r.team),
      role: String(r.role),
      best_login_streak: Number(r.best_login_streak) || 0,
      profile: parseJson<Record<string, unknown>>(r.profile_json, {}),
    }));
}
