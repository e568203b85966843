// Records audited rows no audit event names yet: the configuration rows setup adds, or, once at the upgrade from an
// earlier release, the rows that release did not audit (its configuration, learnings, reflections, outcomes…).
import { auditKeyOf, CONFIG_TABS, isAudited, rowsOf, type TabKey, tabByKey } from '../../sheets-schema/index.js';
import { ROW_REMOVED } from '../core/audit/config-structure.js';
import type { Commit } from './commit.js';
import type { StoreState } from './store-format.js';

// What adopting reads and commits through (store.ts's Store), named here because the store calls this module.
interface Store {
  begin(state: StoreState, actor?: string): Commit;
  readTab(key: TabKey): unknown[][];
  readTail(state: StoreState, key: TabKey, from: number): unknown[][];
}

// Under the caller's lock. A row an event already names is never adopted again, so a later change of it that the
// on-edit trigger did not see stays reported by verifyAudit.
export function adoptUnrecorded(
  store: Store,
  state: StoreState,
  by: string,
  now: Date,
  tabs: readonly TabKey[] = CONFIG_TABS,
): { state: StoreState; adopted: number } {
  const named: Record<string, Record<string, true>> = {};
  const audit = rowsOf('audit');
  for (const v of store.readTail(state, 'audit', 2)) {
    const r = audit.read(v);
    const payload = String(r.payload_json);
    // A row a person removed (seen by the on-change trigger) is named no more: put back, setup records it anew.
    if (String(r.event) === ROW_REMOVED) {
      delete named[String(r.tab)]?.[String(r.row_key)];
      continue;
    }
    // An event with a digest, or one from an earlier release that hashed the row.
    if (payload.indexOf('"digest"') >= 0 || payload.indexOf('"sha256"') >= 0)
      (named[String(r.tab)] ??= {})[String(r.row_key)] = true;
  }
  const c = store.begin(state, by);
  let adopted = 0;
  for (const tab of tabs) {
    const spec = tabByKey(tab);
    if (!isAudited(tab)) continue;
    store.readTab(tab).forEach((values, i) => {
      if (values.every((v) => v === '')) return;
      const key = auditKeyOf(tab, values);
      // A message's continuation row is covered by the event naming its first row.
      if (!key || named[spec.name]?.[key] || named[spec.name]?.[key.split('#')[0]]) return;
      c.audit({
        actor: by,
        event: CONFIG_TABS.indexOf(tab) >= 0 ? 'config_adopted' : 'row_adopted',
        tab: spec.name,
        row_key: key,
        payload: {},
      });
      c.record(tab, i + 2, values);
      adopted++;
    });
  }
  return { state: adopted ? c.run(now.toISOString()) : state, adopted };
}
