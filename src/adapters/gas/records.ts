// Rows ↔ records for the tabs the engine writes: times in the script's zone, JSON cells, chunked messages.
import { chunks } from '../../core/cells.js';
import type { Message } from '../../core/messages.js';
import type { QueueItem } from '../../core/queue.js';
import type {
  Discussion,
  InboxItem,
  KpiRow,
  Member,
  ObjectionRow,
  OrderRow,
  Priority,
  Status,
} from '../../core/types.js';
import { sha256Hex } from './crypto.js';

export function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

export function ms(v: unknown): number {
  if (isDate(v)) return v.getTime();
  if (typeof v === 'number') return v;
  const t = Date.parse(String(v));
  return Number.isNaN(t) ? 0 : t;
}

export function scriptZone(): string {
  return Session.getScriptTimeZone();
}

export function dayOf(t: number, tz = scriptZone()): string {
  return Utilities.formatDate(new Date(t), tz, 'yyyy-MM-dd');
}

// Midnight of a day in the script's time zone, as the Date a date cell holds.
export function dayToDate(day: string, tz = scriptZone()): Date {
  const [y, m, d] = day.split('-').map(Number);
  const utc = Date.UTC(y, m - 1, d);
  const z = Utilities.formatDate(new Date(utc), tz, 'Z');
  const offset = (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
  return new Date(utc - offset * 60000);
}

export function dayCell(v: unknown, tz = scriptZone()): string {
  if (isDate(v)) return dayOf(v.getTime(), tz);
  return String(v ?? '');
}

function json(v: unknown): string {
  return v === null || v === undefined ? '' : JSON.stringify(v);
}

function parseJson<T>(v: unknown, fallback: T): T {
  if (v === '' || v === null || v === undefined) return fallback;
  return JSON.parse(String(v)) as T;
}

// ---- queue ---------------------------------------------------------------------------------

export function queueRow(i: QueueItem): unknown[] {
  return [
    i.id,
    i.type,
    i.from,
    i.to,
    i.priority,
    json(i.payload),
    i.status,
    i.attempts,
    new Date(i.available_at),
    i.lease_owner,
    i.lease_until ? new Date(i.lease_until) : '',
    i.dedupe_key,
    new Date(i.created_at),
    new Date(i.updated_at),
    i.last_error,
  ];
}

export function queueItem(r: unknown[], row: number): QueueItem {
  let payload: Record<string, unknown> | null = null;
  let payloadError: string | undefined;
  try {
    payload = parseJson<Record<string, unknown> | null>(r[5], null);
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
      throw new Error('payload is not a JSON object');
  } catch (e) {
    payload = null;
    payloadError = `malformed payload_json: ${(e as Error).message}`;
  }
  return {
    row,
    id: String(r[0]),
    type: String(r[1]),
    from: String(r[2]),
    to: String(r[3]),
    priority: (['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'].indexOf(String(r[4])) >= 0 ? r[4] : 'MEDIUM') as Priority,
    payload,
    payloadError,
    status: String(r[6]) as QueueItem['status'],
    attempts: Number(r[7]) || 0,
    available_at: ms(r[8]),
    lease_owner: String(r[9]),
    lease_until: ms(r[10]),
    dedupe_key: String(r[11]),
    created_at: ms(r[12]),
    updated_at: ms(r[13]),
    last_error: String(r[14]),
  };
}

// ---- discussions ---------------------------------------------------------------------------

export function logRow(d: Discussion, messagesCell: string): unknown[] {
  return [
    d.discussion_id,
    d.status,
    d.priority,
    d.trigger.type,
    d.trigger.target_user_id,
    JSON.stringify({ source: d.trigger.source, context: d.trigger.context }),
    new Date(Date.parse(d.created_at)),
    d.closed_at ? new Date(Date.parse(d.closed_at)) : '',
    JSON.stringify(d.participants),
    messagesCell,
    json(d.final_decision),
    d.execution_status,
    d.outcome_evaluated,
    d.notes.join('\n'),
  ];
}

// Reads a log row whose overflow pointers are already resolved; messages come separately.
export function discussionFromRow(r: unknown[]): Omit<Discussion, 'messages'> {
  const trig = parseJson<{ source: string; context: Record<string, unknown> }>(r[5], { source: '', context: {} });
  return {
    discussion_id: String(r[0]),
    status: String(r[1]) as Status,
    priority: String(r[2]) as Priority,
    trigger: { type: String(r[3]), source: trig.source, target_user_id: String(r[4]), context: trig.context },
    created_at: new Date(ms(r[6])).toISOString(),
    closed_at: r[7] === '' ? '' : new Date(ms(r[7])).toISOString(),
    participants: parseJson<string[]>(r[8], []),
    final_decision: parseJson<Record<string, unknown> | null>(r[10], null),
    execution_status: String(r[11]),
    outcome_evaluated: String(r[12]),
    notes: String(r[13]) ? String(r[13]).split('\n') : [],
  };
}

export function messageRows(m: Message): unknown[][] {
  const text = JSON.stringify(m);
  const sha = sha256Hex(text);
  const parts = chunks(text);
  const seq = Number(m.message_id.slice(m.message_id.lastIndexOf('-') + 1));
  return parts.map((p, i) => [
    m.message_id,
    m.discussion_id,
    seq,
    i,
    parts.length,
    m.phase,
    m.speaker,
    m.message_type,
    m.timestamp,
    p,
    m.metadata.processing_time_ms,
    m.metadata.model_used,
    m.metadata.tokens_consumed,
    m.metadata.fallback_level,
    m.metadata.error_code ?? '',
    m.metadata.stated_confidence ?? '',
    m.metadata.computed_confidence ?? '',
    i === 0 ? sha : '',
  ]);
}

// Reassembles messages from Messages rows (any order, other discussions' rows mixed in), verifying each hash.
export function messagesFromRows(rows: unknown[][], discussionId: string): Message[] {
  const byId: Record<string, unknown[][]> = {};
  for (const r of rows) if (r[1] === discussionId) (byId[String(r[0])] ??= []).push(r);
  const out: Message[] = [];
  for (const id of Object.keys(byId)) {
    const parts = byId[id].sort((a, b) => Number(a[3]) - Number(b[3]));
    const text = parts.map((p) => String(p[9])).join('');
    const sha = String(parts[0][17]);
    if (parts.length !== Number(parts[0][4]) || sha256Hex(text) !== sha)
      throw new Error(`message ${id} is incomplete or altered in the Messages tab`);
    out.push(JSON.parse(text) as Message);
  }
  return out.sort((a, b) => (a.message_id < b.message_id ? -1 : 1));
}

// ---- other records -------------------------------------------------------------------------

export function orderRow(o: OrderRow, now: number): unknown[] {
  return [
    o.order_id,
    o.decision_id,
    o.discussion_id,
    o.target_agent,
    JSON.stringify(o.action),
    o.status,
    dayToDate(o.review_date),
    JSON.stringify(o.success_criteria),
    new Date(now),
  ];
}

export function objectionRow(o: ObjectionRow): unknown[] {
  return [
    o.objection_id,
    o.discussion_id,
    o.decision_id,
    o.source,
    o.objector,
    o.reason,
    o.alternative,
    o.evidence,
    o.urgency,
    o.status,
    o.resolution,
    o.resolved_by,
    o.created_at ? new Date(Date.parse(o.created_at)) : '',
    o.resolved_at ? new Date(Date.parse(o.resolved_at)) : '',
  ];
}

export function inboxRow(i: InboxItem, now: number): unknown[] {
  return [
    i.inbox_id,
    i.from_agent,
    i.type,
    i.priority,
    i.title,
    i.body,
    i.discussion_id,
    'unread',
    '',
    new Date(now),
    new Date(now),
  ];
}

export function kpiFromRows(rows: unknown[][], tz = scriptZone()): KpiRow[] {
  return rows
    .filter((r) => r[1] !== '' && r[2] !== '' && typeof r[3] === 'number')
    .map((r) => ({ date: dayCell(r[0], tz), member_id: String(r[1]), metric: String(r[2]), value: r[3] as number }));
}

export function membersFromRows(rows: unknown[][]): Member[] {
  return rows
    .filter((r) => r[0] !== '')
    .map((r) => ({
      member_id: String(r[0]),
      name: String(r[1]),
      team: String(r[2]),
      role: String(r[3]),
      best_login_streak: Number(r[5]) || 0,
      profile: parseJson<Record<string, unknown>>(r[6], {}),
    }));
}
