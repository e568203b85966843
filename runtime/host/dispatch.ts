// The host side of every service call: decodes the request, acts on the runtime's state, counts round trips.
import type { CacheStore } from './cache-store.js';
import type { Clock } from './clock.js';
import { httpFetch, type FetchResponse } from './http.js';
import type { LockManager } from './locks.js';
import type { PropertyStore } from './properties-store.js';
import type { TriggerSpec, TriggerStore } from './triggers.js';
import { zoneOffsetMinutes } from './values.js';
import {
  SheetsError,
  type ChartModel,
  type ProtectionModel,
  type SheetModel,
  type ValidationRule,
  type Workbook,
} from './workbook.js';

export type CountKey = 'reads' | 'writes' | 'appends' | 'flushes' | 'fetches' | 'other';

export interface ExecCounts {
  calls: number;
  reads: number;
  writes: number;
  appends: number;
  flushes: number;
  fetches: number;
  other: number;
  roundTrips: number;
  // Round trips by operation, for finding where an execution spends them.
  byOp: Record<string, number>;
}

export function newCounts(): ExecCounts {
  return { calls: 0, reads: 0, writes: 0, appends: 0, flushes: 0, fetches: 0, other: 0, roundTrips: 0, byOp: {} };
}

export interface UiRecord {
  menus: { caption: string; items: unknown[] }[];
  sidebars: { title: string; html: string; width: number }[];
  dialogs: { title: string; html: string; modal: boolean }[];
  alerts: { title: string; prompt: string; buttons: string }[];
  toasts: { msg: string; title: string }[];
  // Answers the next alerts/prompts will get; defaults: OK / YES with empty text.
  responses: { button: string; text?: string }[];
}

export interface HostState {
  workbook: Workbook;
  clock: Clock;
  locks: LockManager;
  triggers: TriggerStore;
  scriptProperties: PropertyStore;
  userProperties: (user: string) => PropertyStore;
  documentProperties: PropertyStore;
  cache: (scope: string, user: string) => CacheStore;
  ui: UiRecord;
  fetchTimeoutMs: number;
  timeZone: string;
}

export interface ExecContext {
  id: number;
  user: string;
  owner: string;
  kind: string;
  counts: ExecCounts;
}

const READS = new Set([
  'rg.getValues',
  'rg.getDisplayValues',
  'rg.getFormulas',
  'rg.getNumberFormats',
  'rg.getValidations',
  'rg.find',
  'sh.lastRow',
  'sh.lastColumn',
  'sh.maxRows',
  'sh.maxColumns',
  'sh.extent',
  'sh.size',
]);
const WRITES = new Set([
  'rg.setValues',
  'rg.setFormulas',
  'rg.setNumberFormats',
  'rg.setValidation',
  'rg.clear',
  'rg.setStyle',
  'rg.protect',
  'sh.insertRows',
  'sh.deleteRows',
  'sh.insertColumns',
  'sh.deleteColumns',
  'sh.setFrozen',
  'sh.setColumnWidths',
  'sh.protect',
  'sh.setName',
  'sh.clear',
  'sh.setHidden',
  'sh.setTabColor',
  'sh.chartUpsert',
  'sh.chartRemove',
  'ss.insertSheet',
  'ss.deleteSheet',
  'pr.update',
  'pr.remove',
]);

// Round trips as SPEC §15 counts them: reads and writes of values (and of the sheet's shape), appends, flushes.
export function category(op: string): CountKey {
  if (READS.has(op)) return 'reads';
  if (WRITES.has(op)) return 'writes';
  if (op === 'sh.appendRow') return 'appends';
  if (op === 'ss.flush') return 'flushes';
  if (op === 'fetch') return 'fetches';
  return 'other';
}

export function count(c: ExecCounts, op: string, fetches = 1): void {
  c.calls++;
  const k = category(op);
  c[k] += k === 'fetches' ? fetches : 1;
  if (k === 'reads' || k === 'writes' || k === 'appends' || k === 'flushes') {
    c.roundTrips++;
    c.byOp[op] = (c.byOp[op] ?? 0) + 1;
  }
}

type Args = Record<string, any>;

function ref(s: SheetModel) {
  return { id: s.id, name: s.name };
}

function protectionWire(sheet: SheetModel, p: ProtectionModel) {
  return { ...p, editors: p.editors.slice(), sheet: sheet.id };
}

export async function dispatch(st: HostState, ex: ExecContext, op: string, a: Args): Promise<unknown> {
  const wb = st.workbook;
  const sheet = (): SheetModel => wb.sheetById(a.sheet);
  const box = (): [SheetModel, number, number, number, number] => [sheet(), a.r, a.c, a.nr, a.nc];
  switch (op) {
    case 'ss.name':
      return wb.name;
    case 'ss.rename':
      wb.name = String(a.name);
      return null;
    case 'ss.sheets':
      return wb.sheets.map(ref);
    case 'ss.sheetByName': {
      const s = wb.sheetByName(a.name);
      return s ? ref(s) : null;
    }
    case 'ss.sheetById': {
      const s = wb.sheets.find((x) => x.id === a.id);
      return s ? ref(s) : null;
    }
    case 'ss.insertSheet':
      return ref(wb.insertSheet(a.name, a.index));
    case 'ss.deleteSheet':
      wb.deleteSheet(a.sheet);
      return null;
    case 'ss.activeSheet':
      return ref(wb.sheets.find((s) => s.id === wb.activeSheetId) ?? wb.sheets[0]);
    case 'ss.setActive':
      wb.activeSheetId = sheet().id;
      return null;
    case 'ss.moveActive':
      wb.moveSheet(wb.activeSheetId, a.pos);
      return null;
    case 'ss.timeZone':
      return wb.timeZone;
    case 'ss.setTimeZone':
      wb.timeZone = String(a.tz);
      return null;
    case 'ss.locale':
      return wb.locale;
    case 'ss.setLocale':
      wb.locale = String(a.locale);
      return null;
    case 'ss.flush':
      return null;

    case 'sh.name':
      return sheet().name;
    case 'sh.setName':
      wb.renameSheet(a.sheet, a.name);
      return null;
    case 'sh.index':
      return wb.sheets.indexOf(sheet()) + 1;
    case 'sh.lastRow':
      return wb.lastRow(sheet());
    case 'sh.lastColumn':
      return wb.lastColumn(sheet());
    case 'sh.maxRows':
      return sheet().maxRows;
    case 'sh.maxColumns':
      return sheet().maxCols;
    case 'sh.size':
      return { rows: sheet().maxRows, cols: sheet().maxCols };
    case 'sh.extent': {
      const s = sheet();
      return { lastRow: wb.lastRow(s), lastCol: wb.lastColumn(s) };
    }
    case 'sh.appendRow':
      wb.appendRow(sheet(), a.values);
      return null;
    case 'sh.insertRows':
      wb.insertRows(sheet(), a.at, a.n, a.copyFrom);
      return null;
    case 'sh.deleteRows':
      wb.deleteRows(sheet(), a.start, a.n);
      return null;
    case 'sh.insertColumns':
      wb.insertColumns(sheet(), a.at, a.n);
      return null;
    case 'sh.deleteColumns':
      wb.deleteColumns(sheet(), a.start, a.n);
      return null;
    case 'sh.setFrozen': {
      const s = sheet();
      if (a.rows !== undefined) {
        if (a.rows < 0 || a.rows > s.maxRows) throw new SheetsError('Those rows are out of bounds.');
        s.frozenRows = a.rows;
      }
      if (a.cols !== undefined) {
        if (a.cols < 0 || a.cols > s.maxCols) throw new SheetsError('Those columns are out of bounds.');
        s.frozenCols = a.cols;
      }
      return null;
    }
    case 'sh.frozen':
      return { rows: sheet().frozenRows, cols: sheet().frozenCols };
    case 'sh.setColumnWidths': {
      const s = sheet();
      if (a.start < 1 || a.start + a.n - 1 > s.maxCols) throw new SheetsError('Those columns are out of bounds.');
      for (let c = a.start; c < a.start + a.n; c++) s.columnWidths[c] = a.width;
      return null;
    }
    case 'sh.columnWidth':
      return sheet().columnWidths[a.col] ?? 100;
    case 'sh.protect': {
      const s = sheet();
      const existing = s.protections.find((p) => p.type === 'SHEET');
      if (existing) return protectionWire(s, existing);
      const p: ProtectionModel = {
        id: wb.newObjectId(),
        type: 'SHEET',
        description: '',
        warningOnly: false,
        editors: [ex.owner],
        domainEdit: false,
      };
      s.protections.push(p);
      return protectionWire(s, p);
    }
    case 'rg.protect': {
      const [s, r, c, nr, nc] = box();
      wb.checkRange(s, r, c, nr, nc);
      const p: ProtectionModel = {
        id: wb.newObjectId(),
        type: 'RANGE',
        range: wb.a1(r, c, nr, nc),
        description: '',
        warningOnly: false,
        editors: [ex.owner],
        domainEdit: false,
      };
      s.protections.push(p);
      return protectionWire(s, p);
    }
    case 'sh.protections': {
      const s = sheet();
      return s.protections.filter((p) => p.type === a.type).map((p) => protectionWire(s, p));
    }
    case 'pr.update': {
      const s = sheet();
      const p = s.protections.find((x) => x.id === a.id);
      if (!p) throw new SheetsError('The protection has been removed.');
      Object.assign(p, a.patch);
      if (!p.editors.includes(ex.owner)) p.editors.unshift(ex.owner);
      return protectionWire(s, p);
    }
    case 'pr.remove': {
      const s = sheet();
      s.protections = s.protections.filter((x) => x.id !== a.id);
      return null;
    }
    case 'sh.setHidden': {
      const s = sheet();
      if (a.hidden && wb.sheets.filter((x) => !x.hidden && x !== s).length === 0)
        throw new SheetsError("You can't hide all the sheets in a document.");
      s.hidden = !!a.hidden;
      return null;
    }
    case 'sh.hidden':
      return sheet().hidden;
    case 'sh.setTabColor':
      sheet().tabColor = a.color ?? null;
      return null;
    case 'sh.tabColor':
      return sheet().tabColor;
    case 'sh.clear': {
      const s = sheet();
      wb.clear(s, 1, 1, s.maxRows, s.maxCols, { contents: a.contents, formats: a.formats });
      return null;
    }
    case 'sh.chartUpsert': {
      const s = sheet();
      const chart = a.chart as ChartModel;
      if (!chart.id) chart.id = wb.newObjectId();
      s.charts = s.charts.filter((c) => c.id !== chart.id).concat([chart]);
      return chart.id;
    }
    case 'sh.chartRemove': {
      const s = sheet();
      s.charts = s.charts.filter((c) => c.id !== a.id);
      return null;
    }
    case 'sh.charts':
      return sheet().charts;

    case 'rg.getValues':
      return wb.getValues(...box());
    case 'rg.getDisplayValues':
      return wb.getDisplayValues(...box());
    case 'rg.getFormulas':
      return wb.getFormulas(...box());
    case 'rg.setValues':
      wb.setValues(...box(), a.values);
      return null;
    case 'rg.setFormulas':
      wb.setFormulas(...box(), a.values);
      return null;
    case 'rg.getNumberFormats':
      return wb.getNumberFormats(...box());
    case 'rg.setNumberFormats':
      wb.setNumberFormats(...box(), a.formats);
      return null;
    case 'rg.setValidation':
      wb.setValidation(...box(), a.rule as ValidationRule | null);
      return null;
    case 'rg.getValidations':
      return wb.getValidations(...box());
    case 'rg.clear':
      wb.clear(...box(), a.opts);
      return null;
    case 'rg.setStyle':
      wb.setStyle(...box(), a.key, a.value);
      return null;
    case 'rg.find':
      return wb.find(...box(), a.opts);

    case 'props.get':
      return propStore(st, ex, a.store).get(a.key);
    case 'props.all':
      return propStore(st, ex, a.store).all();
    case 'props.set':
      propStore(st, ex, a.store).set(a.entries, a.deleteAllOthers);
      return null;
    case 'props.delete':
      propStore(st, ex, a.store).delete(a.key);
      return null;
    case 'props.clear':
      propStore(st, ex, a.store).clear();
      return null;

    case 'cache.get': {
      const c = st.cache(a.store, ex.user);
      const out: Record<string, string> = {};
      for (const k of a.keys as string[]) {
        const v = c.get(k);
        if (v !== null) out[k] = v;
      }
      return out;
    }
    case 'cache.put':
      st.cache(a.store, ex.user).put(a.entries, a.ttl ?? undefined);
      return null;
    case 'cache.remove':
      st.cache(a.store, ex.user).remove(a.keys);
      return null;

    case 'lock.acquire':
      return st.locks.acquire(lockKey(a.scope, ex), ex.id, a.timeout);
    case 'lock.release':
      st.locks.release(lockKey(a.scope, ex), ex.id);
      return null;

    case 'trig.create': {
      const t = st.triggers.create(
        a.spec as TriggerSpec,
        ex.owner,
        st.clock.now(),
        (time) => zoneOffsetMinutes(time, st.timeZone) * 60000,
      );
      return triggerWire(t);
    }
    case 'trig.list':
      return st.triggers.triggers.filter((t) => t.owner === ex.owner).map(triggerWire);
    case 'trig.delete':
      st.triggers.delete(a.uid);
      return null;

    case 'fetch': {
      const results = await Promise.all(
        (a.requests as Args[]).map((r) =>
          httpFetch({
            url: r.url,
            method: r.method,
            headers: r.headers,
            body: r.bodyB64 ? Buffer.from(r.bodyB64, 'base64') : null,
            followRedirects: r.followRedirects,
            timeoutMs: st.fetchTimeoutMs,
          }).then(
            (res: FetchResponse) => ({ code: res.code, headers: res.headers, bodyB64: res.body.toString('base64') }),
            (e: Error) => ({ error: e.message }),
          ),
        ),
      );
      return results;
    }

    case 'ui.menu':
      st.ui.menus = st.ui.menus.filter((m) => m.caption !== a.caption).concat([{ caption: a.caption, items: a.items }]);
      return null;
    case 'ui.sidebar':
      st.ui.sidebars.push({ title: a.title, html: a.html, width: a.width });
      return null;
    case 'ui.dialog':
      st.ui.dialogs.push({ title: a.title, html: a.html, modal: a.modal });
      return null;
    case 'ui.toast':
      st.ui.toasts.push({ msg: a.msg, title: a.title });
      return null;
    case 'ui.alert': {
      st.ui.alerts.push({ title: a.title, prompt: a.prompt, buttons: a.buttons });
      return (
        st.ui.responses.shift()?.button ?? (a.buttons === 'YES_NO' || a.buttons === 'YES_NO_CANCEL' ? 'YES' : 'OK')
      );
    }
    case 'ui.prompt': {
      st.ui.alerts.push({ title: a.title, prompt: a.prompt, buttons: a.buttons });
      const r = st.ui.responses.shift();
      return { button: r?.button ?? 'OK', text: r?.text ?? '' };
    }
    default:
      throw new Error(`unknown service operation ${op}`);
  }
}

function propStore(st: HostState, ex: ExecContext, store: string): PropertyStore {
  if (store === 'script') return st.scriptProperties;
  if (store === 'user') return st.userProperties(ex.user || ex.owner);
  return st.documentProperties;
}

function lockKey(scope: string, ex: ExecContext): string {
  return scope === 'user' ? `user:${ex.user || ex.owner}` : scope;
}

function triggerWire(t: { uid: string; handler: string; eventType: string; source: string; sourceId?: string }) {
  return { uid: t.uid, handler: t.handler, eventType: t.eventType, source: t.source, sourceId: t.sourceId };
}
