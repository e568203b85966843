// Finds Kaigi's tabs in a workbook by either language's name, reads a tab's header and fingerprints the tab layout.
import { TABS, type TabSpec } from '../../sheets-schema/index.js';
import { lazy } from '../core/lazy.js';
import type { SheetPort } from '../ports.js';

// Typed by the port, so a store on any spreadsheet finds its tabs; Apps Script's own spreadsheet gives its own sheets.
export function findSheet<S extends SheetPort>(
  ss: { getSheetByName(name: string): S | null },
  spec: TabSpec,
): S | null {
  return ss.getSheetByName(spec.name) ?? ss.getSheetByName(spec.nameJa);
}

export function readHeader(sheet: SheetPort): string[] {
  const width = sheet.getLastColumn();
  if (width === 0) return [];
  return sheet
    .getRange(1, 1, 1, width)
    .getValues()[0]
    .map((v) => String(v));
}

// A short fingerprint of every tab's name and columns: the state records the layout its tabs were last brought to.
// Computed on first use: hashing every tab's columns took about 1 ms of every execution's load.
export const tabLayout = lazy(() => {
  const text = TABS.map((t) => `${t.key}:${t.columns.map((c) => c.key).join(',')}`).join(';');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `L${h.toString(16)}`;
});
