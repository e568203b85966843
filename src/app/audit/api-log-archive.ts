// The archive run's API Log move: rows past Settings api.log_retention_days, or over api.log_max_rows, leave as a
// prefix of the tab, in whole digest batches (src/core/api/api-log-retention.ts), copied first and removed after.
//
// The archive's API Log rows are the log's oldest rows in order, from its row 2: spreadsheet row r is archive row
// r + archived. A copy is written at those fixed rows, flushed and read back, then one commit under the lock records
// `api_log_archived` and removes the rows. Killed between the copy and the commit, nothing was removed and the next
// run writes the same rows to the same place again (never a second copy); killed between the commit and the mark's
// update, the mark's `moving` note tells the next reader (src/app/api/api-log.ts readMark).
import { columnTypesOf, rowsOf } from '../../../sheets-schema/index.js';
import { commitMove, ensureAuditRoom, placeAt } from '../../store/archive.js';
import { sha256Hex } from '../../store/crypto.js';
import { API_LOG_BATCH } from '../../core/api/api-log-digest.js';
import { API_LOG_ARCHIVED, type ApiLogBatch, planApiLogMove } from '../../core/api/api-log-retention.js';
import { rowDigest } from '../../core/audit/audit-rows.js';
import { StateError } from '../../core/errors.js';
import { readMark, writeMark } from '../api/api-log.js';
import type { Council } from '../sheet-council.js';
import type { Book } from './retention-move.js';
import { readColumns, timeOf } from './retention-read.js';

const audit = rowsOf('audit');
// API Log rows per move: copied, read back and removed in a few calls; more wait for the next move of the run.
const ROWS_PER_MOVE = 5000;

// The batches the spreadsheet's Audit tab records (their first rows and counts), in chain order.
function batchesOf(council: Council): ApiLogBatch[] {
  const store = council.store;
  const out: ApiLogBatch[] = [];
  for (const v of readColumns(store, store.readState(), 'audit', ['event', 'payload_json'])) {
    const r = audit.read(v);
    if (r.event !== API_LOG_BATCH) continue;
    const p = JSON.parse(String(r.payload_json || '{}')) as { first_row?: unknown; row_count?: unknown };
    if (typeof p.first_row === 'number' && typeof p.row_count === 'number')
      out.push({ first: p.first_row, count: p.row_count });
  }
  return out;
}

const same = (a: readonly unknown[], b: readonly unknown[]) => {
  const types = columnTypesOf('api_log');
  return rowDigest(types, a, sha256Hex) === rowDigest(types, b, sha256Hex);
};

export interface ApiLogMoved {
  rows: number;
  nextDue: number | null;
  busy: boolean;
}

// The daily check's question (src/app/audit/retention.ts): does the tab hold more rows than Settings api.log_max_rows?
// Read from the state's tail, so it costs no Sheets call.
export function apiLogOverCap(
  council: Council,
  state: { tails: Record<string, { last: number } | undefined> },
): boolean {
  const cap = council.settings().number('api.log_max_rows');
  return cap > 0 && (state.tails.api_log?.last ?? 1) - 1 > cap;
}

// Plans and makes the move; the archive is opened (or created) only when rows are due.
// No other execution holds API Log row numbers between its read and its commit (writeApiLog reads and writes under
// the lock), so other work in flight does not stop the move.
export function moveApiLog(council: Council, openBook: () => Book): ApiLogMoved {
  const store = council.store;
  const days = council.settings().number('api.log_retention_days');
  const maxKept = council.settings().number('api.log_max_rows');
  const state = store.readState();
  const mark = store.withLock((s) => readMark(s));
  if (!mark || !(days > 0 || maxKept > 0)) return { rows: 0, nextDue: null, busy: false };
  const times = readColumns(store, state, 'api_log', ['time']).map((v) => timeOf(v[0]));
  const plan = planApiLogMove({
    now: council.now(),
    days,
    archived: mark.archived,
    through: Math.min(mark.through, times.length + 1),
    batches: batchesOf(council),
    timeOf: (row) => times[row - 2] ?? null,
    maxRows: ROWS_PER_MOVE,
    held: times.length,
    maxKept,
  });
  if (!plan.rows) return { rows: 0, nextDue: plan.nextDue, busy: false };
  const book = openBook();
  const rows = store.readRows('api_log', 2, plan.rows);
  const back = placeAt(book.ss, 'api_log', mark.archived + 2, rows);
  rows.forEach((r, i) => {
    if (!same(r, back[i]))
      throw new StateError(
        `The archive's API Log row ${mark.archived + 2 + i} does not read back as the row it copies; nothing was removed.`,
      );
  });
  const done = store.withLock((s) => {
    const now = readMark(s);
    // Another run moved rows since (or the mark changed by hand): this copy is left for the next run to redo.
    if (!now || now.archived !== mark.archived || now.through < plan.rows + 1) return false;
    const again = store.readRows('api_log', 2, plan.rows);
    again.forEach((r, i) => {
      if (!same(r, rows[i]))
        throw new StateError(`API Log row ${i + 2} changed while it was being archived; nothing was removed.`);
    });
    const tail = s.tails.api_log?.last ?? 1;
    writeMark({ ...now, moving: { rows: plan.rows, tail } });
    const first = mark.archived + 2;
    commitMove(
      store,
      ensureAuditRoom(store, s, 1),
      [
        {
          actor: 'kaigi',
          event: API_LOG_ARCHIVED,
          tab: 'API Log',
          row_key: `API Log:${first}-${first + plan.rows - 1}`,
          payload: {
            archive: book.id,
            rows: plan.rows,
            first_row: first,
            last_row: first + plan.rows - 1,
            batches: plan.batches.length,
            first_batch: plan.batches[0],
            last_batch: plan.batches[plan.batches.length - 1],
          },
        },
      ],
      { api_log: Array.from({ length: plan.rows }, (_, i) => i + 2) },
      [],
      new Date(council.now()).toISOString(),
    );
    writeMark({ through: now.through - plan.rows, archived: now.archived + plan.rows });
    return true;
  });
  return { rows: done ? plan.rows : 0, nextDue: plan.nextDue, busy: !done };
}
