// The API Log tab (SPEC §11): one row per authenticated web API or MCP call — time, client, call, status, code,
// duration; never the token, the raw path or the body — and one summary row per minute for the calls whose token
// was missing or bad (counted in CacheService, src/adapters/gas/unauthorized-cache.ts).
import { rowsOf } from '../../sheets-schema/index.js';
import type { Store } from '../adapters/gas/store.js';
import { endedMinutes, forgetMinutes, type SourceCounts } from '../adapters/gas/unauthorized-cache.js';
import { callLabel } from '../core/api.js';
import { OPERATIONS } from './routes/registry.js';

const cols = rowsOf('api_log');

export interface ApiLogEntry {
  time: number;
  client: string;
  call: string;
  status: number;
  code: string;
  ms: number;
}

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

// Through a commit under the script lock, at the tail the store's state keeps: concurrent calls each get rows of
// their own, a killed execution leaves no half row, and the rows land in the rows the store grew ahead with the
// tab's plain-text formats (Sheet.appendRow would be one round trip cheaper, but past those rows a client named
// "007" or "2026-01-01" would be stored as a number or a date). The minutes of refused calls that have ended ride
// along in the same write. `entry` may be absent: the tick writes the pending summaries alone.
export function writeApiLog(store: Store, entry: ApiLogEntry | null, now = Date.now()): number {
  const ended = endedMinutes(now);
  const summaries = ended.filter((m) => m.counts.length > 0).map((m) => summaryRow(m.minute, m.counts));
  const rows = summaries.concat(entry ? [row(entry)] : []);
  if (!rows.length) {
    forgetMinutes(ended.map((m) => m.minute));
    return 0;
  }
  store.withLock((state) => {
    const c = store.begin(state);
    const last = rows.length - 1;
    if (last > 0) c.append('api_log', rows.slice(0, last), () => 'API Log');
    c.setMarker('api_log', 'append', rows[last], 'API Log');
    c.run(new Date(entry ? entry.time : now).toISOString());
  });
  forgetMinutes(ended.map((m) => m.minute));
  return rows.length;
}
