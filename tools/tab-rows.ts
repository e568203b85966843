// A tab's rows as objects by column name, read straight from a runtime's workbook (no execution, nothing counted).
import type { Runtime } from '../runtime/runtime.js';
import { rowsOf, tabByKey, type TabKey } from '../sheets-schema/index.js';

// Blank rows (a cleared row the tab still has) are left out.
export function tabRows(rt: Runtime, key: TabKey): Record<string, unknown>[] {
  const sheet = rt.workbook.sheetByName(tabByKey(key).name);
  if (!sheet) throw new Error(`no ${key} tab`);
  const last = rt.workbook.lastRow(sheet);
  if (last < 2) return [];
  const m = rowsOf(key);
  return rt.workbook
    .getValues(sheet, 2, 1, last - 1, m.width)
    .map((v) => m.read(v) as Record<string, unknown>)
    .filter((r) => Object.values(r).some((v) => v !== ''));
}
