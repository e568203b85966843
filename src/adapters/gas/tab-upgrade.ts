// Brings the tabs of a workbook made by an earlier release to this release's layout before anything writes to them.
import { TABS, type TabSpec } from '../../../sheets-schema/index.js';
import { lazy } from '../../core/lazy.js';
import { planTab } from '../../core/tab-plan.js';
import { applyTab, findSheet, readHeader } from './tabs.js';

// A short fingerprint of every tab's name and columns: the state records the layout its tabs were last brought to.
// Computed on first use: hashing every tab's columns took about 1 ms of every execution's load.
export const tabLayout = lazy(() => {
  const text = TABS.map((t) => `${t.key}:${t.columns.map((c) => c.key).join(',')}`).join(';');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `L${h.toString(16)}`;
});

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
