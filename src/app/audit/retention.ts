// Retention and archive: the daily check, and the run that moves rows to the archive spreadsheet.
//
// A run plans the move (src/core/audit/retention-plan.ts), then for each batch of whole discussions: copies the rows
// verbatim into the archive (a key already there is not copied twice), flushes, reads them back, and only then, in
// one commit on the spreadsheet under the lock, records `archived` audit events and removes the rows. The Audit tab
// then retires its oldest rows as a prefix of the chain: the chain records the move, the rows are copied and read
// back, then removed. Killed at any point, nothing is lost: a batch copied but not removed is named in the
// KAIGI_ARCHIVE property and moved first by the next run; Audit rows copied but not removed are the archive's last
// rows and are removed first. When the archive nears its cell limit, the run goes on into a new one
// (src/app/audit/archive-book.ts).
import { rowsOf, rowsOfAny, type TabKey, tabByKey } from '../../../sheets-schema/index.js';
import { moveCells } from '../../store/archive.js';
import { ConfigError } from '../../core/errors.js';
import {
  addYears,
  batches,
  MOVING_TABS,
  type MovingTab,
  type MovingUnit,
  planRetention,
  type RetentionPlan,
  type RetentionYears,
  SHEETS_CELL_LIMIT,
} from '../../core/audit/retention-plan.js';
import { DAY_MS } from '../../core/api/api-log-retention.js';
import { ApiLogMove, apiLogOverCap } from './api-log-archive.js';
import type { Council } from '../sheet-council.js';
import { ArchiveBooks, type Book, cellShare, readSchedule, type Schedule, writeSchedule } from './archive-book.js';
import {
  AUDIT_PER_BATCH,
  type BatchResult,
  finishAudit,
  moveBatch,
  ROWS_PER_BATCH,
  retireBatch,
  UNITS_PER_BATCH,
} from './retention-move.js';
import { estimateCells, type MainLines, measureCells, readLines, timeOf } from './retention-read.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';

// A plan is checked again at least this often, whatever it expected: rows waiting on a discussion to settle, and
// the cells of tabs the daily check cannot count (KPI, Members), are looked at again then.
const RECHECK_MS = 30 * 24 * 3600_000;

export interface ArchiveReport {
  archive: string;
  created: boolean;
  moved: Record<string, number>;
  audit: number;
  cells: { before: number; planned: number; threshold: number };
  // False when rows were left for the next run: the time budget ran out, or another execution was busy.
  done: boolean;
  busy: boolean;
  next: number;
}

function retentionYears(): RetentionYears {
  const y = (key: TabKey) => {
    const n = (tabByKey(key) as { retentionYears?: number }).retentionYears;
    if (!n) throw new ConfigError(`sheets-schema gives ${tabByKey(key).name} no retention period`);
    return n;
  };
  return {
    discussions: y('discussions'),
    messages: y('messages'),
    orders: y('orders'),
    objections: y('objections'),
    outcomes: y('outcomes'),
    audit: y('audit'),
  };
}

function threshold(council: Council): number {
  return cellShare(council, 'archive.cell_threshold');
}

// The daily check (from the daily review): a property read, and the store's state. The archive run is queued when
// a row may have come due, the tabs the state knows have grown past the threshold, or the API Log past its row limit.
export function scheduleArchive(council: Council): { queued: boolean } {
  const now = council.now();
  let s = readSchedule();
  if (!s) {
    // First look at this spreadsheet: the oldest rows say when anything can come due.
    s = { v: 1, next: firstDue(council, now), other: 0, shaped: '', pending: [], log_seq: 0 };
    writeSchedule(s);
  }
  const state = council.store.readState();
  const full = estimateCells(state, s.other) > SHEETS_CELL_LIMIT * threshold(council) || apiLogOverCap(council, state);
  if (now < s.next && !full && !s.pending.length) return { queued: false };
  council.queue.enqueue(TASK_KINDS.archive, {}, 'LOW', TASK_KINDS.archive.type, 'kaigi');
  return { queued: true };
}

// The oldest row of each tab that moves, read once: nothing can come due before the earliest of their dates.
function firstDue(council: Council, now: number): number {
  const store = council.store;
  const state = store.readState();
  const years = retentionYears();
  const firstDate: Record<string, string> = {
    discussions: 'created_at',
    messages: 'timestamp',
    orders: 'updated_at',
    objections: 'created_at',
    outcomes: 'evaluated_at',
    audit: 'timestamp',
  };
  let due = now + RECHECK_MS;
  for (const tab of Object.keys(firstDate) as (MovingTab | 'audit')[]) {
    if ((state.tails[tab]?.last ?? 1) < 2) continue;
    const cols = rowsOfAny(tab);
    const at = timeOf(
      store
        .sheet(tab)
        .getRange(2, cols.index(firstDate[tab]) + 1, 1, 1)
        .getValues()[0][0],
    );
    // An unreadable date: look now rather than guess.
    due = Math.min(due, at === null ? now : addYears(at, years[tab]));
  }
  const days = Math.max(0, Number(council.settings().number('api.log_retention_days')) || 0);
  if (days && (state.tails.api_log?.last ?? 1) >= 2) {
    const at = timeOf(store.sheet('api_log').getRange(2, 1, 1, 1).getValues()[0][0]);
    due = Math.min(due, at === null ? now : at + days * DAY_MS);
  }
  return due;
}

// Another archive run with a live lease: this one leaves the work to it.
function anotherRun(council: Council, self: string): boolean {
  const now = council.now();
  return council.queue
    .read(council.store.readState())
    .some(
      (i) => i.id !== self && i.type === TASK_KINDS.archive.type && i.status === 'processing' && i.lease_until > now,
    );
}

// Rows a batch deleted moved every row below them up: the later batches' row numbers follow.
function shiftUp(later: readonly MovingUnit[][], deleted: Record<string, number[]>): void {
  for (const tab of MOVING_TABS) {
    const gone = (deleted[tab] ?? []).slice().sort((a, b) => a - b);
    if (!gone.length) continue;
    for (const batch of later)
      for (const u of batch)
        for (const l of u.rows[tab]) {
          let above = 0;
          while (above < gone.length && gone[above] < l.row) above++;
          l.row -= above;
        }
  }
}

// The API Log's rows past retention (src/app/audit/api-log-archive.ts): counted in the report; returns when the next
// batch comes due.
function moveApiLogInto(
  council: Council,
  s: Schedule,
  report: ArchiveReport,
  book: (cells: number) => Book,
  deadline: number,
): number | null {
  const name = tabByKey('api_log').name;
  const log = new ApiLogMove(council, s.log_seq);
  try {
    return moveAll(council, log, report, book, deadline, name);
  } finally {
    if (log.seq) s.log_seq = log.seq;
  }
}

function moveAll(
  council: Council,
  log: ApiLogMove,
  report: ArchiveReport,
  book: (cells: number) => Book,
  deadline: number,
  name: string,
): number | null {
  for (;;) {
    const r = log.move(book);
    if (r.rows) report.moved[name] = (report.moved[name] ?? 0) + r.rows;
    if (r.busy) {
      report.done = false;
      report.busy = true;
    }
    if (!r.rows || r.busy || r.nextDue === null || r.nextDue > council.now()) return r.nextDue;
    if (council.now() >= deadline) {
      report.done = false;
      return r.nextDue;
    }
  }
}

// The cells a batch of units adds to the archive (its Overflow values are not known before it is read: the room
// each tab grows by covers them).
function batchCells(batch: readonly MovingUnit[]): number {
  let n = 0;
  for (const tab of MOVING_TABS)
    n += moveCells(
      tab,
      batch.reduce((a, u) => a + u.rows[tab].length, 0),
    );
  return n;
}

// The plan's units, batch by batch until `deadline` (a batch whose rows changed under it is tried up to three times);
// a batch not moved stops the run, marked busy when another execution held the tabs.
function moveUnits(
  council: Council,
  books: ArchiveBooks,
  units: readonly MovingUnit[],
  overflow: readonly { row: number; id: string; owner: string }[],
  s: Schedule,
  self: string,
  deadline: number,
  report: ArchiveReport,
): void {
  const all = batches(units, ROWS_PER_BATCH, UNITS_PER_BATCH);
  for (let b = 0; b < all.length; b++) {
    if (council.now() >= deadline) {
      report.done = false;
      break;
    }
    const book = books.room(batchCells(all[b]));
    let r: BatchResult = { kind: 'changed' };
    for (let attempt = 0; attempt < 3 && r.kind === 'changed'; attempt++)
      r = moveBatch(
        council,
        book,
        all[b],
        overflow,
        (ids) => {
          s.pending = ids;
          writeSchedule(s);
        },
        self,
      );
    if (r.kind !== 'moved') {
      report.done = false;
      report.busy = r.kind === 'busy';
      break;
    }
    for (const [tab, n] of Object.entries(r.rows)) report.moved[tab] = (report.moved[tab] ?? 0) + n;
    shiftUp(all.slice(b + 1), r.deleted);
  }
}

// Retires `left` Audit rows into the archive, batch by batch until `deadline`; counted in the report.
function retireAudit(
  council: Council,
  books: ArchiveBooks,
  left: number,
  self: string,
  deadline: number,
  report: ArchiveReport,
): void {
  while (left > 0) {
    if (council.now() >= deadline) {
      report.done = false;
      break;
    }
    const book = books.room(moveCells('audit', Math.min(left, AUDIT_PER_BATCH)));
    const n = retireBatch(council, book, left, self);
    if (n === null) {
      report.done = false;
      report.busy = true;
      break;
    }
    if (n === 0) break;
    report.audit += n;
    left -= n;
  }
}

// What the run moves besides the API Log. Nothing can have come due before the schedule's `next`, so until then,
// with no batch pending and the cells under the threshold as the daily check counts them (the store's tails), the
// tabs are not read to plan: the run was queued for the API Log's rows alone.
function planRun(
  council: Council,
  s: Schedule,
  t: number,
  report: ArchiveReport,
): { plan: Pick<RetentionPlan, 'units' | 'audit' | 'nextDue' | 'cells'>; overflow: MainLines['overflow'] } {
  const store = council.store;
  const now = council.now();
  const estimate = estimateCells(store.readState(), s.other);
  if (now < s.next && !s.pending.length && estimate <= SHEETS_CELL_LIMIT * t) {
    report.cells.before = report.cells.planned = estimate;
    return {
      plan: { units: [], audit: 0, nextDue: s.next, cells: { before: estimate, after: estimate, over: 0 } },
      overflow: [],
    };
  }
  const lines = readLines(store, store.readState());
  const cells = measureCells(council.ss);
  const widths = {} as Record<MovingTab | 'audit', number>;
  for (const tab of [...MOVING_TABS, 'audit'] as (MovingTab | 'audit')[])
    widths[tab] = cells.widths[tab] ?? rowsOf(tab).width;
  const plan = planRetention({
    now,
    years: retentionYears(),
    ...lines,
    cells: { used: cells.used, limit: SHEETS_CELL_LIMIT, threshold: t },
    widths,
    pending: s.pending,
  });
  report.cells.before = cells.used;
  report.cells.planned = cells.used;
  s.other = cells.other;
  return { plan, overflow: lines.overflow };
}

// The archive run (the archive.run task): moves what the plan says, batch by batch, until `deadline`.
export function runArchive(council: Council, self: string, deadline: number): ArchiveReport {
  const now = council.now();
  const s = readSchedule() ?? { v: 1, next: 0, other: 0, shaped: '', pending: [], log_seq: 0 };
  const t = threshold(council);
  const report: ArchiveReport = {
    archive: '',
    created: false,
    moved: {},
    audit: 0,
    cells: { before: 0, planned: 0, threshold: t },
    done: true,
    busy: false,
    next: s.next,
  };
  if (anotherRun(council, self)) return { ...report, busy: true };
  const books = new ArchiveBooks(council, s);
  // An archive that exists is opened first: Audit rows a run cut short are removed before anything is planned.
  const existed = books.exists();
  if (existed) report.audit += finishAudit(council, books.current());
  const { plan, overflow } = planRun(council, s, t, report);
  const moving = existed || plan.units.length > 0 || plan.audit > 0;
  // Without an archive yet, the API Log's move opens one only when its rows are due.
  let apiLog: number | null = null;
  if (!moving) apiLog = moveApiLogInto(council, s, report, (n) => books.room(n), deadline);
  else {
    moveUnits(council, books, plan.units, overflow, s, self, deadline, report);
    if (report.done) apiLog = moveApiLogInto(council, s, report, (n) => books.room(n), deadline);
    retireAudit(council, books, report.done ? plan.audit : 0, self, deadline, report);
    report.cells.planned = plan.cells.after;
  }
  if (books.exists()) report.archive = books.current().id;
  report.created = books.created > 0;
  if (report.done) {
    s.next = Math.min(plan.nextDue ?? Number.POSITIVE_INFINITY, apiLog ?? Number.POSITIVE_INFINITY, now + RECHECK_MS);
    s.pending = [];
  }
  writeSchedule(s);
  report.next = s.next;
  return report;
}
