// Kaigi's tabs as a store: batched reads, journaled commits at known tails, overflow for long values.
import { StateError } from '../../core/errors.js';
import { APPEND_TABS, tabByKey, type TabKey } from '../../../sheets-schema/index.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { auditRows, GENESIS, type AuditEvent, type ChainHead } from '../../core/audit.js';
import { canonical, chunks, MAX_CELL_CHARS, parsePointer, pointerText, type Pointer } from '../../core/cells.js';
import { sha256Hex } from './crypto.js';
import { findSheet } from './tabs.js';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

const STATE_KEY = PROPERTY_KEYS.state;
// Tabs Kaigi appends to; their tails live in the state so no execution has to ask for the last row.
const GROW_BY = 500;
export const CONFIG_VERSION = PROPERTY_KEYS.configVersion;
const CONFIG_TTL_S = 300;

export function bumpConfigVersion(): void {
  const props = PropertiesService.getScriptProperties();
  props.setProperty(CONFIG_VERSION, String(Number(props.getProperty(CONFIG_VERSION) ?? '0') + 1));
}

// Dates survive the cache as tagged values.
function encodeRows(rows: unknown[][]): string {
  return JSON.stringify(rows, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return Object.prototype.toString.call(raw) === '[object Date]' ? { $d: (raw as Date).getTime() } : v;
  });
}

function decodeRows(text: string): unknown[][] {
  return JSON.parse(text, (_k, v) => (v && typeof v === 'object' && typeof v.$d === 'number' ? new Date(v.$d) : v));
}

interface Tail {
  last: number;
  max: number;
}

export interface StoreState {
  v: 1;
  tails: Record<string, Tail>;
  audit: ChainHead;
  counters: Record<string, { day: string; seq: number } | number>;
  queueHead: number;
  journal: Journal | null;
}

interface Journal {
  tab: TabKey;
  row: number;
  digest: string;
  appended: Record<string, [number, number]>;
  after: StoreState;
}

export class StoreError extends StateError {}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export class Store {
  private readonly sheets: Record<string, Sheet> = {};
  private readonly tabCache: Record<string, unknown[][]> = {};

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

  width(key: TabKey): number {
    return tabByKey(key).columns.length;
  }

  // ---- state in Script Properties ------------------------------------------------------------

  readState(): StoreState {
    const raw = PropertiesService.getScriptProperties().getProperty(STATE_KEY);
    if (raw) return JSON.parse(raw) as StoreState;
    return this.readStateFromSheets();
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
      const r = this.sheet('audit').getRange(tails.audit.last, 1, 1, 9).getValues()[0];
      audit = { seq: Number(r[0]), hash: String(r[8]) };
    }
    return { v: 1, tails, audit, counters: {}, queueHead: 2, journal: null };
  }

  // setup(): make sure every append tab has a tail, without touching tails already kept.
  ensureState(): StoreState {
    const raw = PropertiesService.getScriptProperties().getProperty(STATE_KEY);
    const fresh = this.readStateFromSheets();
    if (!raw) {
      this.writeState(fresh);
      return fresh;
    }
    const s = JSON.parse(raw) as StoreState;
    let changed = false;
    for (const key of Object.keys(fresh.tails)) {
      if (!s.tails[key]) {
        s.tails[key] = fresh.tails[key];
        changed = true;
      }
    }
    if (changed) this.writeState(s);
    return s;
  }

  writeState(s: StoreState): void {
    PropertiesService.getScriptProperties().setProperty(STATE_KEY, JSON.stringify(s));
  }

  // Runs fn holding the script lock, after finishing or undoing a commit a dead execution left behind.
  withLock<T>(fn: (state: StoreState) => T, timeoutMs = 30000): T {
    const lock = LockService.getScriptLock();
    if (!lock.tryLock(timeoutMs))
      throw new StoreError('Kaigi is busy: another execution held the lock for too long. Try again.');
    try {
      return fn(this.recover(this.readState()));
    } finally {
      lock.releaseLock();
    }
  }

  private recover(state: StoreState): StoreState {
    const j = state.journal;
    if (!j) return state;
    const row = this.sheet(j.tab).getRange(j.row, 1, 1, this.width(j.tab)).getValues()[0];
    if (sha256Hex(canonical(row)) === j.digest) {
      this.writeState(j.after);
      return j.after;
    }
    for (const tab of Object.keys(j.appended) as TabKey[]) {
      const [from, to] = j.appended[tab];
      if (to >= from)
        this.sheet(tab)
          .getRange(from, 1, to - from + 1, this.width(tab))
          .clearContent();
    }
    const back = { ...state, journal: null };
    this.writeState(back);
    return back;
  }

  // ---- reading --------------------------------------------------------------------------------

  readRows(key: TabKey, from: number, count: number): unknown[][] {
    if (count <= 0) return [];
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

  // Configuration tabs people rarely change (Settings, Agents, Prompts) are cached between executions.
  // An edit in the sheet fires onConfigEdit, which moves the version on; Kaigi's own edits do the same.
  readConfig(key: TabKey): unknown[][] {
    if (this.tabCache[key]) return this.tabCache[key];
    const cache = CacheService.getScriptCache();
    const version = PropertiesService.getScriptProperties().getProperty(CONFIG_VERSION) ?? '0';
    const name = `kaigi:cfg:${version}:${key}`;
    const hit = cache.get(name);
    if (hit) return (this.tabCache[key] = decodeRows(hit));
    const rows = this.readTab(key);
    const text = encodeRows(rows);
    if (text.length < 90_000) cache.put(name, text, CONFIG_TTL_S);
    return rows;
  }

  forgetTab(key: TabKey): void {
    delete this.tabCache[key];
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
    const blobRows = this.readRows('overflow', from, to - from + 1);
    const out = rows.map((row) => row.slice());
    for (const { p, r, c } of pointers) {
      const parts = blobRows.filter((b) => b[0] === p.id).sort((a, b) => Number(a[2]) - Number(b[2]));
      const text = parts.map((b) => String(b[4])).join('');
      if (sha256Hex(text) !== p.sha256)
        throw new StoreError(`Overflow ${p.id} does not match its SHA-256: the value was altered or is incomplete.`);
      out[r][c] = text;
    }
    return out;
  }

  begin(state: StoreState): Commit {
    return new Commit(this, clone({ ...state, journal: null }));
  }

  // Grows a tab ahead of writes; new rows inherit the formats of the last row (plain text stays plain text).
  grow(key: TabKey, tail: Tail, needLast: number): void {
    if (needLast <= tail.max) return;
    const add = needLast - tail.max + GROW_BY;
    this.sheet(key).insertRowsAfter(tail.max, add);
    tail.max += add;
  }
}

export class Commit {
  private readonly blocks: { tab: TabKey; row: number; rows: unknown[][] }[] = [];
  private readonly events: AuditEvent[] = [];
  private marker: { tab: TabKey; row: number; values: unknown[] } | null = null;
  private readonly post: { tab: TabKey; row: number; rows: unknown[][] }[] = [];
  private readonly appended: Record<string, [number, number]> = {};

  constructor(
    private readonly store: Store,
    readonly state: StoreState,
  ) {}

  nextSeq(name: string): number {
    const n = (Number(this.state.counters[name]) || 0) + 1;
    this.state.counters[name] = n;
    return n;
  }

  // Per-day sequences (DISC, DEC) restart at 1 each day and are never reused within it.
  nextDaily(name: string, day: string): number {
    const c = this.state.counters[name] as { day: string; seq: number } | undefined;
    const seq = c && typeof c === 'object' && c.day === day ? c.seq + 1 : 1;
    this.state.counters[name] = { day, seq };
    return seq;
  }

  private reserve(tab: TabKey, count: number): number {
    const tail = this.state.tails[tab];
    if (!tail) throw new StoreError(`the ${tab} tab is not set up`);
    const first = tail.last + 1;
    tail.last += count;
    const range = this.appended[tab];
    this.appended[tab] = range ? [range[0], tail.last] : [first, tail.last];
    return first;
  }

  // Any string longer than a cell holds moves to the Overflow tab; the cell keeps a pointer with its hash.
  private fit(values: unknown[], owner: string): unknown[] {
    return values.map((v, i) => {
      if (typeof v !== 'string' || v.length <= MAX_CELL_CHARS) return v;
      const id = `OVF-${this.nextSeq('overflow')}`;
      const sha = sha256Hex(v);
      const parts = chunks(v);
      const first = this.reserve('overflow', parts.length);
      this.blocks.push({
        tab: 'overflow',
        row: first,
        rows: parts.map((p, k) => [id, `${owner}#${i + 1}`, k, parts.length, p, sha]),
      });
      return pointerText({
        $ref: 'Overflow',
        id,
        sha256: sha,
        length: v.length,
        rows: [first, first + parts.length - 1],
      });
    });
  }

  append(tab: TabKey, rows: unknown[][], owner: (i: number) => string = () => tab): number {
    const fitted = rows.map((r, i) => this.fit(r, owner(i)));
    const first = this.reserve(tab, rows.length);
    if (rows.length) this.blocks.push({ tab, row: first, rows: fitted });
    return first;
  }

  // Appends one row and returns what is actually stored (long values replaced by pointers), for hashing.
  appendOne(tab: TabKey, values: unknown[], owner: string): { row: number; values: unknown[] } {
    const fitted = this.fit(values, owner);
    const row = this.reserve(tab, 1);
    this.blocks.push({ tab, row, rows: [fitted] });
    return { row, values: fitted };
  }

  update(tab: TabKey, row: number, values: unknown[], owner = `${tab}:${row}`): unknown[] {
    const fitted = this.fit(values, owner);
    this.blocks.push({ tab, row, rows: [fitted] });
    return fitted;
  }

  // A write made only once the commit point is in the sheet: a crash before it rolls the commit back, and
  // a crash after it leaves work that a replay finds already done (e.g. a task still marked as leased).
  updateAfter(tab: TabKey, row: number, values: unknown[], owner = `${tab}:${row}`): void {
    this.post.push({ tab, row, rows: [this.fit(values, owner)] });
  }

  // Several consecutive rows in one write, after the commit point (counters that must never be applied twice).
  updateBlockAfter(tab: TabKey, row: number, rows: unknown[][]): void {
    this.post.push({ tab, row, rows: rows.map((r, i) => this.fit(r, `${tab}:${row + i}`)) });
  }

  // The last write of the commit; once it is in the sheet the commit counts as done.
  setMarker(tab: TabKey, row: number | 'append', values: unknown[], owner: string): { row: number; values: unknown[] } {
    const fitted = this.fit(values, owner);
    const r = row === 'append' ? this.reserve(tab, 1) : row;
    this.marker = { tab, row: r, values: fitted };
    return { row: r, values: fitted };
  }

  audit(e: AuditEvent): void {
    this.events.push(e);
  }

  digest(values: unknown[]): string {
    return sha256Hex(canonical(values));
  }

  run(timestamp: string): StoreState {
    const store = this.store;
    const before = store.readState();
    if (this.events.length) {
      const { rows, head } = auditRows(this.state.audit, this.events, timestamp, sha256Hex);
      const first = this.reserve('audit', rows.length);
      this.blocks.push({ tab: 'audit', row: first, rows });
      this.state.audit = head;
    }
    if (!this.marker) throw new StoreError('a commit needs a final write');
    const markerValues = pad(this.marker.values, store.width(this.marker.tab));
    // Grow first and record the new sizes, so a crash never leaves the state behind the sheet.
    let grew = false;
    for (const tab of Object.keys(this.state.tails) as TabKey[]) {
      const t = this.state.tails[tab];
      const max = t.max;
      store.grow(tab, t, t.last);
      if (t.max !== max) {
        before.tails[tab].max = t.max;
        grew = true;
      }
    }
    if (grew) store.writeState(before);
    const after: StoreState = { ...this.state, journal: null };
    store.writeState({
      ...before,
      journal: {
        tab: this.marker.tab,
        row: this.marker.row,
        digest: this.digest(markerValues),
        appended: this.appended,
        after,
      },
    });
    const ordered = this.blocks.filter((b) => b.tab !== 'audit').concat(this.blocks.filter((b) => b.tab === 'audit'));
    for (const b of ordered)
      store
        .sheet(b.tab)
        .getRange(b.row, 1, b.rows.length, store.width(b.tab))
        .setValues(b.rows.map((r) => pad(r, store.width(b.tab))));
    store
      .sheet(this.marker.tab)
      .getRange(this.marker.row, 1, 1, store.width(this.marker.tab))
      .setValues([markerValues]);
    for (const b of this.post)
      store
        .sheet(b.tab)
        .getRange(b.row, 1, b.rows.length, store.width(b.tab))
        .setValues(b.rows.map((r) => pad(r, store.width(b.tab))));
    store.writeState(after);
    return after;
  }
}

function pad(r: unknown[], width: number): unknown[] {
  const out = r.slice(0, width).map((v) => (v === null || v === undefined ? '' : v));
  while (out.length < width) out.push('');
  return out;
}
