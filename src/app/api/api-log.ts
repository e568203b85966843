// The API Log tab: one row per authenticated web API or MCP call — time, client, call, status, code,
// duration; never the token, the raw path or the body — and one summary row per minute for the calls whose token
// was missing or bad (counted in CacheService, src/store/unauthorized-cache.ts). A call leaves its row in the
// inbox (src/store/api-log-inbox.ts) without the lock; a tick, or a call that finds many waiting, appends them.
import { rowsOf } from '../../../sheets-schema/index.js';
import { sha256Hex } from '../../store/crypto.js';
import { props } from '../../store/services.js';
import type { Store, StoreState } from '../../store/store.js';
import { forgetRows, setWaitingCount, waitingNow } from '../../store/api-log-inbox.js';
import { endedMinutes, forgetMinutes, type SourceCounts } from '../../store/unauthorized-cache.js';
import { callLabel } from '../../core/api/api.js';
import type { InboxEntry } from '../../core/api/api-log-inbox.js';
import { API_LOG_BATCH, batchPayload } from '../../core/api/api-log-digest.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { OPERATIONS } from '../routes/registry.js';
import { ports } from '../../ports.js';

const cols = rowsOf('api_log');

// What one authenticated call's row says (the inbox keeps the same until a tick appends it).
export type ApiLogEntry = InboxEntry;

// The client column of a minute's summary of calls with a missing or bad token.
const UNAUTHENTICATED = 'unauthenticated';
// A summary names at most this many sources, the busiest first; the rest are counted as `others`.
const SUMMARY_SOURCES = 8;

const ROUTES = OPERATIONS.filter((o) => o.http).map((o) => `${o.http!.method} ${o.http!.path}`);
const TOOLS = OPERATIONS.filter((o) => o.tool).map((o) => o.name);

// The call as the log may show it: a known route, method or tool name, else `unknown`.
function loggedCall(called: string): string {
  return callLabel(called, ROUTES, TOOLS);
}

function row(e: ApiLogEntry): unknown[] {
  return cols.write({
    time: new Date(e.time),
    client: e.client,
    call: loggedCall(e.call),
    status: e.status,
    code: e.code,
    duration_ms: Math.max(0, Math.round(e.ms)),
  });
}

// One minute's refused calls as one row: `POST /tasks ×12, mcp ×3` (each source a known name or `unknown`).
function summaryRow(minute: number, counts: SourceCounts): unknown[] {
  const merged = new Map<string, number>();
  for (const [source, n] of counts) {
    const name = loggedCall(source);
    merged.set(name, (merged.get(name) ?? 0) + n);
  }
  const sorted = [...merged].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, SUMMARY_SOURCES).map(([s, n]) => `${s} ×${n}`);
  const rest = sorted.slice(SUMMARY_SOURCES).reduce((a, [, n]) => a + n, 0);
  if (rest) shown.push(`others ×${rest}`);
  return cols.write({
    time: new Date(minute * 60000),
    client: UNAUTHENTICATED,
    call: shown.join(', '),
    status: 401,
    code: 'unauthorized',
    duration_ms: 0,
  });
}

// Where the last batch of API Log rows ended (a Script Property read and written under the lock); absent before the
// first batch of this release, so rows an earlier release wrote stay outside every batch. `through` is a spreadsheet
// row; `archived` the rows the archive run moved away, which batch numbers add (src/core/api/api-log-retention.ts).
// `moving` is set by that run just before its commit removes `rows` rows from a tab `tail` rows long: a run killed
// before it could write the mark again leaves it, and the next reader (under the lock, after the store's recovery)
// tells from the tab's tail whether the removal happened. `draining` is the same for a drain of the inbox: the keys
// of the waiting rows its commit appends (`rows` rows after a tail of `tail`); if the tail shows the commit is in
// place the keys are forgotten, else they stay and the next drain appends them — never twice, never lost.
export interface ApiLogMark {
  through: number;
  archived: number;
  moving?: { rows: number; tail: number };
  draining?: { keys: string[]; rows: number; tail: number };
}

export function readMark(state: StoreState): ApiLogMark | null {
  const m = props.json<Partial<ApiLogMark> | null>(PROPERTY_KEYS.apiLogDigest, null);
  if (!m) return null;
  const mark: ApiLogMark = { through: Number(m.through) || 0, archived: Number(m.archived) || 0 };
  const last = state.tails.api_log?.last ?? 1;
  if (m.moving) {
    if (last === m.moving.tail - m.moving.rows) {
      mark.through -= m.moving.rows;
      mark.archived += m.moving.rows;
    }
  }
  if (m.draining && last >= m.draining.tail + m.draining.rows) forgetRows(m.draining.keys);
  if (m.moving || m.draining) writeMark(mark);
  return mark;
}

export function writeMark(mark: ApiLogMark): void {
  props.set({ [PROPERTY_KEYS.apiLogDigest]: JSON.stringify(mark) });
}

// Waiting rows one drain takes: their keys ride in the mark, which must stay under a property's 8,000 bytes
// (a key is about 36 bytes there).
const DRAIN_ROWS = 150;

// Through a commit under the script lock, at the tail the store's state keeps: concurrent drains each get rows of their
// own, a killed execution leaves no half row, and the rows land in the rows the store grew ahead with the tab's
// plain-text formats (Sheet.appendRow would be one round trip cheaper, but past those rows a client named "007" or
// "2026-01-01" would be stored as a number or a date). What is appended: the minutes of refused calls that have ended,
// then with `drain` the oldest rows authenticated calls left in the inbox (at most DRAIN_ROWS), then `entry` if given
// (a call whose row could not wait in the inbox). Once `digestRows` rows (Settings api.log_digest_rows) are outside a
// batch — or always, with `digestAll` (the tick) — the same commit adds one Audit row holding their digest
// (src/core/api/api-log-digest.ts), so the log joins the audit chain at one Audit row per batch, not per call. Returns
// the rows appended and how many still wait in the inbox.
export function writeApiLog(
  store: Store,
  entry: ApiLogEntry | null,
  // lockWaitMs: how long to wait for the script lock (the store's 30 s when absent); a BusyError past it.
  opts: { digestRows: number; digestAll?: boolean; now?: number; drain?: boolean; lockWaitMs?: number },
): { rows: number; waiting: number } {
  const now = opts.now ?? ports().clock.now();
  if (!entry && !opts.digestAll && !opts.drain) return { rows: 0, waiting: 0 };
  // Under the lock, the minutes read and forgotten too: two calls at once never write one minute twice.
  return store.withLock((state) => {
    const ended = endedMinutes(now);
    const summaries = ended.filter((m) => m.counts.length > 0).map((m) => summaryRow(m.minute, m.counts));
    const tail = state.tails.api_log?.last ?? 1;
    const mark = readMark(state);
    const inbox = opts.drain ? waitingNow(DRAIN_ROWS) : { rows: [], total: 0 };
    const rows = summaries.concat(
      inbox.rows.map((w) => row(w.entry)),
      entry ? [row(entry)] : [],
    );
    const through = mark ? mark.through : tail;
    const archived = mark ? mark.archived : 0;
    const keys = inbox.rows.map((w) => w.key);
    if (keys.length) writeMark({ through, archived, draining: { keys, rows: rows.length, tail } });
    const c = store.begin(state);
    const last = rows.length - 1;
    let first = tail + 1;
    if (last > 0) first = c.append('api_log', rows.slice(0, last), () => 'API Log');
    if (last >= 0) {
      const placed = c.setMarker('api_log', 'append', rows[last], 'API Log').row;
      if (last === 0) first = placed;
    }
    const lastRow = rows.length ? first + rows.length - 1 : tail;
    const pending = lastRow - through;
    const digest = pending > 0 && (pending >= opts.digestRows || !!opts.digestAll);
    if (digest) {
      const earlier = first - 1 > through ? store.readRows('api_log', through + 1, first - 1 - through) : [];
      c.audit({
        actor: 'system',
        event: API_LOG_BATCH,
        tab: '',
        row_key: `API Log:${through + 1 + archived}`,
        payload: batchPayload(through + 1 + archived, earlier.concat(rows), sha256Hex),
      });
    }
    if (rows.length || digest) {
      c.run(new Date(entry ? entry.time : now).toISOString());
      // The commit is in place: the drained rows' properties go, then the mark without the note.
      forgetRows(keys);
      if (digest || !mark || keys.length) writeMark({ through: digest ? lastRow : through, archived });
    }
    forgetMinutes(ended.map((m) => m.minute));
    const waiting = inbox.total - keys.length;
    if (opts.drain) setWaitingCount(waiting);
    return { rows: rows.length, waiting };
  }, opts.lockWaitMs);
}

// Every row waiting in the inbox appended, a drain at a time, as long as `more` allows (the tick's time budget).
export function drainApiLog(store: Store, digestRows: number, more: () => boolean = () => true): number {
  if (!drainDue(store)) return 0;
  let appended = 0;
  for (;;) {
    const r = writeApiLog(store, null, { digestRows, digestAll: true, drain: true });
    appended += r.rows;
    if (r.waiting <= 0 || !more()) return appended;
  }
}

// Whether a drain would write anything, told without the lock from what the tick has read already (the state, the
// mark and the inbox are Script Properties, one read) and one cache read (the refused calls' minutes): a tick after
// a discussion with no API traffic then takes no third lock. A mark left mid-move or mid-drain, rows outside a batch,
// a waiting row or an ended minute each take the full path, which decides under the lock as before.
function drainDue(store: Store): boolean {
  const m = props.json<Partial<ApiLogMark> | null>(PROPERTY_KEYS.apiLogDigest, null);
  if (m?.moving || m?.draining) return true;
  const tail = store.readState().tails.api_log?.last ?? 1;
  if (m && tail > (Number(m.through) || 0)) return true;
  return waitingNow(1).total > 0 || endedMinutes(ports().clock.now()).length > 0;
}
