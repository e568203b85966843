// KPI data coming in (POST /kpi): one zod schema for a row, the batch's field issues, and what a batch
// does to the stored rows (append, duplicate, conflict, replace). Used by the route, the MCP tool, the CLI import and
// the sidebar's paste form alike.
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import { echoable, pathOf, quoteInput, unknownKeysMessage } from '../api/input-echo.js';
import { metricIssues } from './metric-table.js';

// A calendar day as YYYY-MM-DD that exists (no 2026-02-30).
export function isCalendarDay(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === s;
}

// Strict: a misspelt key ("vlaue") is refused by name, never dropped. The note is kept as written; the KPI tab's
// text columns are plain text, so a note that looks like a formula stays text.
export const kpiRowSchema = lazy(() =>
  z.strictObject({
    member_id: z.string().trim().min(1, 'must be a non-empty member id').max(200),
    date: z.string().refine(isCalendarDay, 'must be a calendar day as YYYY-MM-DD'),
    metric: z.string().trim().min(1, 'must be a non-empty metric name').max(200),
    value: z.number({ error: 'must be a number' }).finite('must be a finite number'),
    note: z.string().max(2000).optional(),
  }),
);
export type KpiInputRow = z.infer<ReturnType<typeof kpiRowSchema>>;

export interface RowIssue {
  // `rows[i].field` (0-based i, as the batch was sent), or `rows[i]` when the row is not an object.
  field: string;
  code: string;
  message: string;
}

// Every problem of a batch, each naming its row and field; the rows when there is none.
export function checkRows(
  rows: readonly unknown[],
  members: readonly string[],
  bounds?: Parameters<typeof metricIssues>[2],
): { rows: KpiInputRow[]; issues: RowIssue[] } {
  const out: KpiInputRow[] = [];
  const issues: RowIssue[] = [];
  rows.forEach((raw, i) => {
    const parsed = kpiRowSchema().safeParse(raw);
    if (!parsed.success) {
      for (const e of parsed.error.issues) {
        // An unknown key is named only when it may be repeated (src/core/api/input-echo.ts).
        const keys = e.code === 'unrecognized_keys' ? e.keys : null;
        const key = keys ? keys.filter(echoable).join(', ') : undefined;
        const path = key ?? pathOf(e.path);
        const message = keys ? unknownKeysMessage(keys) : e.message;
        issues.push({ field: path ? `rows[${i}].${path}` : `rows[${i}]`, code: e.code, message });
      }
      return;
    }
    const found = bounds ? metricIssues(parsed.data, i, bounds) : [];
    if (members.indexOf(parsed.data.member_id) < 0)
      found.unshift({
        field: `rows[${i}].member_id`,
        code: 'unknown_member',
        message: `${quoteInput(parsed.data.member_id, 'that id')} is not a member (Members tab)`,
      });
    if (found.length) issues.push(...found);
    else out.push(parsed.data);
  });
  return { rows: issues.length ? [] : out, issues };
}

export function issueText(issues: readonly RowIssue[], max = 5): string {
  const shown = issues.slice(0, max).map((i) => `${i.field}: ${i.message}`);
  if (issues.length > max) shown.push(`and ${issues.length - max} more`);
  return shown.join('; ');
}

// A row already in the KPI tab: its sheet row and value.
export interface StoredKpi {
  row: number;
  member_id: string;
  date: string;
  metric: string;
  value: number | string;
}

export interface KpiPlan {
  append: KpiInputRow[];
  // Indexes (in the batch) of rows whose member, date and metric are stored with the same value.
  duplicates: number[];
  // Stored rows a `replace` batch overwrites, with the batch row that overwrites them.
  replace: { index: number; stored: StoredKpi; row: KpiInputRow }[];
  // Rows that differ from a stored one (or from an earlier row of the batch) and were not sent with replace.
  conflicts: { index: number; message: string }[];
}

const keyOf = (r: { member_id: string; date: string; metric: string }) => `${r.member_id}\n${r.date}\n${r.metric}`;

// What a checked batch does. The same member, date and metric as a stored row is a duplicate when the value is the
// same, a conflict otherwise (unless `replace`); twice in one batch, the second is a duplicate or a conflict too.
export function planKpi(rows: readonly KpiInputRow[], stored: readonly StoredKpi[], replace: boolean): KpiPlan {
  const plan: KpiPlan = { append: [], duplicates: [], replace: [], conflicts: [] };
  const have: Record<string, StoredKpi[]> = {};
  for (const s of stored) (have[keyOf(s)] ??= []).push(s);
  const sent: Record<string, number> = {};
  rows.forEach((r, i) => {
    const k = keyOf(r);
    const what = `${r.member_id}, ${r.date}, ${r.metric}`;
    if (k in sent) {
      const first = rows[sent[k]];
      if (first.value === r.value) plan.duplicates.push(i);
      else
        plan.conflicts.push({
          index: i,
          message: `rows[${i}] (${what}): ${r.value} differs from rows[${sent[k]}]'s ${first.value} in the same batch`,
        });
      return;
    }
    sent[k] = i;
    const old = have[k] ?? [];
    if (!old.length) plan.append.push(r);
    else if (old.every((s) => s.value === r.value)) plan.duplicates.push(i);
    else if (replace) for (const s of old) plan.replace.push({ index: i, stored: s, row: r });
    else {
      const s = old.find((x) => x.value !== r.value) as StoredKpi;
      plan.conflicts.push({
        index: i,
        message: `rows[${i}] (${what}): ${r.value} differs from the stored ${s.value} (KPI row ${s.row}); send replace: true to overwrite it`,
      });
    }
  });
  return plan;
}
