// The one typed map of service calls between an execution (runtime/gas) and the host (runtime/host).
// Types only: the Apps Script globals bundle imports it too, and nothing here may reach that bundle as code.
import type { ChartModel, ClearOptions, FindOptions, ProtectionModel, ValidationRule } from './host/sheet-model.js';
import type { TriggerSpec } from './host/triggers.js';
import type { CellValue } from './host/values.js';

export type StoreName = 'script' | 'user' | 'document';

export interface SheetRef {
  id: number;
  name: string;
  // The spreadsheet the sheet belongs to when it is not the bound one (SpreadsheetApp.create / openById).
  ss?: string;
}

// What a sheet's protection looks like to a script: the host's model plus the sheet (and spreadsheet) it is on.
export type ProtectionWire = ProtectionModel & { sheet: number; ss?: string };

export type ProtectionPatch = Partial<Pick<ProtectionModel, 'description' | 'warningOnly' | 'editors' | 'domainEdit'>>;

export type RuleWire = ValidationRule;
export type ChartWire = ChartModel;
export type { TriggerSpec };

export interface TriggerWire {
  uid: string;
  handler: string;
  eventType: string;
  source: string;
  sourceId?: string;
}

export interface FetchRequestWire {
  url: string;
  method: string;
  headers: Record<string, string>;
  bodyB64: string | null;
  followRedirects: boolean;
}

// One answer per request: the response, or the network error that stands in for it.
export interface FetchResultWire {
  code?: number;
  headers?: Record<string, string | string[]>;
  bodyB64?: string;
  error?: string;
}

export interface MenuItemWire {
  caption?: string;
  fn?: string;
  separator?: boolean;
  submenu?: MenuItemWire[];
}

// Arguments of a call that names nothing.
export type NoArgs = Record<string, never>;
// A call about a spreadsheet: the bound one when `ss` is absent, else the one with that id (SpreadsheetApp.create,
// openById). The host routes every ss/sh/pr/rg call to that spreadsheet's workbook (host/dispatch.ts).
export interface SpreadsheetArgs {
  ss?: string;
}
// A sheet by id, and a rectangle on it (1-based row and column, row and column counts).
export interface SheetArgs extends SpreadsheetArgs {
  sheet: number;
}
export interface Box extends SheetArgs {
  r: number;
  c: number;
  nr: number;
  nc: number;
}

interface Call<A, R> {
  args: A;
  result: R;
}

// Every operation an execution can ask of the host. `null` is the result of a call that only acts.
export interface ServiceCalls {
  'ss.name': Call<SpreadsheetArgs, string>;
  // Spreadsheet.getOwner(): the owner's email, or null for a file with no owner (a shared drive's).
  'ss.owner': Call<SpreadsheetArgs, string | null>;
  'ss.rename': Call<SpreadsheetArgs & { name: string }, null>;
  'ss.sheets': Call<SpreadsheetArgs, SheetRef[]>;
  'ss.sheetByName': Call<SpreadsheetArgs & { name: string }, SheetRef | null>;
  'ss.sheetById': Call<SpreadsheetArgs & { id: number }, SheetRef | null>;
  'ss.insertSheet': Call<SpreadsheetArgs & { name?: string; index?: number }, SheetRef>;
  'ss.deleteSheet': Call<SheetArgs, null>;
  'ss.activeSheet': Call<SpreadsheetArgs, SheetRef>;
  'ss.setActive': Call<SheetArgs, null>;
  'ss.moveActive': Call<SpreadsheetArgs & { pos: number }, null>;
  'ss.timeZone': Call<SpreadsheetArgs, string>;
  'ss.setTimeZone': Call<SpreadsheetArgs & { tz: string }, null>;
  'ss.locale': Call<SpreadsheetArgs, string>;
  'ss.setLocale': Call<SpreadsheetArgs & { locale: string }, null>;
  'ss.flush': Call<NoArgs, null>;
  // SpreadsheetApp.create(name): a new spreadsheet owned by the effective user, with one sheet "Sheet1".
  'ss.create': Call<{ name: string }, { id: string; name: string }>;
  // SpreadsheetApp.openById(id) of a spreadsheet other than the bound one: checks it exists and may be opened.
  'ss.open': Call<{ id: string }, { id: string; name: string }>;
  // Spreadsheet.getEditors() / addEditors() / removeEditor(): whom the file is shared with (its owner apart).
  'ss.editors': Call<SpreadsheetArgs, string[]>;
  'ss.addEditors': Call<SpreadsheetArgs & { emails: string[] }, null>;
  'ss.removeEditor': Call<SpreadsheetArgs & { email: string }, null>;

  'sh.name': Call<SheetArgs, string>;
  'sh.setName': Call<SheetArgs & { name: string }, null>;
  'sh.index': Call<SheetArgs, number>;
  'sh.lastRow': Call<SheetArgs, number>;
  'sh.lastColumn': Call<SheetArgs, number>;
  'sh.maxRows': Call<SheetArgs, number>;
  'sh.maxColumns': Call<SheetArgs, number>;
  'sh.size': Call<SheetArgs, { rows: number; cols: number }>;
  'sh.extent': Call<SheetArgs, { lastRow: number; lastCol: number }>;
  // Values come from the script as it passed them; the host checks their shape.
  'sh.appendRow': Call<SheetArgs & { values: unknown }, null>;
  'sh.insertRows': Call<SheetArgs & { at: number; n: number; copyFrom: number }, null>;
  'sh.deleteRows': Call<SheetArgs & { start: number; n: number }, null>;
  'sh.insertColumns': Call<SheetArgs & { at: number; n: number }, null>;
  'sh.deleteColumns': Call<SheetArgs & { start: number; n: number }, null>;
  'sh.setFrozen': Call<SheetArgs & { rows?: number; cols?: number }, null>;
  'sh.frozen': Call<SheetArgs, { rows: number; cols: number }>;
  'sh.setColumnWidths': Call<SheetArgs & { start: number; n: number; width: number }, null>;
  'sh.columnWidth': Call<SheetArgs & { col: number }, number>;
  'sh.protect': Call<SheetArgs, ProtectionWire>;
  'sh.protections': Call<SheetArgs & { type: string }, ProtectionWire[]>;
  'sh.setHidden': Call<SheetArgs & { hidden: boolean }, null>;
  'sh.hidden': Call<SheetArgs, boolean>;
  'sh.setTabColor': Call<SheetArgs & { color: string | null }, null>;
  'sh.tabColor': Call<SheetArgs, string | null>;
  'sh.clear': Call<SheetArgs & { contents: boolean; formats: boolean }, null>;
  'sh.chartUpsert': Call<SheetArgs & { chart: ChartWire }, number>;
  'sh.chartRemove': Call<SheetArgs & { id: number }, null>;
  'sh.charts': Call<SheetArgs, ChartWire[]>;

  'pr.update': Call<SheetArgs & { id: number; patch: ProtectionPatch }, ProtectionWire>;
  'pr.remove': Call<SheetArgs & { id: number }, null>;

  'rg.getValues': Call<Box, CellValue[][]>;
  'rg.getDisplayValues': Call<Box, string[][]>;
  'rg.getFormulas': Call<Box, string[][]>;
  'rg.setValues': Call<Box & { values: unknown }, null>;
  'rg.setFormulas': Call<Box & { values: unknown }, null>;
  'rg.getNumberFormats': Call<Box, string[][]>;
  'rg.setNumberFormats': Call<Box & { formats: string[][] }, null>;
  'rg.setValidation': Call<Box & { rule: RuleWire | null }, null>;
  'rg.getValidations': Call<Box, (RuleWire | null)[][]>;
  'rg.clear': Call<Box & { opts: ClearOptions }, null>;
  'rg.setStyle': Call<Box & { key: string; value: unknown }, null>;
  'rg.find': Call<Box & { opts: FindOptions }, { row: number; col: number }[]>;
  'rg.protect': Call<Box, ProtectionWire>;

  'props.get': Call<{ store: StoreName; key: string }, string | null>;
  'props.all': Call<{ store: StoreName }, Record<string, string>>;
  'props.set': Call<{ store: StoreName; entries: Record<string, string>; deleteAllOthers: boolean }, null>;
  'props.delete': Call<{ store: StoreName; key: string }, null>;
  'props.clear': Call<{ store: StoreName }, null>;

  'cache.get': Call<{ store: StoreName; keys: string[] }, Record<string, string>>;
  'cache.put': Call<{ store: StoreName; entries: Record<string, string>; ttl?: number }, null>;
  'cache.remove': Call<{ store: StoreName; keys: string[] }, null>;

  'lock.acquire': Call<{ scope: StoreName; timeout: number }, boolean>;
  'lock.release': Call<{ scope: StoreName }, null>;

  'trig.create': Call<{ spec: TriggerSpec }, TriggerWire>;
  'trig.list': Call<NoArgs, TriggerWire[]>;
  'trig.delete': Call<{ uid: string }, null>;

  fetch: Call<{ requests: FetchRequestWire[] }, FetchResultWire[]>;

  'ui.menu': Call<{ caption: string; items: MenuItemWire[] }, null>;
  'ui.sidebar': Call<{ title: string; html: string; width: number }, null>;
  'ui.dialog': Call<{ title: string; html: string; modal: boolean; width: number; height: number }, null>;
  'ui.toast': Call<{ msg: string; title: string; timeout: number }, null>;
  'ui.alert': Call<{ title: string; prompt: string; buttons: string }, string>;
  'ui.prompt': Call<{ title: string; prompt: string; buttons: string }, { button: string; text: string }>;
}

export type ServiceOp = keyof ServiceCalls;
export type ServiceArgs<K extends ServiceOp> = ServiceCalls[K]['args'];
export type ServiceResult<K extends ServiceOp> = ServiceCalls[K]['result'];
