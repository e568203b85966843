// Logical rows of a tab: headers as keys, overflowed values reassembled, messages rejoined from their chunks.
import { rowsOf, TABS, tabByName } from '../../../sheets-schema/index.js';
import { parsePointer } from '../../core/cells.js';
import { dayCell, isDate, messagesFromRows, sheetInstant } from '../../store/records.js';
import type { ColumnType } from '../../../sheets-schema/types.js';
import type { Store } from '../../store/store.js';

export type LogicalRow = Record<string, string | number | boolean>;

// A date column is the calendar day the sheet shows (a review date of 2026-12-03 stays the 3rd in a CSV, whatever
// the zone); a datetime is the sheet's wall clock with its offset. Any other Date (a person's typing in a text
// column) keeps its instant the same way.
function plain(v: unknown, type: ColumnType): string | number | boolean {
  if (type === 'date' && (isDate(v) || typeof v === 'number')) return dayCell(v);
  if (isDate(v)) return sheetInstant(v);
  return v as string | number | boolean;
}

export function exportTab(store: Store, name: string): { tab: string; columns: string[]; rows: LogicalRow[] } {
  const spec = tabByName(name);
  if (!spec)
    throw new Error(
      `no tab named "${name}"; the tabs are ${TABS.filter((t) => t.kind !== 'dashboard')
        .map((t) => `${t.name} (${t.nameJa})`)
        .join(', ')}`,
    );
  const columns = spec.columns.map((c) => c.key);
  const types = spec.columns.map((c) => c.type);
  let raw = store.readTab(spec.key).filter((r) => r.some((v) => v !== ''));
  if (spec.key === 'messages') {
    // One logical row per message: its chunk rows joined back into the full message JSON.
    const cols = rowsOf('messages');
    const ids: string[] = [];
    for (const r of raw) {
      const id = String(cols.read(r).discussion_id);
      if (ids.indexOf(id) < 0) ids.push(id);
    }
    const firstRows = raw.filter((r) => Number(cols.read(r).chunk) === 0);
    const full: Record<string, string> = {};
    for (const id of ids) for (const m of messagesFromRows(raw, id)) full[m.message_id] = JSON.stringify(m);
    raw = firstRows.map((r) =>
      cols.write({ message_json: full[String(cols.read(r).message_id)], chunk: 0, chunks: 1 }, r),
    );
  } else {
    raw = store.resolveOverflow(raw);
  }
  const rows = raw.map((r) => {
    const o: LogicalRow = {};
    columns.forEach((c, i) => (o[c] = plain(r[i], types[i])));
    return o;
  });
  if (spec.key === 'discussions') {
    const messages = store.readTab('messages');
    for (const o of rows) {
      const p = parsePointer(o.messages_json);
      if (p) o.messages_json = JSON.stringify(messagesFromRows(messages, String(o.discussion_id)));
    }
  }
  return { tab: spec.name, columns, rows };
}
