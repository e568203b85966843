// The year bench's API traffic on the fast path: a day of authenticated calls' API Log rows appended as the log's
// drain appends them, closed by one api_log_batch audit event over them, and the log's digest mark moved on.
import type { Runtime } from '../runtime/runtime.js';
import { rowsOf } from '../sheets-schema/index.js';
import { API_LOG_BATCH, batchPayload } from '../src/core/api/api-log-digest.js';
import { PROPERTY_KEYS } from '../src/core/property-keys.js';
import { appendAudit, appendRows, readState, sha256, writeState } from './year-audit.js';
import { sheet } from './discussion.js';

// What a polling client calls, in turn: the reads a CRM or an executor makes between its writes.
const CALLS = ['GET /tasks/{id}', 'GET /orders', 'GET /discussions', 'GET /status'];

// `perMinute` calls a minute from `from` for `minutes` minutes, by client `client`. Returns the rows written.
export function apiTraffic(rt: Runtime, from: number, minutes: number, perMinute: number, client: string): number {
  const state = readState(rt);
  const cols = rowsOf('api_log');
  const rows: unknown[][] = [];
  for (let m = 0; m < minutes; m++)
    for (let k = 0; k < perMinute; k++)
      rows.push(
        cols.write({
          time: new Date(from + m * 60_000 + Math.floor((k * 60_000) / perMinute)),
          client,
          call: CALLS[(m + k) % CALLS.length],
          status: 200,
          code: '',
          duration_ms: 180 + ((m * 7 + k * 13) % 400),
        }),
      );
  if (!rows.length) return 0;
  const raw = rt.scriptProperties.get(PROPERTY_KEYS.apiLogDigest);
  const mark = raw ? (JSON.parse(raw) as { through: number; archived: number }) : null;
  const tail = state.tails.api_log?.last ?? 1;
  const through = mark ? Number(mark.through) : tail;
  const archived = mark ? Number(mark.archived) || 0 : 0;
  const first = appendRows(rt, state, 'api_log', rows);
  // Rows a real call appended since the last batch join this one, as the next drain's batch would take them.
  const s = sheet(rt.workbook, 'API Log');
  const earlier: unknown[][] =
    first - 1 > through ? rt.workbook.getValues(s, through + 1, 1, first - 1 - through, cols.width) : [];
  const batch = earlier.concat(rows);
  const at = new Date(from + minutes * 60_000).toISOString();
  appendAudit(rt, state, [
    {
      at,
      event: {
        actor: 'system',
        event: API_LOG_BATCH,
        tab: '',
        row_key: `API Log:${through + 1 + archived}`,
        payload: batchPayload(through + 1 + archived, batch, sha256),
      },
    },
  ]);
  writeState(rt, state);
  rt.scriptProperties.set({
    [PROPERTY_KEYS.apiLogDigest]: JSON.stringify({ through: first + rows.length - 1, archived }),
  });
  return rows.length;
}
