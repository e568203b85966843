// KPI rows in (POST /kpi, MCP record_kpi, kaigi kpi import, the sidebar's paste form): the whole batch is checked
// under the lock, then written in one audited commit; a bad row or a conflict writes nothing.
import { rowsOf } from '../../../sheets-schema/index.js';
import { sha256Hex } from '../../store/crypto.js';
import { dayCell, dayOf, dayToDate, membersFromRows } from '../../store/records.js';
import { type MetricDef, metricTableOf } from '../../core/orders/metric-table.js';
import { ConflictError, TooLargeError, ValidationError } from '../../core/errors.js';
import {
  checkRows,
  isCalendarDay,
  issueText,
  type KpiPlan,
  planKpi,
  type RowIssue,
  type StoredKpi,
} from '../../core/orders/kpi-input.js';
import type { Council } from '../sheet-council.js';

const KPI = rowsOf('kpi');

export interface KpiResult {
  // Rows written: new ones, and stored ones a `replace` batch overwrote (`replaced` of them).
  accepted: number;
  duplicates: number;
  replaced: number;
}

export interface KpiCheck {
  issues: RowIssue[];
  // What the batch would do; null when a row is bad.
  plan: KpiPlan | null;
}

// The KPI tab as it is now (a person may have typed into it since this execution first read it).
function storedRows(council: Council): { stored: StoredKpi[]; values: unknown[][] } {
  council.store.forgetTab('kpi');
  const values = council.store.readTab('kpi');
  const stored: StoredKpi[] = [];
  values.forEach((v, i) => {
    const r = KPI.read(v);
    if (r.member_id === '' || r.metric === '') return;
    const value = typeof r.value === 'number' ? r.value : String(r.value);
    stored.push({ row: i + 2, member_id: String(r.member_id), date: dayCell(r.date), metric: String(r.metric), value });
  });
  return { stored, values };
}

// What a KPI row must keep to: the metric table, and the days from Settings kpi.earliest_date to today in the sheet's
// zone (a day that is not a calendar day in that setting leaves no earliest bound, as the setting check reports).
function kpiBounds(council: Council): { metrics: readonly MetricDef[]; today: string; earliest: string } {
  const s = council.settings();
  const earliest = String(s.get('kpi.earliest_date')).trim();
  return {
    metrics: metricTableOf(s),
    today: dayOf(council.now(), council.tz),
    earliest: isCalendarDay(earliest) ? earliest : '',
  };
}

function overLimit(rows: readonly unknown[], maxRows: number | undefined): void {
  if (maxRows !== undefined && rows.length > maxRows)
    throw new TooLargeError(
      `${rows.length} KPI rows are over the limit of ${maxRows} a batch (Settings api.max_kpi_rows); send them in smaller batches.`,
      'too_many_rows',
    );
}

// The batch's problems and what it would do, writing nothing (the sidebar shows this before the person commits).
export function checkKpi(council: Council, rows: readonly unknown[], replace: boolean, maxRows?: number): KpiCheck {
  overLimit(rows, maxRows);
  if (!rows.length) return { issues: [{ field: 'rows', code: 'too_small', message: 'no rows to record' }], plan: null };
  const members = membersFromRows(council.store.readTab('members')).map((m) => m.member_id);
  const checked = checkRows(rows, members, kpiBounds(council));
  if (checked.issues.length) return { issues: checked.issues, plan: null };
  return { issues: [], plan: planKpi(checked.rows, storedRows(council).stored, replace) };
}

export function recordKpi(
  council: Council,
  rows: readonly unknown[],
  opts: { replace?: boolean; actor: string; maxRows?: number },
): KpiResult {
  overLimit(rows, opts.maxRows);
  return council.store.withLock((state) => {
    const { issues, plan } = checkKpi(council, rows, !!opts.replace, opts.maxRows);
    if (!plan)
      throw new ValidationError(`The KPI rows were not recorded: ${issueText(issues)}`, 'invalid_input', issues);
    if (plan.conflicts.length) {
      const shown = plan.conflicts.slice(0, 5).map((x) => x.message);
      if (plan.conflicts.length > 5) shown.push(`and ${plan.conflicts.length - 5} more`);
      throw new ConflictError(`The KPI rows were not recorded: ${shown.join('; ')}`, 'kpi_conflict');
    }
    const result = { accepted: plan.append.length + plan.replace.length, duplicates: plan.duplicates.length };
    const replaced = plan.replace.length;
    if (!result.accepted) return { ...result, replaced };
    // The stored cells a replacement keeps (its date, and its note when the batch sends none).
    const values = plan.replace.length ? storedRows(council).values : [];
    const c = council.store.begin(state, opts.actor);
    const appended = plan.append.map((r) =>
      KPI.write({
        date: dayToDate(r.date),
        member_id: r.member_id,
        metric: r.metric,
        value: r.value,
        note: r.note ?? '',
      }),
    );
    let first = 0;
    if (appended.length) {
      const sheet = council.store.sheet('kpi');
      first = c.appendData('kpi', Math.max(1, sheet.getLastRow()), sheet.getMaxRows(), appended);
    }
    for (const x of plan.replace) {
      const base = values[x.stored.row - 2];
      c.update('kpi', x.stored.row, KPI.write({ value: x.row.value, note: x.row.note ?? KPI.read(base).note }, base));
      c.audit({
        actor: opts.actor,
        event: 'kpi_replaced',
        tab: 'KPI',
        row_key: `KPI:${x.stored.row}`,
        payload: {
          member_id: x.row.member_id,
          date: x.row.date,
          metric: x.row.metric,
          from: x.stored.value,
          to: x.row.value,
        },
      });
    }
    c.audit({
      actor: opts.actor,
      event: 'kpi_recorded',
      tab: 'KPI',
      row_key: appended.length ? `KPI:${first}-${first + appended.length - 1}` : 'KPI',
      payload: {
        ...result,
        replaced,
        rows: appended.length ? [first, first + appended.length - 1] : [],
        // One digest of the rows appended, in order: what a later check compares them with.
        sha256: sha256Hex(appended.map((v) => c.digest(v)).join('\n')),
      },
    });
    c.run(new Date(council.now()).toISOString());
    council.store.forgetTab('kpi');
    return { ...result, replaced };
  });
}
