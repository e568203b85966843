// The audit of configuration rows: a person's edit seen by the on-edit trigger, rows a person inserted or removed
// seen by the on-change trigger, and rows setup first records.
import { auditKeyOf, CONFIG_TABS, isAudited, rowsOf, type TabKey, tabByKey } from '../../../sheets-schema/index.js';
import { adoptUnrecorded } from '../../store/config-adopt.js';
import { sha256Hex } from '../../store/crypto.js';
import type { Store } from '../../store/store.js';
import {
  type ChainEvent,
  recordedRows,
  ROW_REMOVED,
  ROWS_MOVED,
  STRUCTURED_TABS,
  structurePlan,
} from '../../core/audit/config-structure.js';

export interface ConfigEdit {
  tab: TabKey;
  row: number;
  rows: number;
  column: number;
  columns: number;
  // Who made the edit, as far as Apps Script tells (an empty e.user for someone outside the owner's domain).
  by: string;
  // Apps Script gives old and new value only for a one-cell edit.
  oldValue?: string;
  value?: string;
}

// A cell's text as recorded in the audit: long prompt text is cut (the row's digest still covers all of it).
function short(v: unknown): unknown {
  const text = v instanceof Date ? v.toISOString() : v;
  return typeof text === 'string' && text.length > 500 ? `${text.slice(0, 500)}… (${text.length} characters)` : text;
}

// The edited rows as they now stand, one audit event each naming who, the columns, and old and new values. An edit
// Kaigi never saw (made offline, or with triggers off) is never recorded later, so verifyAudit keeps reporting it.
export function auditConfigEdit(store: Store, edit: ConfigEdit, now: Date): number {
  if (CONFIG_TABS.indexOf(edit.tab) < 0 || !isAudited(edit.tab)) return 0;
  const cols = tabByKey(edit.tab).columns;
  const first = Math.max(edit.row, 2);
  const last = edit.row + edit.rows - 1;
  if (last < first) return 0;
  const names = cols.slice(edit.column - 1, edit.column - 1 + edit.columns).map((c) => c.key);
  const single = edit.rows === 1 && edit.columns === 1;
  return store.withLock((state) => {
    const rows = store.readRows(edit.tab, first, last - first + 1);
    const c = store.begin(state, edit.by);
    let recorded = 0;
    rows.forEach((values, i) => {
      if (values.every((v) => v === '')) return;
      const key = auditKeyOf(edit.tab, values);
      const changed: Record<string, unknown> = {};
      names.forEach((n) => {
        changed[n] = short(values[cols.findIndex((col) => col.key === n)]);
      });
      c.audit({
        actor: edit.by,
        event: 'config_edit',
        tab: tabByKey(edit.tab).name,
        row_key: key,
        payload: single ? { column: names[0], old: edit.oldValue ?? '', new: edit.value ?? '' } : { new: changed },
      });
      c.record(edit.tab, first + i, values);
      recorded++;
    });
    if (recorded) c.run(now.toISOString());
    return recorded;
  });
}

// Configuration rows no audit event names yet are recorded once (src/store/config-adopt.ts), by the person
// running setup.
export function adoptConfigRows(store: Store, by: string, now: Date): number {
  return store.withLock((state) => adoptUnrecorded(store, state, by, now).adopted);
}

// A person inserted or removed rows (or columns, or a sheet) somewhere: the on-change event does not say where, so
// each configuration tab is compared with what the chain last recorded of its rows (one read of the Audit tab and
// of each tab, under the lock). A recorded row that is gone is audited as removed by that person; rows that only
// moved are audited where they now stand. Returns how many audit events were written.
export function auditConfigStructure(store: Store, by: string, change: string, now: Date): number {
  const audit = rowsOf('audit');
  return store.withLock((state) => {
    const events: ChainEvent[] = store.readTail(state, 'audit', 2).map((v) => {
      const r = audit.read(v);
      return {
        event: String(r.event),
        tab: String(r.tab),
        row_key: String(r.row_key),
        payload: JSON.parse(String(r.payload_json || '{}')) as Record<string, unknown>,
      };
    });
    const c = store.begin(state, by);
    let written = 0;
    for (const tab of STRUCTURED_TABS) {
      const name = tabByKey(tab).name;
      const plan = structurePlan(tab, recordedRows(events, name), store.readTab(tab), sha256Hex);
      for (const gone of plan.removed) {
        c.audit({ actor: by, event: ROW_REMOVED, tab: name, row_key: gone.key, payload: { change, row: gone.row } });
        written++;
      }
      if (Object.keys(plan.moved).length) {
        c.audit({ actor: by, event: ROWS_MOVED, tab: name, row_key: '', payload: { change, moved: plan.moved } });
        written++;
      }
    }
    if (written) c.run(now.toISOString());
    return written;
  });
}
