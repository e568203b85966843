// A commit's audit events with the digest of every audited row it wrote: each write is recorded, none by hand.
import { auditKeyOf, columnTypesOf, isAudited, type TabKey, TABS } from '../../../sheets-schema/index.js';
import type { AuditEvent } from './audit.js';
import { rowDigests } from './audit-rows.js';

export interface RowWrite {
  tab: TabKey;
  row: number;
  values: readonly unknown[];
  appended: boolean;
}

// What an audit event records of a row: where it was written, its SHA-256 and a hash per column.
export interface RowDigest {
  row: number;
  sha256: string;
  cols: string;
}

function tabName(key: TabKey): string {
  return (TABS.find((t) => t.key === key) as { name: string }).name;
}

function digestOf(tab: TabKey, row: number, values: readonly unknown[], sha256: (s: string) => string): RowDigest {
  return { row, ...rowDigests(columnTypesOf(tab), values, sha256) };
}

// The last write of each audited row, in the order of those last writes.
function lastWrites(writes: readonly RowWrite[]): RowWrite[] {
  const at: Record<string, number> = {};
  const out: (RowWrite | null)[] = [];
  for (const w of writes) {
    if (!isAudited(w.tab)) continue;
    const id = `${w.tab}:${w.row}`;
    if (id in at) {
      const first = out[at[id]] as RowWrite;
      out[at[id]] = null;
      // A row appended and then rewritten in the same commit is still a new row.
      out.push({ ...w, appended: first.appended || w.appended });
    } else out.push(w);
    at[id] = out.length - 1;
  }
  return out.filter((w): w is RowWrite => w !== null);
}

// Each audited row written gets its digest on the last event that names it (tab and key); a row no event names
// gets an event of its own. The events keep their order; the new ones follow.
export function withRowDigests(
  events: readonly AuditEvent[],
  writes: readonly RowWrite[],
  actor: string,
  sha256: (s: string) => string,
): AuditEvent[] {
  const out = events.map((e) => ({ ...e, payload: { ...e.payload } }));
  const extra: AuditEvent[] = [];
  for (const w of lastWrites(writes)) {
    if (w.values.every((v) => v === '' || v === null || v === undefined)) continue;
    const key = auditKeyOf(w.tab, w.values);
    const name = tabName(w.tab);
    if (!key) throw new Error(`a ${name} row written at row ${w.row} has no key: it could not be audited`);
    const digest = digestOf(w.tab, w.row, w.values, sha256);
    let named = -1;
    for (let i = out.length - 1; i >= 0 && named < 0; i--)
      if (out[i].tab === name && out[i].row_key === key && !out[i].payload.digest) named = i;
    if (named >= 0) out[named].payload.digest = digest;
    else
      extra.push({
        actor,
        event: w.appended ? 'row_added' : 'row_changed',
        tab: name,
        row_key: key,
        payload: { digest },
      });
  }
  return out.concat(extra);
}
