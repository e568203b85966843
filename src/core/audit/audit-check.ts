// Checks every audited row against its latest audit record: altered, inserted, removed, moved or misplaced rows.
import {
  AUDITED_TABS,
  auditKeyOf,
  columnTypesOf,
  rowsOf,
  type TabKey,
  TABS,
  type TabSpec,
} from '../../../sheets-schema/index.js';
import { firstChangedColumn, rowDigest } from './audit-rows.js';
import { canonical } from '../cells.js';
import type { RowDigest } from './audit-events.js';
import { ROW_REMOVED, ROWS_MOVED } from './config-structure.js';

export interface AuditRecord {
  seq: number;
  event: string;
  tab: string;
  row_key: string;
  payload: Record<string, unknown>;
}

// One place a tab's rows are kept: the spreadsheet itself, or one of the archives its old rows moved to.
export interface TabRows {
  tab: TabKey;
  archive: boolean;
  // The archive's spreadsheet id: a row is looked for in the archive its `archived` event names (an id no place
  // has, as in a chain from before archives had ids, means the first archive).
  archiveId?: string;
  // The tab's name as a person finds it (the archive's tabs are named like the main ones).
  label: string;
  rows: readonly unknown[][];
}

export interface RowProblem {
  tab: string;
  row: number;
  column?: string;
  detail: string;
}

interface Latest {
  seq: number;
  created: number;
  digest: RowDigest;
  // Recorded by a release before every audited row carried a digest: the whole row's canonical JSON ('row'), or a
  // message's chunks' message_json joined ('message').
  legacy?: 'row' | 'message';
}

const spec = (key: TabKey) => TABS.find((t) => t.key === key) as TabSpec;

// Where the chain says a key went: the sequence of its move, and the archive named.
interface Moved {
  seq: number;
  archive: string;
}

// What the chain says of each audited tab: each key's latest digest, and the keys moved to an archive.
function recordsOf(events: readonly AuditRecord[]): {
  latest: Record<string, Record<string, Latest>>;
  archived: Record<string, Record<string, Moved>>;
} {
  const latest: Record<string, Record<string, Latest>> = {};
  const archived: Record<string, Record<string, Moved>> = {};
  for (const e of events) {
    const digest = e.payload.digest as RowDigest | undefined;
    const byKey = (latest[e.tab] ??= {});
    // A configuration row a person removed, seen by the on-change trigger: the chain no longer expects it.
    if (e.event === ROW_REMOVED) {
      delete byKey[e.row_key];
      continue;
    }
    if (e.event === ROWS_MOVED) {
      const moved = (e.payload.moved ?? {}) as Record<string, unknown>;
      for (const k of Object.keys(moved))
        if (byKey[k] && typeof moved[k] === 'number')
          byKey[k] = { ...byKey[k], digest: { ...byKey[k].digest, row: moved[k] as number } };
      continue;
    }
    const was = byKey[e.row_key];
    const created = was ? was.created : e.seq;
    if (digest && typeof digest.sha256 === 'string') byKey[e.row_key] = { seq: e.seq, created, digest };
    else if (typeof e.payload.sha256 === 'string' && (typeof e.payload.row === 'number' || e.payload.rows)) {
      const rows = e.payload.rows as number[] | undefined;
      const row = rows ? rows[0] : (e.payload.row as number);
      byKey[e.row_key] = {
        seq: e.seq,
        created,
        digest: { row, sha256: e.payload.sha256, cols: '' },
        legacy: rows ? 'message' : 'row',
      };
    }
    if (e.event === 'archived') {
      const keys = Array.isArray(e.payload.keys) ? (e.payload.keys as unknown[]).map(String) : [e.row_key];
      for (const k of keys) (archived[e.tab] ??= {})[k] = { seq: e.seq, archive: String(e.payload.archive ?? '') };
    }
  }
  return { latest, archived };
}

// Whether the row at index i holds what its record says, in the form the record was taken.
function matches(
  place: TabRows,
  i: number,
  rec: Latest,
  types: ReturnType<typeof columnTypesOf>,
  sha256: (s: string) => string,
): boolean {
  const values = place.rows[i];
  if (!rec.legacy) return rowDigest(types, values, sha256) === rec.digest.sha256;
  if (rec.legacy === 'message') {
    const cols = rowsOf('messages');
    const id = values[cols.index('message_id')];
    let text = '';
    for (let k = i; k < place.rows.length && place.rows[k][cols.index('message_id')] === id; k++)
      text += String(place.rows[k][cols.index('message_json')]);
    return sha256(text) === rec.digest.sha256;
  }
  // The row as that release read it: as many columns as its tab had then (columns added since are empty).
  let width = values.length;
  while (width > 0 && (values[width - 1] === '' || values[width - 1] === null)) width--;
  for (let w = values.length; w >= width; w--)
    for (const form of ['seconds', 'exact'] as const)
      if (sha256(canonical(values.slice(0, w), form)) === rec.digest.sha256) return true;
  return false;
}

// `archived`: every key the chain moved, with the place (archive id) it went to, as checkRows resolved it.
function checkPlace(
  place: TabRows,
  latest: Record<string, Latest>,
  archived: Record<string, Moved>,
  sha256: (s: string) => string,
): RowProblem | null {
  // Where this place's rows should be: here, or moved (to this archive, for an archive's rows).
  const here = (key: string) =>
    place.archive ? key in archived && archived[key].archive === (place.archiveId ?? '') : !(key in archived);
  const s = spec(place.tab);
  const types = columnTypesOf(place.tab);
  const seen: Record<string, number> = {};
  // Kaigi only appends to a log tab, so its rows stand in the order they were created; people may sort config tabs.
  const ordered = s.kind === 'log' && !place.archive;
  let lastCreated = 0;
  for (let i = 0; i < place.rows.length; i++) {
    const values = place.rows[i];
    const row = i + 2;
    if (values.every((v) => v === '' || v === null || v === undefined)) continue;
    const key = auditKeyOf(place.tab, values);
    const base = key.split('#')[0];
    // A continuation row of a message recorded the earlier way is checked with its first row.
    if (key !== base && latest[base]?.legacy === 'message' && !latest[key]) continue;
    const rec = latest[key];
    const problem = (detail: string, column?: string): RowProblem =>
      column ? { tab: place.label, row, column, detail } : { tab: place.label, row, detail };
    if (!rec)
      return problem(`row ${row} (${key || 'no key'}) has no audit record: it was inserted behind Kaigi's back`);
    if (key in seen) return problem(`row ${row} repeats ${key} of row ${seen[key]}: it was inserted`);
    seen[key] = row;
    if (!here(key))
      return problem(
        !place.archive
          ? `row ${row} (${key}) was moved to the archive at audit seq ${archived[key].seq} but is still here`
          : key in archived
            ? `row ${row} (${key}) is in this archive, but the audit records its move to the archive ${archived[key].archive} at seq ${archived[key].seq}`
            : `row ${row} (${key}) is in the archive, but the audit records no move of it`,
      );
    if (!matches(place, i, rec, types, sha256)) {
      const c = firstChangedColumn(types, values, rec.digest.cols);
      const column = c >= 0 ? s.columns[c].key : undefined;
      return problem(
        `row ${row} (${key})${column ? `, column ${column},` : ''} was altered after audit seq ${rec.seq}`,
        column,
      );
    }
    if (ordered && rec.created < lastCreated)
      return problem(`row ${row} (${key}) stands after a row created later: rows were moved or inserted`);
    lastCreated = Math.max(lastCreated, rec.created);
  }
  // A key the chain records here that the tab no longer holds was removed; named where it would stand.
  let gone: { key: string; rec: Latest } | null = null;
  for (const key of Object.keys(latest)) {
    if (key in seen || !here(key)) continue;
    if (!gone || latest[key].created < gone.rec.created) gone = { key, rec: latest[key] };
  }
  if (!gone) return null;
  let row = place.rows.length + 2;
  for (let i = 0; i < place.rows.length; i++) {
    const k = auditKeyOf(place.tab, place.rows[i]);
    if (latest[k] && latest[k].created > gone.rec.created) {
      row = i + 2;
      break;
    }
  }
  return {
    tab: place.label,
    row,
    detail: `${gone.key} (recorded at row ${gone.rec.digest.row}, audit seq ${gone.rec.seq}) is missing: the row was deleted`,
  };
}

// The first problem over every audited tab, main rows before archived ones, in the tabs' order.
export function checkRows(
  events: readonly AuditRecord[],
  places: readonly TabRows[],
  sha256: (s: string) => string,
): RowProblem | null {
  const { latest, archived } = recordsOf(events);
  // A move naming no archive that is read (a chain from before archives had ids) went to the first one.
  const ids = places.filter((p) => p.archive).map((p) => p.archiveId ?? '');
  for (const byKey of Object.values(archived))
    for (const m of Object.values(byKey)) if (ids.indexOf(m.archive) < 0) m.archive = ids[0] ?? '';
  for (const tab of AUDITED_TABS) {
    const name = spec(tab).name;
    const here = places.filter((p) => p.tab === tab).sort((a, b) => Number(a.archive) - Number(b.archive));
    const moved = Object.keys(archived[name] ?? {});
    if (moved.length && !here.some((p) => p.archive))
      return {
        tab: name,
        row: 0,
        detail: `${moved.length} ${name} rows were moved to the archive (${moved[0]} first), which could not be read`,
      };
    for (const place of here) {
      const problem = checkPlace(place, latest[name] ?? {}, archived[name] ?? {}, sha256);
      if (problem) return problem;
    }
  }
  return null;
}
