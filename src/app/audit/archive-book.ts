// The archive spreadsheet the archive run writes to: opened, or made, shaped and shared, and left for a new one when
// it nears its cell limit (Settings archive.max_share). Also the run's schedule (Script Property KAIGI_ARCHIVE).
//
// A new archive is started only between moves, when the full one holds no copy its move has not recorded: a batch of
// discussions named pending (copied, not yet removed) is finished where its copy is, Audit rows a retirement left in
// both places (removed at the start of every run) stop it, and API Log rows a killed move left below the log's
// recorded rows are cleared. Then
// the new spreadsheet is made and, in one Script Property write, added to the archive list (src/store/archive-list.ts)
// with where the Audit chain and the API Log go on in it; killed before that write, the spreadsheet is an empty one
// nobody reads (as when the first archive is made) and the next run starts another.
import {
  ARCHIVE_TABS,
  ArchiveTab,
  clearFrom,
  createArchive,
  gridCells,
  openArchive,
  shapeArchive,
  shareArchive,
} from '../../store/archive.js';
import { type ArchiveEntry, readArchives, writeArchives } from '../../store/archive-list.js';
import { sha256Hex } from '../../store/crypto.js';
import { props } from '../../store/services.js';
import { findSheet } from '../../store/tab-find.js';
import { type TabKey, tabByKey } from '../../../sheets-schema/index.js';
import { ConfigError, StateError } from '../../core/errors.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { SHEETS_CELL_LIMIT } from '../../core/audit/retention-plan.js';
import { readMark } from '../api/api-log.js';
import type { Council } from '../sheet-council.js';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

const SCHEDULE = PROPERTY_KEYS.archive;

export interface Schedule {
  v: 1;
  // When a row can next become due (epoch ms): before it, the daily check does nothing.
  next: number;
  // Cells of the tabs without tails (KPI, Members, Settings…), as last measured.
  other: number;
  // The tab schema the archives' tabs were last shaped for.
  shaped: string;
  // A batch copied to the archive but not yet removed: discussion ids, and `tab:key` for rows of no discussion.
  pending: string[];
  // The Audit sequence of the first API Log batch the last run read: the next reads the Audit tab from there (0: all).
  log_seq: number;
}

export function readSchedule(): Schedule | null {
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
    log_seq: Number(v.log_seq) || 0,
  };
}

export function writeSchedule(s: Schedule): void {
  props.set({ [SCHEDULE]: JSON.stringify(s) });
}

// The archive rows move to now.
export interface Book {
  ss: Spreadsheet;
  id: string;
  // Where the Audit chain and the API Log go on in it (src/store/archive-list.ts).
  auditFrom: number;
  apiLogFrom: number;
  // Its grid's cells: measured at its first move of the run, then counted up by each move's estimate (measured
  // again whenever the count nears the limit).
  cells: number | null;
  // Its tabs as this run found them (the keys each holds read once): only this run writes to the archive.
  tabs: Partial<Record<TabKey, ArchiveTab>>;
}

// A tab of the archive, with the keys it holds read at its first use in the run and kept up to date by its copies.
export function archiveTab(book: Book, tab: TabKey): ArchiveTab {
  return (book.tabs[tab] ??= new ArchiveTab(book.ss, tab));
}

// The columns every archive tab is shaped for, as a digest: when sheets-schema changes, the archives are repaired once.
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

// A Settings share of the cell limit (archive.cell_threshold, archive.max_share): above 0 and at most 1.
export function cellShare(council: Council, key: 'archive.cell_threshold' | 'archive.max_share'): number {
  const t = council.settings().number(key);
  if (!(t > 0 && t <= 1))
    throw new ConfigError(`Settings ${key} must be a share of the cell limit above 0 and at most 1, not ${t}`);
  return t;
}

// An archive of the list, opened as this account, in the spreadsheet's time zone, or why not (nothing moves then).
function openChecked(id: string, tz: string): Spreadsheet {
  let ss: Spreadsheet;
  try {
    ss = openArchive(id);
  } catch (e) {
    throw new ConfigError(
      `The archive spreadsheet ${id} (Script Property ${PROPERTY_KEYS.archives}) cannot be opened: ${(e as Error).message}. ` +
        'Rows moved there are only there: give this account access again. Nothing was moved.',
    );
  }
  const zone = ss.getSpreadsheetTimeZone();
  if (zone !== tz)
    throw new ConfigError(
      `The archive's time zone is ${zone} and the spreadsheet's ${tz}: a date copied between them would change. ` +
        'Set both to the same zone. Nothing was moved.',
    );
  return ss;
}

// Whether an archive holds rows the chain records as moved there: one that holds none is never left for a new one, so
// a run killed just after starting an archive, or a share set below an empty archive's own grid, starts no chain of
// empty ones. Its API Log rows count as far as the log's mark says (a copy a killed move left below them is not
// the log's); a row of another tab is a move's (a batch copied and not yet removed is pending, and a retirement's
// Audit rows were removed at the start of the run).
function holdsRows(council: Council, book: Book): boolean {
  const mark = council.store.withLock((state) => readMark(state));
  if (mark && mark.archived > book.apiLogFrom) return true;
  return ARCHIVE_TABS.some((tab) => {
    if (tab === 'api_log') return false;
    const sheet = findSheet(book.ss, tabByKey(tab));
    return sheet !== null && sheet.getLastRow() >= 2;
  });
}

// The archives one run writes to: the current one, opened on first use, and any it starts when that one is full.
export class ArchiveBooks {
  private book: Book | null = null;
  // Archives this run made (the first, or one started when the last was full).
  created = 0;

  constructor(
    private readonly council: Council,
    private readonly s: Schedule,
  ) {}

  // Whether the list names an archive already (a run with nothing due opens none).
  exists(): boolean {
    return this.book !== null || readArchives().length > 0;
  }

  // The current archive, or the first one, made now.
  current(): Book {
    if (this.book) return this.book;
    const list = readArchives();
    const tz = this.council.ss.getSpreadsheetTimeZone();
    let last = list[list.length - 1];
    let ss: Spreadsheet;
    if (last) ss = openChecked(last.id, tz);
    else {
      ss = createArchive(this.council.settings().get('archive.spreadsheet_name') || 'Kaigi Archive', tz);
      last = { id: ss.getId(), audit_from: 1, api_log_from: 0 };
      // Remembered at once: a run cut short after this reuses the spreadsheet instead of creating another.
      list.push(last);
      writeArchives(list);
      this.created++;
      this.s.shaped = '';
    }
    this.book = this.prepare(list, last, ss);
    return this.book;
  }

  // The current archive with room for `cells` more under Settings archive.max_share of the cell limit, or a new one
  // when it has none and holds rows. Called before each move; `cells` is counted as the move's.
  room(cells: number): Book {
    let book = this.current();
    const ceiling = SHEETS_CELL_LIMIT * cellShare(this.council, 'archive.max_share');
    if (book.cells === null || book.cells + cells > ceiling) book.cells = gridCells(book.ss);
    if (book.cells + cells > ceiling && !this.s.pending.length && holdsRows(this.council, book))
      book = this.rollOver(book);
    book.cells = (book.cells ?? 0) + cells;
    return book;
  }

  // Leaves the full archive for a new one (the top of this file says why each step is where it is).
  private rollOver(full: Book): Book {
    const store = this.council.store;
    const tz = this.council.ss.getSpreadsheetTimeZone();
    const next = store.withLock((state) => {
      const mark = readMark(state);
      const first = (state.tails.audit?.last ?? 1) >= 2 ? Number(store.readRows('audit', 2, 1)[0][0]) : 0;
      return { audit_from: first || state.audit.seq + 1, api_log_from: mark ? mark.archived : full.apiLogFrom };
    });
    if (new ArchiveTab(full.ss, 'audit').lastSeq() >= next.audit_from)
      throw new StateError(
        `The archive ${full.id} holds Audit rows from seq ${next.audit_from} that are still the spreadsheet's: ` +
          'the next run removes them first. Nothing was moved.',
      );
    clearFrom(full.ss, 'api_log', next.api_log_from - full.apiLogFrom + 2);
    const list = readArchives();
    const name = this.council.settings().get('archive.spreadsheet_name') || 'Kaigi Archive';
    const ss = createArchive(`${name} ${list.length + 1}`, tz);
    const entry: ArchiveEntry = { id: ss.getId(), ...next };
    list.push(entry);
    // The new archive is shaped by prepare, or by the next run (which shapes them all) when this one is killed first.
    const closed = this.s.shaped;
    this.s.shaped = '';
    writeArchives(list, { [SCHEDULE]: JSON.stringify(this.s) });
    this.created++;
    this.book = this.prepare(list, entry, ss, closed);
    return this.book;
  }

  // Shares every archive with the spreadsheet's editors (each may run verifyAudit, which reads them all), and shapes
  // them all when the schema changed (or the current one is new).
  // `closed`: the schema the archives before a new current one were shaped for (a rollover's, which shapes only the
  // new one when they are already shaped for this schema).
  private prepare(list: readonly ArchiveEntry[], current: ArchiveEntry, ss: Spreadsheet, closed = ''): Book {
    const sig = schemaSignature();
    const reshape = this.s.shaped !== sig;
    const tz = this.council.ss.getSpreadsheetTimeZone();
    for (const e of list) {
      const isCurrent = e.id === current.id;
      const book = isCurrent ? ss : openChecked(e.id, tz);
      shareArchive(book, this.council.ss);
      if (reshape && (isCurrent || closed !== sig)) shapeArchive(book);
    }
    if (reshape) {
      this.s.shaped = sig;
      writeSchedule(this.s);
    }
    return {
      ss,
      id: current.id,
      auditFrom: current.audit_from,
      apiLogFrom: current.api_log_from,
      cells: null,
      tabs: {},
    };
  }
}
