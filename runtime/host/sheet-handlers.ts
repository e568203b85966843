// Host handlers for the spreadsheet and its sheets: names, order, shape, protections, visibility, charts.
import { chargeSentWrites } from './write-cost.js';
import type { ProtectionWire, SheetArgs, SheetRef } from '../service-calls.js';
import { storedChart } from './chart-spec.js';
import type { Handlers, OpsNamed } from './handler.js';
import { SheetsError, type ProtectionModel, type SheetModel } from './sheet-model.js';
import { CellInputError, changeTimeZone } from './values.js';
import type { Workbook } from './workbook.js';

function ref(s: SheetModel): SheetRef {
  return { id: s.id, name: s.name };
}

export function protectionWire(sheet: SheetModel, p: ProtectionModel): ProtectionWire {
  return { ...p, editors: p.editors.slice(), sheet: sheet.id };
}

function sheetOf(wb: Workbook, a: SheetArgs): SheetModel {
  return wb.sheetById(a.sheet);
}

// Sheets keeps at least one row below the frozen ones.
const ALL_NON_FROZEN = 'Sorry, it is not possible to delete all non-frozen rows.';

export const SPREADSHEET_HANDLERS: Handlers<OpsNamed<'ss'>> = {
  // A new spreadsheet in the effective user's Drive, with their (here: the script's) time zone and the bound
  // spreadsheet's locale; creating one is immediate, held writes or not, and counts against a daily quota.
  'ss.create': (a, st, ex) => {
    st.quota.chargeCreate(ex);
    const wb = st.spreadsheets.create(String(a.name ?? ''), ex.owner, st.timeZone, st.workbook.locale);
    return { id: wb.id, name: wb.name };
  },
  'ss.open': (a, st, ex) => {
    const wb = a.id === st.workbook.id ? st.workbook : st.spreadsheets.open(String(a.id), ex.owner);
    return { id: wb.id, name: wb.name };
  },
  // The bound spreadsheet is shared with the runtime's users; a created one with whom its owner shared it.
  'ss.editors': (_a, st) =>
    st.workbook.id === st.boundId ? st.editors.list() : st.spreadsheets.editorsOf(st.workbook.id),
  'ss.addEditors': (a, st) => {
    if (st.workbook.id === st.boundId) st.editors.add(a.emails.map(String));
    else st.spreadsheets.share(st.workbook.id, a.emails.map(String));
    return null;
  },
  'ss.removeEditor': (a, st) => {
    if (st.workbook.id === st.boundId)
      throw new SheetsError("The bound spreadsheet's editors are the runtime's users.");
    st.spreadsheets.unshare(st.workbook.id, String(a.email));
    return null;
  },
  'ss.name': (_a, st) => st.workbook.name,
  'ss.owner': (_a, st) => (st.workbook.id === st.boundId ? st.owner : st.spreadsheets.ownerOf(st.workbook.id)),
  'ss.rename': (a, st) => {
    st.workbook.name = String(a.name);
    return null;
  },
  'ss.sheets': (_a, st) => st.workbook.sheets.map(ref),
  'ss.sheetByName': (a, st) => {
    const s = st.workbook.sheetByName(a.name);
    return s ? ref(s) : null;
  },
  'ss.sheetById': (a, st) => {
    const s = st.workbook.sheets.find((x) => x.id === a.id);
    return s ? ref(s) : null;
  },
  'ss.insertSheet': (a, st) => ref(st.workbook.insertSheet(a.name, a.index)),
  'ss.deleteSheet': (a, st) => {
    st.workbook.deleteSheet(a.sheet);
    return null;
  },
  'ss.activeSheet': (_a, st) => {
    const wb = st.workbook;
    return ref(wb.sheets.find((s) => s.id === wb.activeSheetId) ?? wb.sheets[0]);
  },
  'ss.setActive': (a, st) => {
    st.workbook.activeSheetId = sheetOf(st.workbook, a).id;
    return null;
  },
  'ss.moveActive': (a, st) => {
    st.workbook.moveSheet(st.workbook.activeSheetId, a.pos);
    return null;
  },
  'ss.timeZone': (_a, st) => st.workbook.timeZone,
  // Date cells keep their wall clock and so change instant (values.ts changeTimeZone).
  'ss.setTimeZone': (a, st) => {
    try {
      changeTimeZone(st.workbook, String(a.tz));
    } catch (e) {
      if (e instanceof CellInputError) throw new SheetsError(e.message);
      throw e;
    }
    return null;
  },
  'ss.locale': (_a, st) => st.workbook.locale,
  'ss.setLocale': (a, st) => {
    st.workbook.locale = String(a.locale);
    return null;
  },
  // Sends every write the execution holds (write-buffer.ts), in the order it made them.
  'ss.flush': (_a, st, ex) => {
    chargeSentWrites(st, ex, ex.writes.sendAll(st));
    return null;
  },
};

export const SHEET_HANDLERS: Handlers<OpsNamed<'sh' | 'pr'>> = {
  'sh.name': (a, st) => sheetOf(st.workbook, a).name,
  'sh.setName': (a, st) => {
    st.workbook.renameSheet(a.sheet, a.name);
    return null;
  },
  'sh.index': (a, st) => st.workbook.sheets.indexOf(sheetOf(st.workbook, a)) + 1,
  'sh.lastRow': (a, st) => st.workbook.lastRow(sheetOf(st.workbook, a)),
  'sh.lastColumn': (a, st) => st.workbook.lastColumn(sheetOf(st.workbook, a)),
  'sh.maxRows': (a, st) => sheetOf(st.workbook, a).maxRows,
  'sh.maxColumns': (a, st) => sheetOf(st.workbook, a).maxCols,
  'sh.size': (a, st) => {
    const s = sheetOf(st.workbook, a);
    return { rows: s.maxRows, cols: s.maxCols };
  },
  'sh.extent': (a, st) => {
    const s = sheetOf(st.workbook, a);
    return { lastRow: st.workbook.lastRow(s), lastCol: st.workbook.lastColumn(s) };
  },
  'sh.appendRow': (a, st) => {
    st.workbook.appendRow(sheetOf(st.workbook, a), a.values);
    return null;
  },
  'sh.insertRows': (a, st) => {
    st.workbook.insertRows(sheetOf(st.workbook, a), a.at, a.n, a.copyFrom);
    return null;
  },
  'sh.deleteRows': (a, st) => {
    const s = sheetOf(st.workbook, a);
    const inBounds = a.start >= 1 && a.n >= 1 && a.start + a.n - 1 <= s.maxRows && a.n < s.maxRows;
    const frozenDeleted = Math.max(0, Math.min(a.start + a.n - 1, s.frozenRows) - a.start + 1);
    if (inBounds && s.frozenRows > 0 && a.n - frozenDeleted >= s.maxRows - s.frozenRows)
      throw new SheetsError(ALL_NON_FROZEN);
    st.workbook.deleteRows(s, a.start, a.n);
    return null;
  },
  'sh.insertColumns': (a, st) => {
    st.workbook.insertColumns(sheetOf(st.workbook, a), a.at, a.n);
    return null;
  },
  'sh.deleteColumns': (a, st) => {
    st.workbook.deleteColumns(sheetOf(st.workbook, a), a.start, a.n);
    return null;
  },
  'sh.setFrozen': (a, st) => {
    const s = sheetOf(st.workbook, a);
    if (a.rows !== undefined) {
      if (a.rows < 0 || a.rows > s.maxRows) throw new SheetsError('Those rows are out of bounds.');
      s.frozenRows = a.rows;
    }
    if (a.cols !== undefined) {
      if (a.cols < 0 || a.cols > s.maxCols) throw new SheetsError('Those columns are out of bounds.');
      s.frozenCols = a.cols;
    }
    return null;
  },
  'sh.frozen': (a, st) => {
    const s = sheetOf(st.workbook, a);
    return { rows: s.frozenRows, cols: s.frozenCols };
  },
  'sh.setColumnWidths': (a, st) => {
    const s = sheetOf(st.workbook, a);
    if (a.start < 1 || a.start + a.n - 1 > s.maxCols) throw new SheetsError('Those columns are out of bounds.');
    for (let c = a.start; c < a.start + a.n; c++) s.columnWidths[c] = a.width;
    return null;
  },
  'sh.columnWidth': (a, st) => sheetOf(st.workbook, a).columnWidths[a.col] ?? 100,
  'sh.protect': (a, st, ex) => {
    const s = sheetOf(st.workbook, a);
    const existing = s.protections.find((p) => p.type === 'SHEET');
    if (existing) return protectionWire(s, existing);
    const p: ProtectionModel = {
      id: st.workbook.newObjectId(),
      type: 'SHEET',
      description: '',
      warningOnly: false,
      editors: [ex.owner],
      domainEdit: false,
    };
    s.protections.push(p);
    return protectionWire(s, p);
  },
  'sh.protections': (a, st) => {
    const s = sheetOf(st.workbook, a);
    return s.protections.filter((p) => p.type === a.type).map((p) => protectionWire(s, p));
  },
  'pr.update': (a, st, ex) => {
    const s = sheetOf(st.workbook, a);
    const p = s.protections.find((x) => x.id === a.id);
    if (!p) throw new SheetsError('The protection has been removed.');
    Object.assign(p, a.patch);
    if (!p.editors.includes(ex.owner)) p.editors.unshift(ex.owner);
    return protectionWire(s, p);
  },
  'pr.remove': (a, st) => {
    const s = sheetOf(st.workbook, a);
    s.protections = s.protections.filter((x) => x.id !== a.id);
    return null;
  },
  'sh.setHidden': (a, st) => {
    const s = sheetOf(st.workbook, a);
    if (a.hidden && st.workbook.sheets.filter((x) => !x.hidden && x !== s).length === 0)
      throw new SheetsError("You can't hide all the sheets in a document.");
    s.hidden = !!a.hidden;
    return null;
  },
  'sh.hidden': (a, st) => sheetOf(st.workbook, a).hidden,
  'sh.setTabColor': (a, st) => {
    sheetOf(st.workbook, a).tabColor = a.color ?? null;
    return null;
  },
  'sh.tabColor': (a, st) => sheetOf(st.workbook, a).tabColor,
  'sh.clear': (a, st) => {
    const s = sheetOf(st.workbook, a);
    st.workbook.clear(s, 1, 1, s.maxRows, s.maxCols, { contents: a.contents, formats: a.formats });
    return null;
  },
  'sh.chartUpsert': (a, st) => {
    const s = sheetOf(st.workbook, a);
    if (!a.chart.id) a.chart.id = st.workbook.newObjectId();
    // The sheet keeps the chart's spec: options it has no field for are dropped here (chart-spec.ts).
    const chart = storedChart(a.chart);
    s.charts = s.charts.filter((c) => c.id !== chart.id).concat([chart]);
    return chart.id;
  },
  'sh.chartRemove': (a, st) => {
    const s = sheetOf(st.workbook, a);
    s.charts = s.charts.filter((c) => c.id !== a.id);
    return null;
  },
  // A workbook saved by an earlier runtime may hold options no spec keeps: they read back as Sheets would keep them.
  'sh.charts': (a, st) => sheetOf(st.workbook, a).charts.map(storedChart),
};
