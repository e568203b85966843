// Rows by column name: one typed mapper per tab, derived from the tab definitions, so no code reads `v[7]`.
import { TABS } from './tabs.js';
import type { ColumnType, TabSpec } from './types.js';

type TabDef = (typeof TABS)[number];
export type TabKey = TabDef['key'];
export type ColumnOf<K extends TabKey> = Extract<TabDef, { key: K }>['columns'][number]['key'];
// A row as an object keyed by its tab's column names; values are what a cell holds (string, number, boolean, Date).
export type RowOf<K extends TabKey> = { [C in ColumnOf<K>]: unknown };

export interface RowMapper<K extends TabKey> {
  readonly key: K;
  readonly width: number;
  // 0-based index of a column in the tab, for the few places that address one column of a range.
  index(column: ColumnOf<K>): number;
  read(values: readonly unknown[]): RowOf<K>;
  // A full row in column order; columns the object leaves out are taken from `base`, or left empty.
  write(row: Partial<RowOf<K>>, base?: readonly unknown[]): unknown[];
}

// The mapper of a tab chosen at run time (a plan's op, a retention pass over several tabs): columns named by string,
// checked only at run time (an unknown name gives an undefined index).
export interface AnyRowMapper {
  readonly key: TabKey;
  readonly width: number;
  index(column: string): number;
  read(values: readonly unknown[]): Record<string, unknown>;
  write(row: Record<string, unknown>, base?: readonly unknown[]): unknown[];
}

export function rowsOfAny(key: TabKey): AnyRowMapper {
  return rowsOf(key);
}

const mappers: Partial<Record<TabKey, RowMapper<TabKey>>> = {};

export function rowsOf<K extends TabKey>(key: K): RowMapper<K> {
  const hit = mappers[key];
  if (hit) return hit as unknown as RowMapper<K>;
  const spec = TABS.find((t) => t.key === key) as TabSpec | undefined;
  if (!spec) throw new Error(`unknown tab ${key}`);
  const names = spec.columns.map((c) => c.key) as ColumnOf<K>[];
  const at: Record<string, number> = {};
  names.forEach((n, i) => {
    at[n] = i;
  });
  const mapper: RowMapper<K> = {
    key,
    width: names.length,
    index(column) {
      return at[column];
    },
    read(values) {
      const out = {} as Record<string, unknown>;
      names.forEach((n, i) => {
        out[n] = i < values.length ? values[i] : '';
      });
      return out as RowOf<K>;
    },
    write(row, base) {
      const r = row as Record<string, unknown>;
      return names.map((n, i) => (n in r && r[n] !== undefined ? r[n] : base && i < base.length ? base[i] : ''));
    },
  };
  mappers[key] = mapper as unknown as RowMapper<TabKey>;
  return mapper;
}

// Tabs Kaigi appends to (their tails live in the store's state) and tabs read through the configuration cache.
export const APPEND_TABS = TABS.filter((t) => t.kind === 'log').map((t) => t.key) as TabKey[];
export const CONFIG_TABS = TABS.filter((t) => t.kind === 'config' || ('cached' in t && t.cached)).map(
  (t) => t.key,
) as TabKey[];

// The audited tabs and how a row's key is read (docs/architecture.md, Audit).
export const AUDITED_TABS = TABS.filter((t) => (t as TabSpec).audit).map((t) => t.key) as TabKey[];

export function isAudited(key: TabKey): boolean {
  return AUDITED_TABS.indexOf(key) >= 0;
}

// The key an audit event names for a row of an audited tab: the id column, with `#n` for a continuation row.
export function auditKeyOf(key: TabKey, values: readonly unknown[]): string {
  const spec = TABS.find((t) => t.key === key) as TabSpec;
  const a = spec.audit;
  if (!a) throw new Error(`${spec.name} is not an audited tab`);
  const at = (name: string) => spec.columns.findIndex((c) => c.key === name);
  const id = values[at(a.key)];
  const base = id === null || id === undefined ? '' : String(id);
  if (!a.part) return base;
  const part = values[at(a.part)];
  return part === '' || part === 0 || part === '0' || part === null || part === undefined
    ? base
    : `${base}#${String(part)}`;
}

// Column types in order, for a digest that reads a value the way its column means it.
export function columnTypesOf(key: TabKey): ColumnType[] {
  const spec = TABS.find((t) => t.key === key) as TabSpec;
  return spec.columns.map((c) => c.type);
}
