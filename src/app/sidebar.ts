// What the sidebar shows: whether each tab is in place and the discussions in the log.
import { tabByKey, TABS } from '../../sheets-schema/index.js';
import { findSheet } from '../adapters/gas/tabs.js';

export interface SidebarData {
  tabs: { name: string; nameJa: string; present: boolean }[];
  discussions: { id: string; status: string; priority: string; target: string; createdAt: string }[];
}

export function sidebarData(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): SidebarData {
  const tabs = TABS.map((t) => ({ name: t.name, nameJa: t.nameJa, present: findSheet(ss, t) !== null }));
  const log = findSheet(ss, tabByKey('discussions'));
  const discussions: SidebarData['discussions'] = [];
  const last = log ? log.getLastRow() : 0;
  if (log && last >= 2) {
    const from = Math.max(2, last - 49);
    for (const row of log.getRange(from, 1, last - from + 1, 7).getValues()) {
      const created = row[6];
      discussions.push({
        id: String(row[0]),
        status: String(row[1]),
        priority: String(row[2]),
        target: String(row[4]),
        // google.script.run cannot return a Date, so times travel as ISO strings.
        createdAt: Object.prototype.toString.call(created) === '[object Date]' ? (created as Date).toISOString() : String(created),
      });
    }
  }
  return { tabs, discussions: discussions.reverse() };
}
