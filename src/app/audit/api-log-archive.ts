// The archive run's API Log move: rows past Settings api.log_retention_days, or over api.log_max_rows, leave as a
// prefix of the tab, in whole digest batches (src/core/api/api-log-retention.ts), copied first and removed after.
//
// The archives' API Log rows are the log's oldest rows in order, each archive's from its row 2: spreadsheet row r is
// row r + archived of the log, and row r + archived - apiLogFrom of the archive rows move to now (archive-book.ts).
// A copy is written at those fixed rows, flushed and read back, then one commit under the lock records
// `api_log_archived` and removes the rows. Killed between the copy and the commit, nothing was removed and the next
// run writes the same rows to the same place again (never a second copy); killed between the commit and the mark's
// update, the mark's `moving` note tells the next reader (src/app/api/api-log.ts readMark).
import { columnTypesOf, rowsOf } from '../../../sheets-schema/index.js';
import { commitMove, ensureAuditRoom, moveCells, placeAt } from '../../store/archive.js';
import { API_LOG_BATCH } from '../../core/api/api-log-digest.js';
import { API_LOG_ARCHIVED, type ApiLogBatch, planApiLogMove } from '../../core/api/api-log-retention.js';
import { canonicalRow } from '../../core/audit/audit-rows.js';
import { StateError } from '../../core/errors.js';
import { readMark, writeMark } from '../api/api-log.js';
import type { Council } from '../sheet-council.js';
import type { Book } from './archive-book.js';
import { timeOf } from './retention-read.js';
import type { StoreState } from '../../store/store.js';

const audit = rowsOf('audit');
// API Log rows per move: copied, read back and removed in a few calls (120,000 cells a call); more wait for the next
// move of the run. One client at a tenth of the rate limit logs 8,640 rows a day, so a day's rows move at once.
const ROWS_PER_MOVE = 20_000;

// The batch an api_log_batch Audit row records, from its payload.
function batchOf(payload: unknown): ApiLogBatch | null {
  const p = JSON.parse(String(payload || '{}')) as { first_row?: unknown; row_count?: unknown };
  return typeof p.first_row === 'number' && typeof p.row_count === 'number'
    ? { first: p.first_row, count: p.row_count }
    : null;
}

// The batches the spreadsheet's Audit tab records (their first rows and counts), in chain order, from the last one
// that starts at or before log row `from` (those before it are archived already), and that one's sequence: the next
// run reads the tab from there (the schedule's `log_seq`). Read from `fromSeq` on (0: the whole tab); their row keys
// (`API Log:<first row>`) say where the first one is, so the wide payloads are read only from there on. The Audit
// tab's rows hold consecutive sequences, so a sequence's row is known from the first row's.
function batchesOf(
  council: Council,
  state: StoreState,
  from: number,
  fromSeq: number,
): { batches: ApiLogBatch[]; seq: number } {
  const store = council.store;
  const last = state.tails.audit?.last ?? 1;
  if (last < 2) return { batches: [], seq: 0 };
  const firstSeq = Number(store.readRows('audit', 2, 1)[0][0]) || 1;
  const top = Math.min(last, Math.max(2, fromSeq - firstSeq + 2));
  const at: { row: number; first: number }[] = [];
  const cols = (['event', 'tab', 'row_key'] as const).map((c) => audit.index(c));
  store
    .sheet('audit')
    .getRange(top, cols[0] + 1, last - top + 1, cols[2] - cols[0] + 1)
    .getValues()
    .forEach((v, i) => {
      if (v[0] !== API_LOG_BATCH) return;
      const m = /^API Log:(\d+)$/.exec(String(v[cols[2] - cols[0]]));
      at.push({ row: top + i, first: m ? Number(m[1]) : 0 });
    });
  if (!at.length) return { batches: [], seq: fromSeq };
  let start = 0;
  for (let i = 0; i < at.length; i++) if (at[i].first && at[i].first <= from) start = i;
  // A batch may start before the end of the one before it (a drain killed after its commit): that one too.
  start = Math.max(0, start - 1);
  const first = at[start].row;
  const payloads = store
    .sheet('audit')
    .getRange(first, audit.index('payload_json') + 1, at[at.length - 1].row - first + 1, 1)
    .getValues();
  const batches: ApiLogBatch[] = [];
  for (const a of at.slice(start)) {
    const b = batchOf(payloads[a.row - first][0]);
    if (b) batches.push(b);
  }
  return { batches, seq: firstSeq + first - 2 };
}

// Whether two API Log rows are the same row as verifyAudit reads them: their canonical texts, which the row's digest
// is taken over, compared without taking it (a digest a row, twice a move, is most of a move's own time).
const same = (a: readonly unknown[], b: readonly unknown[]) => {
  const types = columnTypesOf('api_log');
  return canonicalRow(types, a) === canonicalRow(types, b);
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

// One archive run's moves of the API Log. The batches are read once, at the first move: only this run removes API
// Log rows (one archive run at a time), and batches recorded since are left for the next run. Each move reads the
// times of the rows it may take, not the whole tab's: a move ends at a batch's end within ROWS_PER_MOVE rows, or
// takes the first batch due however long, so the times of the first ROWS_PER_MOVE rows and the longest batch's are
// all a plan looks at (a later row reads as no time: not due, for a later move). No other execution holds API Log
// row numbers between its read and its commit (writeApiLog reads and writes under the lock), so other work in
// flight does not stop a move.
export class ApiLogMove {
  private batches: ApiLogBatch[] | null = null;
  // The sequence of the first batch this run read, for the schedule: the next run reads the Audit tab from there.
  seq = 0;

  constructor(
    private readonly council: Council,
    private readonly fromSeq: number,
  ) {}

  // Plans and makes one move; the archive is opened (or created, or a new one started when it is full) only when
  // rows are due, with room for them.
  move(openBook: (cells: number) => Book): ApiLogMoved {
    const council = this.council;
    const store = council.store;
    const days = council.settings().number('api.log_retention_days');
    const maxKept = council.settings().number('api.log_max_rows');
    const mark = store.withLock((s) => readMark(s));
    if (!mark || !(days > 0 || maxKept > 0)) return { rows: 0, nextDue: null, busy: false };
    const state = store.readState();
    if (!this.batches) {
      const read = batchesOf(council, state, mark.archived + 2, this.fromSeq);
      this.batches = read.batches;
      this.seq = read.seq;
    }
    const batches = this.batches;
    const held = (state.tails.api_log?.last ?? 1) - 1;
    const longest = batches.reduce((n, b) => Math.max(n, b.count), 0);
    const window = Math.min(held, ROWS_PER_MOVE + longest);
    const col = rowsOf('api_log').index('time') + 1;
    const times = window
      ? store
          .sheet('api_log')
          .getRange(2, col, window, 1)
          .getValues()
          .map((v) => timeOf(v[0]))
      : [];
    const plan = planApiLogMove({
      now: council.now(),
      days,
      archived: mark.archived,
      through: Math.min(mark.through, held + 1),
      batches,
      timeOf: (row) => times[row - 2] ?? null,
      maxRows: ROWS_PER_MOVE,
      held,
      maxKept,
    });
    if (!plan.rows) return { rows: 0, nextDue: plan.nextDue, busy: false };
    const book = openBook(moveCells('api_log', plan.rows));
    const rows = store.readRows('api_log', 2, plan.rows);
    const first = mark.archived - book.apiLogFrom + 2;
    if (first < 2)
      throw new StateError(
        `The API Log mark says ${mark.archived} rows are archived, fewer than the archives before ${book.id} hold ` +
          `(${book.apiLogFrom}): the mark or the archive list was changed by hand. Nothing was moved.`,
      );
    const back = placeAt(book.ss, 'api_log', first, rows);
    rows.forEach((r, i) => {
      if (!same(r, back[i]))
        throw new StateError(
          `The archive's API Log row ${first + i} does not read back as the row it copies; nothing was removed.`,
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
      const logFirst = mark.archived + 2;
      commitMove(
        store,
        ensureAuditRoom(store, s, 1),
        [
          {
            actor: 'kaigi',
            event: API_LOG_ARCHIVED,
            tab: 'API Log',
            row_key: `API Log:${logFirst}-${logFirst + plan.rows - 1}`,
            payload: {
              archive: book.id,
              rows: plan.rows,
              first_row: logFirst,
              last_row: logFirst + plan.rows - 1,
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
}
