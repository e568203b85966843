// Setup's migration to the metric table: metrics a workbook's KPI tab already holds but Settings kpi.metrics lacks
// join the table with the range they were observed in (widened: metric-table.ts), so no existing data stops reaching
// the council and the next ordinary value is not refused.
import { rowsOf, tabByKey } from '../../../sheets-schema/index.js';
import { findSheet } from '../../store/tab-find.js';
import type { SpreadsheetPort } from '../../ports.js';
import { metricTable, observedMetric } from '../../core/orders/metric-table.js';

const KEY = 'kpi.metrics';

// Returns the names added (none when the row is missing or does not parse: the settings check reports that).
export function adoptKpiMetrics(ss: SpreadsheetPort): string[] {
  const settings = findSheet(ss, tabByKey('settings'));
  const kpi = findSheet(ss, tabByKey('kpi'));
  if (!settings || !kpi || kpi.getLastRow() < 2 || settings.getLastRow() < 2) return [];
  const keys = settings.getRange(2, 1, settings.getLastRow() - 1, 2).getValues();
  const at = keys.findIndex((r) => String(r[0]) === KEY);
  if (at < 0) return [];
  let table: ReturnType<typeof metricTable>;
  try {
    table = metricTable(JSON.parse(String(keys[at][1])));
  } catch {
    return [];
  }
  const cols = rowsOf('kpi');
  const seen = new Map<string, number[]>();
  for (const v of kpi.getRange(2, 1, kpi.getLastRow() - 1, cols.width).getValues()) {
    const r = cols.read(v);
    const name = String(r.metric).trim();
    if (!name || table.some((m) => m.name === name)) continue;
    const values = seen.get(name) ?? [];
    if (typeof r.value === 'number' && Number.isFinite(r.value)) values.push(r.value);
    seen.set(name, values);
  }
  if (!seen.size) return [];
  const added = [...seen.entries()].map(([name, values]) => observedMetric(name, values));
  settings.getRange(at + 2, 2, 1, 1).setValues([[JSON.stringify(table.concat(added))]]);
  return added.map((m) => m.name);
}
