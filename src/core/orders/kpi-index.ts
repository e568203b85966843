// One index per KPI table, built in one pass and kept while the table is unchanged: every series, each member's
// metrics and dates, each metric's members, and whatever else is derived from the same rows (memoOnRows).
import type { KpiRow } from '../types.js';

export interface Point {
  date: string;
  value: number;
}

// A discussion's prompts and rules ask for dozens of series, metric lists and tables of the same rows, and a scan of
// all rows for each made the learning bench's year of discussions several times slower. The rows are readonly by
// type; a table that grew or shrank (its length or ends changed) is indexed afresh.
interface KpiIndex {
  length: number;
  first: KpiRow | undefined;
  last: KpiRow | undefined;
  // member → metric → its points by date (finite values only).
  points: Map<string, Map<string, Point[]>>;
  lists: {
    // member → the metrics of its rows, sorted; member → the dates of its rows, sorted (any value).
    metrics: Map<string, string[]>;
    dates: Map<string, string[]>;
    // metric → the members with a row of it, in the order of their first row.
    members: Map<string, string[]>;
  } | null;
  memo: Map<string, unknown>;
}
const indexes = new WeakMap<readonly KpiRow[], KpiIndex>();

const byDate = (a: Point, b: Point) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

function sorted(list: readonly Point[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1].date > list[i].date) return false;
  return true;
}

export function kpiIndex(rows: readonly KpiRow[]): KpiIndex {
  const known = indexes.get(rows);
  if (known && known.length === rows.length && known.first === rows[0] && known.last === rows[rows.length - 1])
    return known;
  const points = new Map<string, Map<string, Point[]>>();
  for (const r of rows) {
    if (typeof r.value !== 'number' || !Number.isFinite(r.value)) continue;
    // As text, as the member-and-metric key this index replaced made them.
    const member = String(r.member_id);
    const metric = String(r.metric);
    let own = points.get(member);
    if (!own) points.set(member, (own = new Map()));
    let list = own.get(metric);
    if (!list) own.set(metric, (list = []));
    list.push({ date: r.date, value: r.value });
  }
  // A stable sort (rows usually arrive by date already): equal dates keep their row order.
  for (const own of points.values()) for (const list of own.values()) if (!sorted(list)) list.sort(byDate);
  const index: KpiIndex = {
    length: rows.length,
    first: rows[0],
    last: rows[rows.length - 1],
    points,
    lists: null,
    memo: new Map(),
  };
  indexes.set(rows, index);
  return index;
}

// Each member's metrics and dates and each metric's members: one more pass over the rows, made only when asked (the
// watcher reads series alone on most days).
export function kpiLists(rows: readonly KpiRow[]): NonNullable<KpiIndex['lists']> {
  const index = kpiIndex(rows);
  if (index.lists) return index.lists;
  const metricSets = new Map<string, Set<string>>();
  const dateSets = new Map<string, Set<string>>();
  const memberSets = new Map<string, Set<string>>();
  const add = (sets: Map<string, Set<string>>, key: string, value: string) => {
    let set = sets.get(key);
    if (!set) sets.set(key, (set = new Set()));
    set.add(value);
  };
  for (const r of rows) {
    add(metricSets, r.member_id, r.metric);
    add(dateSets, r.member_id, r.date);
    add(memberSets, r.metric, r.member_id);
  }
  const sortedLists = (sets: Map<string, Set<string>>) => new Map([...sets].map(([k, s]) => [k, [...s].sort()]));
  index.lists = {
    metrics: sortedLists(metricSets),
    dates: sortedLists(dateSets),
    members: new Map([...memberSets].map(([k, s]) => [k, [...s]])),
  };
  return index.lists;
}

// A value derived from the rows alone (a prompt table, say), computed once per table and key. It must not be changed
// by its callers: it is handed out again as it is.
export function memoOnRows<T>(rows: readonly KpiRow[], key: string, compute: () => T): T {
  const memo = kpiIndex(rows).memo;
  if (memo.has(key)) return memo.get(key) as T;
  const value = compute();
  memo.set(key, value);
  return value;
}

// The dates a member has rows for, sorted, once each.
export function datesOf(rows: readonly KpiRow[], member: string): string[] {
  return (kpiLists(rows).dates.get(member) ?? []).slice();
}
