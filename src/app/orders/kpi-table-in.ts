// KPI rows from CSV or TSV text (kaigi kpi import, the sidebar's paste form) through the same check and commit as
// POST /kpi, with every problem named by line and column instead of by the row's index in the batch.
import { ConflictError, ValidationError } from '../../core/errors.js';
import { parseKpiTable, type TableIssue, type TableRow, tableIssueOf } from '../../core/orders/kpi-table.js';
import type { Council } from '../sheet-council.js';
import { checkKpi, type KpiResult, recordKpi } from './kpi-ingest.js';

export interface TableOptions {
  // The first line must name the columns (a file); otherwise a header is optional (a paste).
  header: boolean;
  replace?: boolean;
  maxRows?: number;
}

type RowState = 'new' | 'duplicate' | 'replace' | 'conflict' | 'bad';

// What the paste form shows before the person commits: each row with what it would do, and each problem.
export interface TableCheck {
  rows: { line: number; row: Record<string, unknown>; state: RowState; problems: string[] }[];
  issues: TableIssue[];
  ok: boolean;
}

function linesIn(text: string, rows: readonly TableRow[]): string {
  return text
    .replace(/rows\[(\d+)\]\.([A-Za-z_, ]+?):/g, (m, i, col) =>
      rows[Number(i)] ? `line ${rows[Number(i)].line}, column ${col}:` : m,
    )
    .replace(/rows\[(\d+)\]/g, (m, i) => (rows[Number(i)] ? `line ${rows[Number(i)].line}` : m));
}

function tableIssueText(issues: readonly TableIssue[], max = 5): string {
  const shown = issues
    .slice(0, max)
    .map((i) => `${i.line ? `line ${i.line}` : 'the table'}${i.column ? `, column ${i.column}` : ''}: ${i.message}`);
  if (issues.length > max) shown.push(`and ${issues.length - max} more`);
  return shown.join('; ');
}

// Rows with a problem are 'bad'; the others are planned as they would be without them, so the person sees which of
// the good rows are new, duplicates or conflicts before fixing the bad ones.
export function checkKpiTable(council: Council, text: string, opts: TableOptions): TableCheck {
  const table = parseKpiTable(text, opts.header);
  if (table.issues.length) return { rows: [], issues: table.issues, ok: false };
  const all = table.rows.map((r) => r.row);
  const check = checkKpi(council, all, !!opts.replace, opts.maxRows);
  const issues = check.issues.map((i) => tableIssueOf(i, table.rows));
  const state: RowState[] = table.rows.map(() => 'new');
  const problems: string[][] = table.rows.map(() => []);
  check.issues.forEach((i, k) => {
    const m = /^rows\[(\d+)\]/.exec(i.field);
    if (!m) return;
    state[Number(m[1])] = 'bad';
    problems[Number(m[1])].push(`${issues[k].column ? `${issues[k].column}: ` : ''}${i.message}`);
  });
  const good = state.map((x, i) => (x === 'bad' ? -1 : i)).filter((i) => i >= 0);
  const plan =
    check.plan ??
    (good.length
      ? checkKpi(
          council,
          good.map((i) => all[i]),
          !!opts.replace,
        ).plan
      : null);
  // Indexes of the plan are of the rows it was given: all of them, or only the good ones.
  const at = (i: number) => (check.plan ? i : good[i]);
  if (plan) {
    for (const d of plan.duplicates) state[at(d)] = 'duplicate';
    for (const r of plan.replace) state[at(r.index)] = 'replace';
    for (const c of plan.conflicts) {
      const i = at(c.index);
      const message = linesIn(
        c.message.replace(/rows\[(\d+)\]/g, (_m, n) => `rows[${at(Number(n))}]`),
        table.rows,
      );
      state[i] = 'conflict';
      problems[i].push(message);
      issues.push({ line: table.rows[i].line, column: 'value', message });
    }
  }
  return {
    rows: table.rows.map((r, i) => ({ line: r.line, row: r.row, state: state[i], problems: problems[i] })),
    issues,
    ok: issues.length === 0,
  };
}

// Records the table in one commit, or refuses it whole: a problem is told by line and column (a bad header too).
export function recordKpiTable(council: Council, text: string, opts: TableOptions & { actor: string }): KpiResult {
  const table = parseKpiTable(text, opts.header);
  if (table.issues.length)
    throw new ValidationError(`The KPI rows were not recorded: ${tableIssueText(table.issues)}`, 'invalid_input');
  try {
    return recordKpi(
      council,
      table.rows.map((r) => r.row),
      opts,
    );
  } catch (e) {
    if (e instanceof ValidationError)
      throw new ValidationError(
        `The KPI rows were not recorded: ${tableIssueText((e.fields ?? []).map((i) => tableIssueOf(i, table.rows)))}`,
        e.code,
      );
    if (e instanceof ConflictError) throw new ConflictError(linesIn(e.message, table.rows), e.code);
    throw e;
  }
}
