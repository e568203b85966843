// The store's persisted blobs, versioned (the state and journal in KAIGI_STATE, cached configuration rows), and its errors.
// Pure (no Apps Script services), so the formats and their migration are tested without a runtime.
import type { TabKey } from '../../sheets-schema/index.js';
import type { ChainHead } from '../core/audit/audit.js';
import type { DailySeq } from '../core/discussion/ids.js';
import { StateError } from '../core/errors.js';

// 1: written by every release before versions were checked; same layout as 2. 2: checked on every read.
export const STATE_VERSION = 2;

export interface Tail {
  last: number;
  max: number;
}

export interface StoreState {
  v: typeof STATE_VERSION;
  tails: Record<string, Tail>;
  audit: ChainHead;
  counters: Record<string, DailySeq | number>;
  queueHead: number;
  journal: Journal | null;
  // The tab layout (src/adapters/gas/tab-upgrade.ts) the workbook was last brought to; absent before it was kept.
  layout?: string;
}

// Every Queue row is done or dead (the head, the first row that may be live, is past the tail) and no commit is half
// written: what the backstop's idle check, a claim and a waiting request each ask of the committed state.
export function queueSettled(s: StoreState): boolean {
  return !s.journal && s.queueHead > (s.tails.queue?.last ?? 1);
}

// A commit in flight: its final write (the marker) and what it appended, to roll forward or back after a crash.
interface Journal {
  tab: TabKey;
  row: number;
  digest: string;
  appended: Record<string, [number, number]>;
  after: StoreState;
}

// The store cannot go on as things are: a missing tab, a busy lock, an altered overflow value.
export class StoreError extends StateError {}

// Stored state written by a newer Kaigi (or not by Kaigi at all): never guessed at, never reset.
export class StateVersionError extends StateError {
  constructor(
    readonly property: string,
    readonly version: unknown,
  ) {
    super(
      `The Script Property ${property} has ${version === undefined ? 'no state format version' : `state format version ${JSON.stringify(version)}`}, ` +
        `but this Kaigi reads versions 1 to ${STATE_VERSION}. It was written by another version of Kaigi: deploy ` +
        `that version (or a newer one) instead. The property was left as it is.`,
    );
  }
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function malformed(property: string, what: string): StateError {
  return new StateError(`The Script Property ${property} is malformed (${what}); it was left as it is.`);
}

// The fields every version has had, checked before a state is used (a nested journal state included).
function checkShape(s: Json, property: string): void {
  if (!isObject(s.tails)) throw malformed(property, 'no tails');
  for (const [tab, t] of Object.entries(s.tails))
    if (!isObject(t) || typeof t.last !== 'number' || typeof t.max !== 'number')
      throw malformed(property, `bad tail for ${tab}`);
  if (!isObject(s.audit) || typeof s.audit.seq !== 'number' || typeof s.audit.hash !== 'string')
    throw malformed(property, 'no audit chain head');
  if (!isObject(s.counters)) throw malformed(property, 'no counters');
  if (typeof s.queueHead !== 'number') throw malformed(property, 'no queue head');
  if (s.journal === null) return;
  const j = s.journal;
  if (!isObject(j) || typeof j.tab !== 'string' || typeof j.row !== 'number' || typeof j.digest !== 'string')
    throw malformed(property, 'bad journal');
  if (!isObject(j.appended) || !isObject(j.after)) throw malformed(property, 'bad journal');
}

// Brings a parsed state of any known version to the current one; throws on anything else.
// Version 1 had the layout of 2, its journal's `after` included; only the number moves on.
export function migrateState(raw: unknown, property: string): StoreState {
  if (!isObject(raw)) throw malformed(property, 'not an object');
  const v = raw.v;
  if (v !== 1 && v !== STATE_VERSION) throw new StateVersionError(property, v);
  checkShape(raw, property);
  const j = raw.journal as Json | null;
  const journal = j ? { ...j, after: migrateState(j.after, property) } : null;
  return { ...raw, v: STATE_VERSION, journal } as StoreState;
}

export function parseState(text: string, property: string): StoreState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw malformed(property, `not JSON: ${(e as Error).message}`);
  }
  return migrateState(raw, property);
}

export function serializeState(s: StoreState): string {
  return JSON.stringify(s);
}

export function freshState(tails: Record<string, Tail>, audit: ChainHead): StoreState {
  return { v: STATE_VERSION, tails, audit, counters: {}, queueHead: 2, journal: null };
}

// ---- cached configuration rows ----------------------------------------------------------------

// 1 was a bare JSON array of rows; 2 wraps them as { v, rows }. Any other version is a cache miss.
export const CONFIG_CACHE_VERSION = 2;

// Dates survive the cache as tagged values.
// A date can only be a cell: rows are copied with each Date tagged, then written by JSON.stringify alone (a replacer
// is called for every value, and made writing the KPI tab's copy several times slower than the copy itself).
export function encodeConfigRows(rows: unknown[][]): string {
  const tagged = rows.map((r) =>
    Array.isArray(r)
      ? r.map((c) => (Object.prototype.toString.call(c) === '[object Date]' ? { $d: (c as Date).getTime() } : c))
      : r,
  );
  return JSON.stringify({ v: CONFIG_CACHE_VERSION, rows: tagged });
}

// A cached value split into parts that each stay under CacheService's per-value limit: parts of at most
// `maxUnits` UTF-16 units are at most 3 × maxUnits bytes, and no part ends inside a surrogate pair.
export function splitForCache(text: string, maxUnits: number): string[] {
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + maxUnits);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts.length ? parts : [''];
}

// The rows of a cache entry in this version's format, or null when the entry is another version's.
// A reviver is called for every value JSON.parse makes, and made the decode of the configuration and KPI (some 80 KB
// in each execution) several times slower than the parse itself: a date can only be a cell, so the cells are looked
// at once after a plain parse.
export function decodeConfigRows(text: string): unknown[][] | null {
  const blob: unknown = JSON.parse(text);
  if (!isObject(blob) || blob.v !== CONFIG_CACHE_VERSION || !Array.isArray(blob.rows)) return null;
  const rows = blob.rows as unknown[];
  if (text.indexOf('"$d":') < 0) return rows as unknown[][];
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    for (let i = 0; i < row.length; i++) {
      const c = row[i] as { $d?: unknown } | null;
      if (c !== null && typeof c === 'object' && typeof c.$d === 'number') row[i] = new Date(c.$d);
    }
  }
  return rows as unknown[][];
}
