// Retention and archive: the daily check, and the run that moves rows to the archive spreadsheet.
//
// A run plans the move (src/core/audit/retention-plan.ts), then for each batch of whole discussions: copies the rows
// verbatim into the archive (a key already there is not copied twice), flushes, reads them back, and only then, in
// one commit on the spreadsheet under the lock, records `archived` audit events and removes the rows. The Audit tab
// then retires its oldest rows as a prefix of the chain: the chain records the move, the rows are copied and read
// back, then removed. Killed at any point, nothing is lost: a batch copied but not removed is named in the
// KAIGI_ARCHIVE property and moved first by the next run; Audit rows copied but not removed are the archive's last
// rows and are removed first.
import { rowsOf, rowsOfAny, type TabKey, tabByKey } from '../../../sheets-schema/index.js';
import { ARCHIVE_TABS, createArchive, openArchive, shapeArchive, shareArchive } from '../../store/archive.js';
import { sha256Hex } from '../../store/crypto.js';
import { props } from '../../store/services.js';
import { ConfigError, StateError } from '../../core/errors.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import {
  addYears,
  batches,
  MOVING_TABS,
  type MovingTab,
  type MovingUnit,
  planRetention,
  type RetentionYears,
  SHEETS_CELL_LIMIT,
} from '../../core/audit/retention-plan.js';
import { DAY_MS } from '../../core/api/api-log-retention.js';
import { apiLogOverCap, moveApiLog } from './api-log-archive.js';
import type { Council } from '../sheet-council.js';
import {
  type BatchResult,
  type Book,
  finishAudit,
  moveBatch,
  ROWS_PER_BATCH,
  retireBatch,
  UNITS_PER_BATCH,
} from './retention-move.js';
import { estimateCells, measureCells, readLines, timeOf } from './retention-read.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';

const SCHEDULE = PROPERTY_KEYS.archive;
const ARCHIVE_ID = PROPERTY_KEYS.archiveId;
// A plan is checked again at least this often, whatever it expected: rows waiting on a discussion to settle, and
// the cells of tabs the daily check cannot count (KPI, Members), are looked at again then.
const RECHECK_MS = 30 * 24 * 3600_000;

interface Schedule {
  v: 1;
  // When a row can next become due (epoch ms): before it, the daily check does nothing.
  next: number;
  // Cells of the tabs without tails (KPI, Members, Settings…), as last measured.
  other: number;
  // The tab schema the archive's tabs were last shaped for.
  shaped: string;
  // A batch copied to the archive but not yet removed: discussion ids, and `tab:key` for rows of no discussion.
  pending: string[];
}

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

function readSchedule(): Schedule | null {
  const raw = props.get(SCHEDULE);
  if (!raw) return null;
  let v: Partial<Schedule>;
  try {
    v = JSON.parse(raw) as Partial<Schedule>;
  } catch (e) {
    throw new StateError(`The Script Property ${SCHEDULE} is not JSON (${(e as Error).message}); fix or delete it.`);
  }
  return {
    v: 1,
    next: Number(v.next) || 0,
    other: Number(v.other) || 0,
    shaped: String(v.shaped ?? ''),
    pending: Array.isArray(v.pending) ? v.pending.map(String) : [],
  };
}

function writeSchedule(s: Schedule): void {
  props.set({ [SCHEDULE]: JSON.stringify(s) });
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
  const t = council.settings().number('archive.cell_threshold');
  if (!(t > 0 && t <= 1))
    throw new ConfigError(
      `Settings archive.cell_threshold must be a share of the cell limit above 0 and at most 1, not ${t}`,
    );
  return t;
}

// The columns every archive tab is shaped for, as a digest: when sheets-schema changes, the archive is repaired once.
function schemaSignature(): string {
  return sha256Hex(
    ARCHIVE_TABS.map(
      (k) =>
        `${k}:${tabByKey(k)
          .columns.map((c) => c.key)
          .join(',')}`,
    ).join('|'),
  );
}

// The daily check (from the daily review): a property read, and the store's state. The archive run is queued when
// a row may have come due, the tabs the state knows have grown past the threshold, or the API Log past its row limit.
export function scheduleArchive(council: Council): { queued: boolean } {
  const now = council.now();
  let s = readSchedule();
  if (!s) {
    // First look at this spreadsheet: the oldest rows say when anything can come due.
    s = { v: 1, next: firstDue(council, now), other: 0, shaped: '', pending: [] };
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

// The archive spreadsheet named in the Script Properties, or a new one named in Settings; its tabs as the schema says.
function archiveBook(
  council: Council,
  s: Schedule,
): { ss: GoogleAppsScript.Spreadsheet.Spreadsheet; created: boolean } {
  const id = props.get(ARCHIVE_ID);
  const tz = council.ss.getSpreadsheetTimeZone();
  let ss: GoogleAppsScript.Spreadsheet.Spreadsheet;
  let created = false;
  if (id) {
    try {
      ss = openArchive(id);
    } catch (e) {
      throw new ConfigError(
        `The archive spreadsheet ${id} (Script Property ${ARCHIVE_ID}) cannot be opened: ${(e as Error).message}. ` +
          'Rows moved there are only there: give this account access again. Nothing was moved.',
      );
    }
    const zone = ss.getSpreadsheetTimeZone();
    if (zone !== tz)
      throw new ConfigError(
        `The archive's time zone is ${zone} and the spreadsheet's ${tz}: a date copied between them would change. ` +
          'Set both to the same zone. Nothing was moved.',
      );
  } else {
    ss = createArchive(council.settings().get('archive.spreadsheet_name') || 'Kaigi Archive', tz);
    // Remembered at once: a run cut short after this reuses the spreadsheet instead of creating another.
    props.set({ [ARCHIVE_ID]: ss.getId() });
    created = true;
  }
  shareArchive(ss, council.ss);
  const sig = schemaSignature();
  if (created || s.shaped !== sig) {
    shapeArchive(ss);
    s.shaped = sig;
    writeSchedule(s);
  }
  return { ss, created };
}

// Another execution holding a lease may hold row numbers of these tabs between its read and its commit.
// Another archive run with a live lease: this one leaves the work to it.
function anotherRun(council: Council, self: string): boolean {
  const now = council.now();
  return council.queue
    .read(council.store.readState())
    .some(
      (i) => i.id !== self && i.type === TASK_KINDS.archive.type && i.status === 'processing' && i.lease_until > now,
    );
}

function open(council: Council, s: Schedule, report: ArchiveReport): Book {
  const opened = archiveBook(council, s);
  const book: Book = { ss: opened.ss, id: opened.ss.getId() };
  report.archive = book.id;
  report.created = opened.created;
  return book;
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
function moveApiLogInto(council: Council, report: ArchiveReport, book: () => Book, deadline: number): number | null {
  const name = tabByKey('api_log').name;
  for (;;) {
    const r = moveApiLog(council, book);
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

// The plan's units, batch by batch until `deadline` (a batch whose rows changed under it is tried up to three times);
// a batch not moved stops the run, marked busy when another execution held the tabs.
function moveUnits(
  council: Council,
  book: Book,
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
  book: Book,
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

// The archive run (the archive.run task): moves what the plan says, batch by batch, until `deadline`.
export function runArchive(council: Council, self: string, deadline: number): ArchiveReport {
  const now = council.now();
  const s = readSchedule() ?? { v: 1, next: 0, other: 0, shaped: '', pending: [] };
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
  const store = council.store;
  // An archive that exists is opened first: Audit rows a run cut short are removed before anything is planned.
  let book: Book | null = props.get(ARCHIVE_ID) ? open(council, s, report) : null;
  if (book) report.audit += finishAudit(council, book);
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
  if (!book && (plan.units.length || plan.audit)) book = open(council, s, report);
  // Without an archive yet, the API Log's move opens one only when its rows are due.
  let apiLog: number | null = null;
  const apiLogFirst = !book;
  if (apiLogFirst) apiLog = moveApiLogInto(council, report, () => (book = open(council, s, report)), deadline);
  if (book) {
    moveUnits(council, book, plan.units, lines.overflow, s, self, deadline, report);
    if (report.done && !apiLogFirst) apiLog = moveApiLogInto(council, report, () => book!, deadline);
    retireAudit(council, book, report.done ? plan.audit : 0, self, deadline, report);
    report.cells.planned = plan.cells.after;
  }
  if (report.done) {
    s.next = Math.min(plan.nextDue ?? Number.POSITIVE_INFINITY, apiLog ?? Number.POSITIVE_INFINITY, now + RECHECK_MS);
    s.pending = [];
  }
  writeSchedule(s);
  report.next = s.next;
  return report;
}
