// The archive spreadsheet and the store primitives that move rows into it: copy, verify, then remove in one commit.
import { AUDITED_TABS, auditKeyOf, columnTypesOf, rowsOf, type TabKey, tabByKey } from '../../sheets-schema/index.js';
import type { AuditEvent } from '../core/audit/audit.js';
import { canonicalRow } from '../core/audit/audit-rows.js';
import { canonical } from '../core/cells.js';
import { StateError } from '../core/errors.js';
import { planTab } from '../core/tab-plan.js';
import { sha256Hex } from './crypto.js';
import type { Commit, Store } from './store.js';
import type { StoreState, Tail } from './store-format.js';
import { findSheet, readHeader } from './tab-find.js';
import { ports } from '../ports.js';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

// The archive holds every audited tab (verifyAudit reads each of them there), the Audit chain's older part,
// the Overflow values of the rows it holds and the API Log's older rows. Tabs that nothing moves to stay empty.
export const ARCHIVE_TABS: readonly TabKey[] = AUDITED_TABS.concat(['audit', 'overflow', 'api_log']);
// Rows added to an archive tab at a time when it is full, as the store grows its own tabs.
const GROW_BY = 500;

// The cells `rows` more rows of a tab may add to an archive's grid: the rows, and the room a tab grows by at once.
export function moveCells(tab: TabKey, rows: number): number {
  return rows ? (rows + GROW_BY) * rowsOf(tab).width : 0;
}

// A new archive: the name from Settings, the spreadsheet's time zone (a date cell keeps its wall clock in its own
// spreadsheet's zone, so the copy reads back the same instant only in the same zone), and the tabs.
export function createArchive(name: string, timeZone: string): Spreadsheet {
  const ss = ports().spreadsheets.create(name);
  if (ss.getSpreadsheetTimeZone() !== timeZone) ss.setSpreadsheetTimeZone(timeZone);
  return ss;
}

export function openArchive(id: string): Spreadsheet {
  return ports().spreadsheets.openById(id);
}

// The archive is created in the Drive of the account that runs the archive (the workers' owner): shared with the
// spreadsheet's owner and editors, each of whom may run verifyAudit, which reads it. Run at creation and by every
// archive run, so an editor added since (or an archive from a release that did not share it) is shared too.
// Returns the emails it was shared with now.
export function shareArchive(archive: Spreadsheet, main: Spreadsheet): string[] {
  const owner = main.getOwner();
  const wanted = main
    .getEditors()
    .map((u) => u.getEmail())
    .concat(owner ? [owner.getEmail()] : []);
  const archiveOwner = archive.getOwner();
  const has = archive
    .getEditors()
    .map((u) => u.getEmail())
    .concat(archiveOwner ? [archiveOwner.getEmail()] : [])
    .map((e) => e.toLowerCase());
  const missing = wanted.filter((e, i) => e && has.indexOf(e.toLowerCase()) < 0 && wanted.indexOf(e) === i);
  if (missing.length) archive.addEditors(missing);
  return missing;
}

// Cells of a spreadsheet's grid, as Sheets counts them against its limit: every sheet's rows × columns, empty or not.
export function gridCells(ss: Spreadsheet): number {
  let n = 0;
  for (const s of ss.getSheets()) n += s.getMaxRows() * s.getMaxColumns();
  return n;
}

// Sends the writes this execution holds for every spreadsheet (the archive's before anything relies on them).
export function flushAll(): void {
  ports().host.flushSheets();
}

// Creates or repairs the archive's tabs exactly as setup() shapes the spreadsheet's, then drops the new
// spreadsheet's own empty "Sheet1". Running it again changes nothing.
export function shapeArchive(ss: Spreadsheet): void {
  for (const key of ARCHIVE_TABS) {
    const spec = tabByKey(key);
    const existing = findSheet(ss, spec);
    ports().tabs.apply(ss, spec, existing, planTab(spec, existing ? readHeader(existing) : []));
  }
  const blank = ss.getSheetByName('Sheet1');
  if (blank && blank.getLastRow() === 0 && ss.getSheets().length > 1) ss.deleteSheet(blank);
}

// The key a row is found by in the archive: its audit key, the Audit row's sequence, the Overflow chunk's blob#chunk.
function rowKey(tab: TabKey, values: readonly unknown[]): string {
  if (tab === 'audit') return String(values[rowsOf('audit').index('seq')]);
  if (tab === 'overflow') {
    const o = rowsOf('overflow').read(values);
    return `${String(o.blob_id)}#${String(o.chunk)}`;
  }
  return auditKeyOf(tab, values);
}

// How a copy is compared with its source: as verifyAudit compares a row with its recorded digest, by the canonical
// text the digest is taken over.
function sameRow(tab: TabKey, a: readonly unknown[], b: readonly unknown[]): boolean {
  if (AUDITED_TABS.indexOf(tab) >= 0) {
    const types = columnTypesOf(tab);
    return canonicalRow(types, a) === canonicalRow(types, b);
  }
  return canonical(a.slice(0, rowsOf(tab).width)) === canonical(b.slice(0, rowsOf(tab).width));
}

// The columns a row's key is read from are the tab's first ones: the archive reads only those to know what it holds.
function keyColumns(tab: TabKey): number {
  if (tab === 'audit') return 1;
  if (tab === 'overflow') return rowsOf('overflow').index('chunk') + 1;
  const a = (tabByKey(tab) as { audit?: { key: string; part?: string } }).audit;
  if (!a) throw new StateError(`${tabByKey(tab).name} has no key to archive its rows by`);
  const cols = rowsOf(tab) as unknown as { index(c: string): number };
  return Math.max(cols.index(a.key), a.part ? cols.index(a.part) : 0) + 1;
}

function blank(values: readonly unknown[]): boolean {
  return values.every((v) => v === '' || v === null || v === undefined);
}

// One tab of the archive: its rows by key, and copies appended (or repaired in place) verbatim.
export class ArchiveTab {
  private readonly sheet: Sheet;
  private readonly width: number;
  private keys: Record<string, number> | null = null;
  private last = 0;

  constructor(
    ss: Spreadsheet,
    readonly tab: TabKey,
  ) {
    const s = findSheet(ss, tabByKey(tab));
    if (!s) throw new StateError(`The archive has no ${tabByKey(tab).name} tab: the archive run repairs it first.`);
    this.sheet = s;
    this.width = rowsOf(tab).width;
  }

  // Keys already in the archive, read once (one read of the tab's rows).
  private index(): Record<string, number> {
    if (this.keys) return this.keys;
    this.last = this.sheet.getLastRow();
    const keys: Record<string, number> = {};
    if (this.last >= 2)
      this.sheet
        .getRange(2, 1, this.last - 1, keyColumns(this.tab))
        .getValues()
        .forEach((v, i) => {
          if (!blank(v)) keys[rowKey(this.tab, v)] = i + 2;
        });
    return (this.keys = keys);
  }

  // The last Audit sequence the archive holds (0 when none), read from its last row.
  lastSeq(): number {
    const last = this.sheet.getLastRow();
    if (last < 2) return 0;
    return Number(this.sheet.getRange(last, 1, 1, 1).getValues()[0][0]) || 0;
  }

  // Copies rows: a key the archive lacks is appended; one it holds with other values (an earlier copy that was cut
  // short by a crash, then changed in the spreadsheet) is rewritten where it is, or, without `repair` (the Audit
  // chain, which never changes), refused. Returns the rows to read back.
  copy(rows: readonly unknown[][], repair = true): { row: number; values: unknown[] }[] {
    const keys = this.index();
    const appended: unknown[][] = [];
    const placed: { row: number; values: unknown[] }[] = [];
    for (const values of rows) {
      const v = values.slice(0, this.width);
      const key = rowKey(this.tab, v);
      const at = keys[key];
      if (at === undefined) {
        keys[key] = this.last + 1 + appended.length;
        placed.push({ row: keys[key], values: v });
        appended.push(v);
      } else {
        placed.push({ row: at, values: v });
        this.rewriteIfChanged(at, v, repair);
      }
    }
    if (appended.length) {
      const first = this.last + 1;
      const need = first + appended.length - 1;
      const max = this.sheet.getMaxRows();
      if (need > max) this.sheet.insertRowsAfter(max, need - max + GROW_BY);
      this.sheet.getRange(first, 1, appended.length, this.width).setValues(appended);
      this.last = need;
    }
    return placed;
  }

  private rewriteIfChanged(row: number, values: unknown[], repair: boolean): void {
    const held = this.sheet.getRange(row, 1, 1, this.width).getValues()[0];
    if (sameRow(this.tab, held, values)) return;
    if (!repair)
      throw new StateError(
        `The archive's ${tabByKey(this.tab).name} row ${row} (${rowKey(this.tab, values)}) differs from the ` +
          "spreadsheet's row with the same key; nothing was moved.",
      );
    this.sheet.getRange(row, 1, 1, this.width).setValues([values]);
  }

  // After ports().host.flushSheets(): every copied row reads back as it was read in the spreadsheet, or nothing moves.
  verify(placed: readonly { row: number; values: unknown[] }[]): void {
    if (!placed.length) return;
    const from = Math.min(...placed.map((p) => p.row));
    const to = Math.max(...placed.map((p) => p.row));
    const back = this.sheet.getRange(from, 1, to - from + 1, this.width).getValues();
    for (const p of placed) {
      if (!sameRow(this.tab, back[p.row - from], p.values))
        throw new StateError(
          `The archive's ${tabByKey(this.tab).name} row ${p.row} (${rowKey(this.tab, p.values)}) does not read back ` +
            'as the row it copies; nothing was removed from the spreadsheet.',
        );
    }
  }
}

// Rows written at fixed rows of an archive tab from `first` (the API Log, kept as a prefix: a run repeated after a
// kill writes the same rows to the same place, so none is there twice), and anything below them cleared (a longer
// copy a killed run left is not the log's). Returns the rows as read back after a flush.
export function placeAt(ss: Spreadsheet, tab: TabKey, first: number, rows: readonly unknown[][]): unknown[][] {
  const sheet = findSheet(ss, tabByKey(tab));
  if (!sheet) throw new StateError(`The archive has no ${tabByKey(tab).name} tab: the archive run repairs it first.`);
  const width = rowsOf(tab).width;
  const need = first + rows.length - 1;
  const max = sheet.getMaxRows();
  if (need > max) sheet.insertRowsAfter(max, need - max + GROW_BY);
  if (rows.length)
    sheet.getRange(first, 1, rows.length, width).setValues(rows.map((r) => r.slice(0, width) as unknown[]));
  const last = sheet.getLastRow();
  if (last > need) sheet.getRange(need + 1, 1, last - need, width).clearContent();
  flushAll();
  return rows.length ? sheet.getRange(first, 1, rows.length, width).getValues() : [];
}

// Empties an archive tab's rows from `first` down: a copy a killed run left below what the chain records (the API
// Log's), cleared when the archive is left for a new one, where those rows then go.
export function clearFrom(ss: Spreadsheet, tab: TabKey, first: number): void {
  const sheet = findSheet(ss, tabByKey(tab));
  if (!sheet) return;
  const last = sheet.getLastRow();
  if (last >= first) sheet.getRange(first, 1, last - first + 1, rowsOf(tab).width).clearContent();
  flushAll();
}

// ---- removing rows from the spreadsheet ---------------------------------------------------------

// Consecutive runs of row numbers, bottom-up, so each deletion leaves the rows above it where they were.
function runsBottomUp(rows: readonly number[]): [number, number][] {
  const sorted = rows.slice().sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const r of sorted) {
    const last = runs[runs.length - 1];
    if (last && r === last[0] + last[1]) last[1]++;
    else runs.push([r, 1]);
  }
  return runs.reverse();
}

// Room for `more` Audit rows before a commit appends them, in a step of its own: a commit whose appended rows need
// the tab to grow would, if killed, leave a marker row beyond the grid for the next execution to look at.
export function ensureAuditRoom(store: Store, state: StoreState, more: number): StoreState {
  const tail = state.tails.audit;
  if (!tail || tail.last + more <= tail.max) return state;
  const grown: Tail = { ...tail };
  store.grow('audit', grown, tail.last + more);
  store.flush();
  const next = { ...state, tails: { ...state.tails, audit: grown } };
  store.writeState(next);
  return next;
}

// One commit on the spreadsheet (under the lock): the audit events that record the move, and the removal of the
// moved rows. Rows of `remove` are deleted (their tab's tail and size go down by as many); rows of `clear` (Overflow,
// whose row numbers the pointers of the rows that stay still name) are emptied. The deletions are held writes made
// before the commit's own, so they reach the sheet in the commit's one flush with its Audit rows and marker: killed
// before it, nothing happened and the journal rolls the commit back (it appended only Audit rows, which no deletion
// moves); after it, the journal's state (with the smaller tails) rolls it forward.
export function commitMove(
  store: Store,
  state: StoreState,
  events: readonly AuditEvent[],
  remove: Partial<Record<TabKey, number[]>>,
  clear: readonly number[],
  timestamp: string,
  // Further writes of the same commit (rows that hold row numbers of the removed rows' tabs, rewritten).
  more: (c: Commit) => void = () => {},
): StoreState {
  if (remove.audit?.length) throw new StateError('Audit rows retire with retireAudit, never in a move commit.');
  const reduced: StoreState = JSON.parse(JSON.stringify(state));
  const deletions: { tab: TabKey; runs: [number, number][]; keep: number }[] = [];
  for (const tab of Object.keys(remove) as TabKey[]) {
    const rows = remove[tab] ?? [];
    if (!rows.length) continue;
    const tail = reduced.tails[tab];
    if (!tail) throw new StateError(`the ${tab} tab has no tail in the store's state`);
    if (Math.max(...rows) > tail.last) throw new StateError(`row ${Math.max(...rows)} of ${tab} is past its tail`);
    // Sheets keeps at least one row below the frozen header: a tab emptied to its last row gets one first.
    const keep = tail.max - rows.length < 2 ? 1 : 0;
    deletions.push({ tab, runs: runsBottomUp(rows), keep });
    tail.last -= rows.length;
    tail.max += keep - rows.length;
  }
  const c = store.begin(reduced, 'kaigi');
  for (const e of events) c.audit(e);
  more(c);
  for (const d of deletions) {
    const sheet = store.sheet(d.tab);
    if (d.keep) sheet.insertRowsAfter(state.tails[d.tab].max, d.keep);
    for (const [start, n] of d.runs) sheet.deleteRows(start, n);
    store.wrote();
  }
  const width = store.width('overflow');
  for (const [start, n] of runsBottomUp(clear)) {
    store.sheet('overflow').getRange(start, 1, n, width).clearContent();
    store.wrote();
  }
  return c.run(timestamp);
}

// Removes the first `count` Audit rows (already copied to the archive and checked there). The state's journal names
// the row the deletion brings to row 2 as its marker: Store.recover rolls the step forward when row 2 holds it and
// back (nothing to clear: nothing was appended) when it does not.
export function retireAudit(store: Store, state: StoreState, count: number): StoreState {
  const tail = state.tails.audit;
  if (!tail || count < 1) return state;
  if (count > tail.last - 2) throw new StateError('the newest Audit row always stays in the spreadsheet');
  const after: StoreState = {
    ...state,
    tails: { ...state.tails, audit: { last: tail.last - count, max: tail.max - count } },
    journal: null,
  };
  const marker = store.readRows('audit', 2 + count, 1)[0];
  store.writeState({
    ...state,
    journal: { tab: 'audit', row: 2, digest: sha256Hex(canonical(marker)), appended: {}, after },
  });
  store.sheet('audit').deleteRows(2, count);
  store.wrote();
  store.flush();
  store.writeState(after);
  return after;
}
