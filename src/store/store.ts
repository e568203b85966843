// Kaigi's tabs as a store: batched reads, journaled commits at known tails, overflow for long values.
import { APPEND_TABS, AUDITED_TABS, rowsOf, tabByKey, type TabKey } from '../../sheets-schema/index.js';
import { GENESIS, type ChainHead } from '../core/audit/audit.js';
import { canonical, parsePointer, type Pointer } from '../core/cells.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { BusyError } from '../core/errors.js';
import { markChanged, withOneStamp } from './change-stamp.js';
import { configCacheName } from './config-version.js';
import { HeldRows } from './held-rows.js';
import { TabCopies } from './tab-copies.js';
import { propertiesWritten, readProperty } from './property-reads.js';
import { Commit } from './commit.js';
import { sha256Hex } from './crypto.js';
import { CachedTabs } from './cache-parts.js';
import { freshState, parseState, serializeState, StoreError, type StoreState, type Tail } from './store-format.js';
import { findSheet, tabLayout } from './tab-find.js';
import { adoptUnrecorded } from './config-adopt.js';
import type { SheetPort, SpreadsheetPort } from '../ports.js';
import { ports } from '../ports.js';
import { props } from './services.js';

// Other modules import these from here; the commit, the formats and the cache's version live in their own files.
export { Commit } from './commit.js';
export { bumpConfigVersion } from './config-version.js';
export type { StoreState } from './store-format.js';

type Sheet = SheetPort;
type Block = { tab: TabKey; row: number; rows: unknown[][] };
type Spreadsheet = SpreadsheetPort;

const STATE_KEY = PROPERTY_KEYS.state;
// Tabs Kaigi appends to grow this many rows at a time, ahead of the writes.
export const GROW_BY = 500;
// Apps Script's longest cache lifetime (6 h): an edit invalidates the entries by moving the version on anyway.
const CONFIG_TTL_S = 21600;

const AUDIT = rowsOf('audit');
const OVERFLOW = rowsOf('overflow');

// While this execution holds the script lock no other execution writes the state, so the state it last read or
// wrote there is the state: a commit reads it three or four times, and only the first read costs a property read.
// Kept as text, so every reader parses its own copy. Forgotten whenever a lock is released.
const underLock: { depth: number; state: string | null } = { depth: 0, state: null };

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export class Store {
  private readonly sheets: Record<string, Sheet> = {};
  private readonly tabCache: Record<string, unknown[][]> = {};
  // Cached tabs as this execution fetched them, every configuration tab in one getAll (cache-parts.ts).
  private readonly cached = new CachedTabs();
  // Apps Script holds spreadsheet writes and sends them in batches; a killed execution loses what it held.
  // Every write the store makes marks it dirty, and flush() sends them before anything records that they
  // were made (the state and journal in Script Properties) and before the lock is released.
  private dirty = false;
  // The rows this execution's last commit wrote (held-rows.ts), and the state text it last wrote.
  private readonly held = new HeldRows();
  private lastState: string | null = null;
  // Which of tabCache's whole tabs are the sheet's, and at which committed state (tab-copies.ts).
  private readonly copies = new TabCopies();

  constructor(
    readonly ss: Spreadsheet,
    readonly timeZone: string,
  ) {}

  sheet(key: TabKey): Sheet {
    if (!this.sheets[key]) {
      const s = findSheet(this.ss, tabByKey(key));
      if (!s) throw new StoreError(`The ${tabByKey(key).name} tab is missing: run Kaigi → Set up / repair.`);
      this.sheets[key] = s;
    }
    return this.sheets[key];
  }

  // Called by every sheet write the store or a commit makes; one outside a commit changes no state, so copies go.
  wrote(inCommit = false): void {
    this.dirty = true;
    this.held.drop();
    if (!inCommit) this.copies.forgetAll();
  }

  // Called by a commit once its state is written: its rows in write order (a later write wins), the state it began at.
  remember(blocks: readonly Block[], appended: Record<string, [number, number]>, base: string | null): void {
    if (this.lastState === null) return;
    this.held.remember(this.lastState, blocks, appended, (k) => this.width(k));
    this.copies.carry(this.tabCache, base, this.lastState, blocks, (k) => this.width(k));
  }

  // The committed state as this execution sees it now: the text under the lock, else the property snapshot's.
  stateText(): string | null {
    return underLock.depth && underLock.state !== null ? underLock.state : readProperty(STATE_KEY);
  }

  // The rows of `key` whose `column` holds exactly `value` among those this execution's last commit appended, when
  // nobody has committed since: for a caller that knows one commit appends every such row (a decision's orders).
  heldAppended(key: TabKey, column: number, value: string): { row: number; values: unknown[] }[] {
    return this.held.appended(this.stateText(), key, column, value);
  }

  // ports().host.flushSheets() when this execution holds writes; a flush with nothing held would be a wasted round trip.
  flush(): void {
    if (!this.dirty) return;
    ports().host.flushSheets();
    this.dirty = false;
  }

  width(key: TabKey): number {
    return rowsOf(key).width;
  }

  // ---- state in Script Properties ------------------------------------------------------------

  // The stored state in the current format (an older one is migrated in memory and saved by the next write).
  readState(): StoreState {
    const raw = underLock.depth && underLock.state !== null ? underLock.state : readProperty(STATE_KEY);
    if (underLock.depth && raw) underLock.state = raw;
    if (raw) return parseState(raw, STATE_KEY);
    return this.readStateFromSheets();
  }

  // The state as committed now. A reader outside the lock holds the properties from its first read (property-reads.ts),
  // so a row it has read from the sheet since may lie past the tails it knows; under the lock the state is current.
  readStateNow(): StoreState {
    if (!underLock.depth) propertiesWritten();
    return this.readState();
  }

  // First use (or state lost): learn the tails from the sheets once.
  private readStateFromSheets(): StoreState {
    const tails: Record<string, Tail> = {};
    for (const key of APPEND_TABS) {
      const s = findSheet(this.ss, tabByKey(key));
      if (s) tails[key] = { last: Math.max(1, s.getLastRow()), max: s.getMaxRows() };
    }
    let audit: ChainHead = { seq: 0, hash: GENESIS };
    if (tails.audit && tails.audit.last >= 2) {
      const r = AUDIT.read(this.readRows('audit', tails.audit.last, 1)[0]);
      audit = { seq: Number(r.seq), hash: String(r.hash) };
    }
    return freshState(tails, audit);
  }

  // setup(): make sure every append tab has a tail, without touching tails already kept. Setup has just brought
  // every tab to this release's layout, so the state says so.
  ensureState(): StoreState {
    const raw = ports().properties.getProperty(STATE_KEY);
    const fresh: StoreState = { ...this.readStateFromSheets(), layout: tabLayout() };
    if (!raw) {
      this.writeState(fresh);
      return fresh;
    }
    const s = parseState(raw, STATE_KEY);
    let changed = s.layout !== tabLayout();
    s.layout = tabLayout();
    for (const key of Object.keys(fresh.tails)) {
      if (!s.tails[key]) {
        s.tails[key] = fresh.tails[key];
        changed = true;
      }
    }
    if (changed) this.writeState(s);
    return s;
  }

  // A state with no journal is a commit done (or undone): the change stamp moves, so a cached status or an idle
  // sidebar poll reads again. A journal being written is not a change anyone can see yet.
  writeState(s: StoreState): void {
    const text = serializeState(s);
    underLock.state = null;
    // A state with no journal, under the lock, joins the caller's property batch (services.ts props.hold).
    if (!(underLock.depth && !s.journal && props.hold(STATE_KEY, text))) {
      propertiesWritten();
      ports().properties.setProperty(STATE_KEY, text);
    }
    this.lastState = text;
    this.held.drop();
    if (underLock.depth) underLock.state = text;
    if (!s.journal) markChanged();
  }

  // Runs fn holding the script lock, after finishing or undoing a commit a dead execution left behind.
  withLock<T>(fn: (state: StoreState) => T, timeoutMs = 30000): T {
    const lock = ports().lock;
    if (!lock.tryLock(timeoutMs))
      throw new BusyError('Kaigi is busy: another execution held the lock for too long. Try again.');
    // The commits made under the lock move the change stamp once, after the lock's last flush (change-stamp.ts).
    return withOneStamp(() => {
      // What another execution committed before this one got the lock is read now, not remembered from before.
      propertiesWritten();
      underLock.depth++;
      try {
        let state = this.readState();
        const upgrading = state.layout !== tabLayout();
        // Columns first: a journal an earlier release left is replayed at this release's tab widths.
        if (upgrading) ports().tabs.upgrade(this.ss);
        state = this.recover(state);
        if (upgrading) state = this.upgrade(state);
        return fn(state);
      } finally {
        // Google's reference for Lock.releaseLock(): flush the spreadsheet's pending changes first, so the next
        // holder of the lock reads what this one wrote.
        this.flush();
        underLock.depth--;
        underLock.state = null;
        lock.releaseLock();
        // What other executions commit from now on is not in what this one read under the lock.
        propertiesWritten();
      }
    });
  }

  // A workbook from an earlier release, its tabs already given this release's columns: new log tabs get their
  // tails and the rows that release did not audit are recorded. Done once, under the lock; the state remembers it.
  private upgrade(state: StoreState): StoreState {
    const fresh = this.readStateFromSheets();
    const next: StoreState = { ...state, tails: { ...fresh.tails, ...state.tails }, layout: tabLayout() };
    this.flush();
    this.writeState(next);
    // Its configuration rows, never audited by that release, are recorded now, once.
    return adoptUnrecorded(this, next, 'kaigi (upgrade)', new Date(), AUDITED_TABS).state;
  }

  // A journal left by a dead commit: rolled forward when its marker is in the sheet, else rolled back.
  private recover(state: StoreState): StoreState {
    const j = state.journal;
    if (!j) return state;
    // A marker in rows the dead commit inserted, which never reached the sheet, was not written either.
    const row = j.row <= this.sheet(j.tab).getMaxRows() ? this.readRows(j.tab, j.row, 1)[0] : null;
    // A journal from before dates were hashed to the whole second (core/cells.ts) names its marker the old way.
    // A journal from before the tab gained columns (added empty, at the end) names its marker at the narrower width.
    const widths: unknown[][] = [];
    for (let r = row; r; r = r.length && (r[r.length - 1] === '' || r[r.length - 1] === null) ? r.slice(0, -1) : null)
      widths.push(r);
    if (widths.some((r) => sha256Hex(canonical(r)) === j.digest || sha256Hex(canonical(r, 'exact')) === j.digest)) {
      this.writeState(j.after);
      return j.after;
    }
    for (const tab of Object.keys(j.appended) as TabKey[]) {
      const [from, last] = j.appended[tab];
      // Rows the dead commit inserted to grow the tab may be missing: clear only what the grid holds.
      const to = Math.min(last, this.sheet(tab).getMaxRows());
      if (to < from) continue;
      this.sheet(tab)
        .getRange(from, 1, to - from + 1, this.width(tab))
        .clearContent();
      this.wrote();
    }
    // The rolled-back rows are cleared in the sheet before the journal that names them is dropped.
    this.flush();
    const back = { ...state, journal: null };
    this.writeState(back);
    return back;
  }

  // ---- reading --------------------------------------------------------------------------------

  readRows(key: TabKey, from: number, count: number): unknown[][] {
    if (count <= 0) return [];
    const held = this.held.rows(this.stateText(), key, from, count);
    if (held) return held;
    return this.sheet(key).getRange(from, 1, count, this.width(key)).getValues();
  }

  // A configuration or data tab, read once per execution.
  readTab(key: TabKey): unknown[][] {
    if (!this.tabCache[key]) {
      const s = this.sheet(key);
      const last = s.getLastRow();
      this.tabCache[key] = last < 2 ? [] : s.getRange(2, 1, last - 1, this.width(key)).getValues();
    }
    return this.tabCache[key];
  }

  // An append tab's committed rows, read once per execution: its tail in the state says where they end, so an empty
  // tab costs no call and a full one no getLastRow (rows past the tail are a dead commit's, which recovery clears).
  readCommitted(key: TabKey): unknown[][] {
    if (!this.tabCache[key]) {
      const tail = this.readState().tails[key];
      if (!tail) return this.readTab(key);
      this.tabCache[key] = this.readRows(key, 2, tail.last - 1);
    }
    return this.tabCache[key];
  }

  // A whole tab in one read, as wide as the tab is defined whatever the sheet holds (a workbook not yet upgraded may
  // lack a column; cells past the definition are not part of a row). Not cached: verifyAudit reads each tab once.
  readWhole(key: TabKey): unknown[][] {
    const width = this.width(key);
    const all = this.sheet(key).getDataRange().getValues();
    return all.slice(1).map((r) => {
      const row = r.slice(0, width);
      while (row.length < width) row.push('');
      return row;
    });
  }

  // Configuration tabs people rarely change (Settings, Agents, Prompts) are cached between executions.
  // An edit in the sheet fires onConfigEdit, which moves the version on; Kaigi's own edits do the same.
  // An entry in another cache format is a miss, read again from the sheet and replaced.
  readConfig(key: TabKey): unknown[][] {
    if (this.tabCache[key]) return this.tabCache[key];
    const name = configCacheName(key);
    const hit = this.cached.read(name);
    if (hit) return (this.tabCache[key] = hit);
    const read = this.readTab(key);
    this.cacheConfig(name, read);
    return read;
  }

  // A configuration tab's rows put under a cache name, in parts; a tab too large for the parts is not cached.
  cacheConfig(name: string, rows: unknown[][]): void {
    this.cached.put(name, rows, CONFIG_TTL_S);
  }

  // A data tab kept in the cache for `ttlS` seconds at most (people and other programs change it outside Kaigi's
  // view): kept apart from readTab's copy, which a commit's audit of rewritten rows reads as the sheet holds it.
  // The copy's first row is the time it was read, so a Setting lowered since bounds a copy cached before too.
  readCachedData(key: TabKey, ttlS: number): unknown[][] {
    if (ttlS <= 0) return this.readTab(key);
    const name = configCacheName(key);
    const hit = this.cached.read(name);
    const now = ports().clock.now();
    if (hit && now - Number(hit[0]?.[0]) <= ttlS * 1000) return hit.slice(1);
    const read = this.readTab(key);
    this.cached.put(name, [[now], ...read], Math.min(ttlS, CONFIG_TTL_S));
    return read;
  }

  forgetTab(key: TabKey): void {
    delete this.tabCache[key];
    this.copies.forget(key);
  }

  // A whole tab as committed now, under the lock: read again unless this execution's copy is the sheet's (tab-copies.ts).
  readTabNow(key: TabKey): unknown[][] {
    const now = this.stateText();
    if (this.tabCache[key] && this.copies.current(key, now)) return this.tabCache[key];
    this.forgetTab(key);
    const rows = this.readTab(key);
    if (underLock.depth && now !== null) this.copies.mark(key, now);
    return rows;
  }

  // Rows of an append tab from `from` to its committed tail.
  readTail(state: StoreState, key: TabKey, from: number): unknown[][] {
    const last = state.tails[key]?.last ?? 1;
    return from > last ? [] : this.readRows(key, from, last - from + 1);
  }

  findRow(key: TabKey, id: string): number | null {
    const s = this.sheet(key);
    const hits = s
      .getRange(1, 1, s.getMaxRows(), 1)
      .createTextFinder(id)
      .matchEntireCell(true)
      .matchCase(true)
      .findAll();
    return hits.length ? hits[0].getRow() : null;
  }

  // Replaces overflow pointers in the given rows by their full, verified text (one read per call).
  resolveOverflow(rows: unknown[][]): unknown[][] {
    const pointers: { p: Pointer; r: number; c: number }[] = [];
    rows.forEach((row, r) =>
      row.forEach((v, c) => {
        const p = parsePointer(v);
        if (p && p.$ref === 'Overflow') pointers.push({ p, r, c });
      }),
    );
    if (!pointers.length) return rows;
    const from = Math.min(...pointers.map((x) => x.p.rows[0]));
    const to = Math.max(...pointers.map((x) => x.p.rows[1]));
    const blobRows = this.readRows('overflow', from, to - from + 1).map((b) => OVERFLOW.read(b));
    const out = rows.map((row) => row.slice());
    for (const { p, r, c } of pointers) {
      const parts = blobRows.filter((b) => b.blob_id === p.id).sort((a, b) => Number(a.chunk) - Number(b.chunk));
      const text = parts.map((b) => String(b.text)).join('');
      if (sha256Hex(text) !== p.sha256)
        throw new StoreError(`Overflow ${p.id} does not match its SHA-256: the value was altered or is incomplete.`);
      out[r][c] = text;
    }
    return out;
  }

  begin(state: StoreState, actor?: string): Commit {
    return new Commit(this, clone({ ...state, journal: null }), actor);
  }

  // Grows a tab ahead of writes; new rows inherit the formats of the last row (plain text stays plain text).
  grow(key: TabKey, tail: Tail, needLast: number): void {
    if (needLast <= tail.max) return;
    const add = needLast - tail.max + GROW_BY;
    this.sheet(key).insertRowsAfter(tail.max, add);
    this.wrote(true); // empty rows past the tail: no whole tab's copy (tab-copies.ts) changes
    tail.max += add;
  }
}
