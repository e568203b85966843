// Which service calls change what a save keeps, and the journal entry each such call makes once it has been applied.
import type { ServiceArgs, ServiceOp } from '../service-calls.js';
import type { ExecContext, HostState } from './handler.js';
import type { JournalEntry } from './journal-records.js';
import { sheetEntry } from './sheet-entry.js';

// 'read': nothing a save keeps (reads, caches, locks, fetches, the UI; flush only sends writes, each journaled as it
// is sent). 'sheet': a change to a spreadsheet. The type makes leaving a new operation out a compile error.
type Effect = 'read' | 'sheet' | 'create' | 'props' | 'triggers';

const EFFECTS: Record<ServiceOp, Effect> = {
  'ss.name': 'read',
  'ss.owner': 'read',
  'ss.rename': 'sheet',
  'ss.sheets': 'read',
  'ss.sheetByName': 'read',
  'ss.sheetById': 'read',
  'ss.insertSheet': 'sheet',
  'ss.deleteSheet': 'sheet',
  'ss.activeSheet': 'read',
  'ss.setActive': 'sheet',
  'ss.moveActive': 'sheet',
  'ss.timeZone': 'read',
  'ss.setTimeZone': 'sheet',
  'ss.locale': 'read',
  'ss.setLocale': 'sheet',
  'ss.flush': 'read',
  'ss.create': 'create',
  'ss.open': 'read',
  'ss.editors': 'read',
  'ss.addEditors': 'sheet',
  'ss.removeEditor': 'sheet',
  'sh.name': 'read',
  'sh.setName': 'sheet',
  'sh.index': 'read',
  'sh.lastRow': 'read',
  'sh.lastColumn': 'read',
  'sh.maxRows': 'read',
  'sh.maxColumns': 'read',
  'sh.size': 'read',
  'sh.extent': 'read',
  'sh.appendRow': 'sheet',
  'sh.insertRows': 'sheet',
  'sh.deleteRows': 'sheet',
  'sh.insertColumns': 'sheet',
  'sh.deleteColumns': 'sheet',
  'sh.setFrozen': 'sheet',
  'sh.frozen': 'read',
  'sh.setColumnWidths': 'sheet',
  'sh.columnWidth': 'read',
  'sh.protect': 'sheet',
  'sh.protections': 'read',
  'sh.setHidden': 'sheet',
  'sh.hidden': 'read',
  'sh.setTabColor': 'sheet',
  'sh.tabColor': 'read',
  'sh.clear': 'sheet',
  'sh.chartUpsert': 'sheet',
  'sh.chartRemove': 'sheet',
  'sh.charts': 'read',
  'pr.update': 'sheet',
  'pr.remove': 'sheet',
  'rg.getValues': 'read',
  'rg.getDisplayValues': 'read',
  'rg.getFormulas': 'read',
  'rg.setValues': 'sheet',
  'rg.setFormulas': 'sheet',
  'rg.getNumberFormats': 'read',
  'rg.setNumberFormats': 'sheet',
  'rg.setValidation': 'sheet',
  'rg.getValidations': 'read',
  'rg.clear': 'sheet',
  'rg.setStyle': 'sheet',
  'rg.find': 'read',
  'rg.protect': 'sheet',
  'props.get': 'read',
  'props.all': 'read',
  'props.set': 'props',
  'props.delete': 'props',
  'props.clear': 'props',
  'cache.get': 'read',
  'cache.put': 'read',
  'cache.remove': 'read',
  'lock.acquire': 'read',
  'lock.release': 'read',
  'trig.create': 'triggers',
  'trig.list': 'read',
  'trig.delete': 'triggers',
  fetch: 'read',
  'ui.menu': 'read',
  'ui.sidebar': 'read',
  'ui.dialog': 'read',
  'ui.toast': 'read',
  'ui.alert': 'read',
  'ui.prompt': 'read',
};

// The entry for a call that has just changed what a save keeps (not a held write: write-buffer.ts journals those
// when they are sent), or null when the call changed none of it.
export function entryFor(
  st: HostState,
  ex: ExecContext,
  op: ServiceOp,
  args: unknown,
): ((result: unknown) => JournalEntry) | null {
  const effect = EFFECTS[op];
  if (effect === 'read') return null;
  if (effect === 'sheet') return sheetEntry(st.workbook, ex, op, args);
  if (effect === 'triggers') return () => ({ k: 'triggers', list: structuredClone(st.triggers.triggers) });
  if (effect === 'create')
    return (result) => {
      const id = (result as { id: string }).id;
      const made = st.spreadsheets.all().find(([x]) => x === id)![1];
      const wb = made.workbook;
      return { k: 'create', id, name: wb.name, owner: made.owner, timeZone: wb.timeZone, locale: wb.locale };
    };
  const p = args as ServiceArgs<'props.set'> & { key?: string };
  const user = p.store === 'user' ? ex.user || ex.owner : undefined;
  const who = { store: p.store, ...(user === undefined ? {} : { user }) };
  if (op === 'props.set')
    return () => ({
      k: 'props',
      ...who,
      // As the store keeps them (PropertyStore.set).
      entries: Object.fromEntries(Object.entries(p.entries).map(([k, v]) => [k, String(v)])),
      deleteAllOthers: !!p.deleteAllOthers,
    });
  if (op === 'props.delete') return () => ({ k: 'props-delete', ...who, key: String(p.key) });
  return () => ({ k: 'props-clear', ...who });
}
