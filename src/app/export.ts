// Logical rows of a tab: headers as keys, overflowed values reassembled, messages rejoined from their chunks.
import { rowsOf, tabByName } from '../../sheets-schema/index.js';
import { parsePointer } from '../core/cells.js';
import { isDate, messagesFromRows } from '../adapters/gas/records.js';
import type { Store } from '../adapters/gas/store.js';

export type LogicalRow = Record<string, string | number | boolean>;

function plain(v: unknown): string | number | boolean {
  if (isDate(v)) return v.toISOString();
  return v as string | number | boolean;
}

export function exportTab(store: Store, name: string): { tab: string; columns: string[]; rows: LogicalRow[] } {
  const spec = tabByName(name);
  if (!spec) throw new Error(`no tab named "${name}"`);
  const columns = spec.columns.map((c) => c.key);
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
    columns.forEach((c, i) => (o[c] = plain(r[i])));
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
