// Plans how an existing tab is brought in line with its definition, never dropping a column.
import type { TabSpec } from '../../sheets-schema/index.js';

export interface TabPlan {
  tab: string;
  // The tab's header row is blank: write the whole header.
  writeHeader: boolean;
  // Columns to insert (1-based position they will occupy), in ascending order.
  insert: { at: number; key: string }[];
  // Header cells that match no defined column: kept where they are, reported as possible renames.
  unknown: { column: number; header: string }[];
  // Defined columns found out of order; reported, not moved, since moving would rewrite user data.
  misplaced: { key: string; expected: number; found: number }[];
  // The header after the plan is applied.
  header: string[];
}

export function planTab(spec: TabSpec, existing: string[]): TabPlan {
  const keys = spec.columns.map((c) => c.key);
  const trimmed = existing.map((h) => String(h).trim());
  while (trimmed.length && trimmed[trimmed.length - 1] === '') trimmed.pop();
  if (trimmed.length === 0) {
    return { tab: spec.name, writeHeader: true, insert: [], unknown: [], misplaced: [], header: keys.slice() };
  }
  const header = trimmed.slice();
  const insert: TabPlan['insert'] = [];
  // Insert each missing column right after the previous defined column, so A–N order holds.
  keys.forEach((key, i) => {
    if (header.indexOf(key) >= 0) return;
    const prev = i === 0 ? -1 : header.indexOf(keys[i - 1]);
    const at = prev + 1;
    header.splice(at, 0, key);
    insert.push({ at: at + 1, key });
  });
  const unknown: TabPlan['unknown'] = [];
  const misplaced: TabPlan['misplaced'] = [];
  header.forEach((h, i) => {
    const k = keys.indexOf(h);
    if (k < 0) unknown.push({ column: i + 1, header: h });
    else if (k !== i) misplaced.push({ key: h, expected: k + 1, found: i + 1 });
  });
  return { tab: spec.name, writeHeader: false, insert, unknown, misplaced, header };
}

export function describePlan(p: TabPlan): string[] {
  const out: string[] = [];
  for (const c of p.insert) out.push(`${p.tab}: column "${c.key}" was missing and has been added at position ${c.at}`);
  for (const u of p.unknown)
    out.push(`${p.tab}: column ${u.column} "${u.header}" is not a Kaigi column (renamed?) — kept as it is`);
  for (const m of p.misplaced)
    out.push(`${p.tab}: column "${m.key}" is at position ${m.found}, expected ${m.expected}`);
  return out;
}
