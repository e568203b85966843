// What a person's structural change (rows inserted or removed, seen by the on-change trigger) did to the
// configuration tabs, against what the audit chain last recorded of each row: the rows removed, and the rows that
// moved with their content unchanged. A row changed or added behind Kaigi's back is neither: verifyAudit keeps
// naming it until a person makes the change again in the sheet.
import { auditKeyOf, columnTypesOf, type TabKey, TABS } from '../../../sheets-schema/index.js';
import { rowDigest } from './audit-rows.js';

// The audit events of this module: a recorded row a person removed, and a tab's rows that moved (by key, where).
export const ROW_REMOVED = 'config_row_removed';
export const ROWS_MOVED = 'config_rows_moved';

export interface ChainEvent {
  event: string;
  tab: string;
  row_key: string;
  payload: Record<string, unknown>;
}

// Where and as what the chain last recorded a row (the digest's SHA-256; none for a release before digests).
interface Recorded {
  row: number;
  sha256: string | null;
}

export interface StructurePlan {
  removed: { key: string; row: number }[];
  // Current row by key, for the rows whose place changed and whose content is as recorded.
  moved: Record<string, number>;
}

// Each key's latest record in one tab (by the tab's name), events oldest first; a removal forgets the key.
export function recordedRows(events: readonly ChainEvent[], tabName: string): Record<string, Recorded> {
  const out: Record<string, Recorded> = {};
  for (const e of events) {
    if (e.tab !== tabName) continue;
    if (e.event === ROW_REMOVED) {
      delete out[e.row_key];
      continue;
    }
    if (e.event === ROWS_MOVED) {
      const moved = (e.payload.moved ?? {}) as Record<string, unknown>;
      for (const k of Object.keys(moved)) if (out[k] && typeof moved[k] === 'number') out[k].row = moved[k] as number;
      continue;
    }
    const d = e.payload.digest as { row?: unknown; sha256?: unknown } | undefined;
    if (d && typeof d.sha256 === 'string' && typeof d.row === 'number')
      out[e.row_key] = { row: d.row, sha256: d.sha256 };
    else if (typeof e.payload.sha256 === 'string' && typeof e.payload.row === 'number')
      out[e.row_key] = { row: e.payload.row, sha256: null };
  }
  return out;
}

// The tab's rows (from row 2) against its records: keys recorded but gone, and rows now elsewhere but unchanged.
export function structurePlan(
  tab: TabKey,
  recorded: Record<string, Recorded>,
  rows: readonly unknown[][],
  sha256: (s: string) => string,
): StructurePlan {
  const types = columnTypesOf(tab);
  const seen: Record<string, true> = {};
  const moved: Record<string, number> = {};
  rows.forEach((values, i) => {
    if (values.every((v) => v === '' || v === null || v === undefined)) return;
    const key = auditKeyOf(tab, values);
    if (!key || seen[key]) return;
    seen[key] = true;
    const rec = recorded[key];
    if (!rec || rec.row === i + 2) return;
    if (rec.sha256 !== null && rowDigest(types, values, sha256) === rec.sha256) moved[key] = i + 2;
  });
  const removed = Object.keys(recorded)
    .filter((k) => !seen[k])
    .map((key) => ({ key, row: recorded[key].row }));
  return { removed, moved };
}

// The changeTypes of a change to the grid's structure; EDIT and FORMAT change no row's place.
const STRUCTURAL: readonly string[] = [
  'INSERT_ROW',
  'REMOVE_ROW',
  'INSERT_COLUMN',
  'REMOVE_COLUMN',
  'INSERT_GRID',
  'REMOVE_GRID',
  'OTHER',
];

export function isStructural(changeType: unknown): boolean {
  return typeof changeType === 'string' && STRUCTURAL.indexOf(changeType) >= 0;
}

// The audited configuration tabs a person may restructure (Settings, Agents, Prompts).
export const STRUCTURED_TABS: readonly TabKey[] = TABS.filter((t) => t.kind === 'config').map((t) => t.key as TabKey);
