// Brings the tabs of a workbook made by an earlier release to this release's layout before anything writes to them.
import { TABS, type TabSpec } from '../../../sheets-schema/index.js';
import { planTab } from '../../core/tab-plan.js';
import { findSheet, readHeader } from '../../store/tab-find.js';
import { applyTab } from './tabs.js';

// A missing tab is made and a missing column added (at the end, so the audit digests of existing rows still
// match); a workbook already in this layout reads one header per tab. Returns the tabs it changed.
export function upgradeTabs(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): string[] {
  const changed: string[] = [];
  for (const spec of TABS as readonly TabSpec[]) {
    const existing = findSheet(ss, spec);
    const plan = planTab(spec, existing ? readHeader(existing) : []);
    if (existing && !plan.insert.length && !plan.writeHeader) continue;
    applyTab(ss, spec, existing, plan);
    changed.push(spec.name);
  }
  return changed;
}
