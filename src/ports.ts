// The narrow interfaces the adapters reach the platform through: Apps Script implements them (gas/gas-ports.ts),
// an in-memory implementation (memory/) runs the use cases in-process. The one seam between Kaigi and its host.
import type { HttpPort } from './core/providers/http.js';
import type { TabSpec } from '../sheets-schema/index.js';
import type { TabPlan } from './core/tab-plan.js';
import type { WantedTrigger } from './core/trigger-plan.js';

// Script Properties: small durable strings (state, keys, usage ledgers).
export interface PropertiesPort {
  getProperty(key: string): string | null;
  getProperties(): Record<string, string>;
  setProperty(key: string, value: string): unknown;
  setProperties(values: Record<string, string>): unknown;
  deleteProperty(key: string): unknown;
}

// The script cache: values that may vanish at any time, each with a lifetime in seconds.
export interface CachePort {
  get(key: string): string | null;
  getAll(keys: string[]): Record<string, string>;
  put(key: string, value: string, seconds?: number): void;
  putAll(values: Record<string, string>, seconds?: number): void;
  remove(key: string): void;
  removeAll(keys: string[]): void;
}

// The script lock: one holder across every execution of the script.
export interface LockPort {
  tryLock(timeoutMs: number): boolean;
  releaseLock(): void;
}

// The cells a use case reads and writes, as Sheets gives them (1-based rows and columns).
export interface TextFinderPort {
  matchEntireCell(on: boolean): TextFinderPort;
  matchCase(on: boolean): TextFinderPort;
  useRegularExpression(on: boolean): TextFinderPort;
  findAll(): RangePort[];
}

export interface RangePort {
  getValues(): unknown[][];
  setValues(values: unknown[][]): unknown;
  clearContent(): unknown;
  getRow(): number;
  getColumn(): number;
  getNumRows(): number;
  getNumColumns(): number;
  createTextFinder(text: string): TextFinderPort;
  getA1Notation(): string;
}

export interface SheetPort {
  getName(): string;
  getRange(row: number, column: number, rows?: number, columns?: number): RangePort;
  getDataRange(): RangePort;
  getLastRow(): number;
  getLastColumn(): number;
  getMaxRows(): number;
  getMaxColumns(): number;
  insertRowsAfter(after: number, count: number): unknown;
  deleteRows(position: number, count: number): unknown;
}

export interface SpreadsheetPort {
  getId(): string;
  getSheetByName(name: string): SheetPort | null;
  getSheets(): SheetPort[];
  getSpreadsheetTimeZone(): string;
}

// What time it is (epoch ms). The use cases (src/app) read time only here, so a test or the local runtime's simulated
// clock drives every deadline, stamp and "today" they compute (the store and src/main.ts still read Date.now() in a
// few places: the local runtime's Date is its simulated clock, so it agrees there).
export interface ClockPort {
  now(): number;
}

// Where the fresh values come from: ids (a UUID, as Utilities.getUuid gives it) and chance in [0, 1) for spreading
// load and jitter. In one place so an in-process run can make them repeatable.
export interface IdsPort {
  uuid(): string;
  random(): number;
}

// Who runs the script and where: the session, the script's calendar, digests and dates in a zone.
export interface HostPort {
  activeUserEmail(): string;
  effectiveUserEmail(): string;
  temporaryActiveUserKey(): string;
  scriptTimeZone(): string;
  sha256Hex(text: string): string;
  // A Java SimpleDateFormat pattern, as Utilities.formatDate takes it.
  formatDate(date: Date, timeZone: string, pattern: string): string;
  sleep(ms: number): void;
  // The user's locale for this execution (Session.getActiveUserLocale in Apps Script: 'en', 'ja_JP').
  activeUserLocale(): string;
  // Sends the spreadsheet writes the platform holds (SpreadsheetApp.flush), before anything records them as made.
  flushSheets(): void;
  // A line in the execution's log (Apps Script's Executions page; the local runtime hands it to the CLI at once).
  log(text: string): void;
}

// This account's project triggers (the only ones Apps Script shows it); 'after' is a one-shot in `value` ms.
export interface TriggerInfo {
  id: string;
  handler: string;
  eventType: string;
}

export type TriggerSpec = WantedTrigger | { handler: string; kind: 'after'; value: number };

export interface TriggersPort {
  list(): TriggerInfo[];
  // Deletes the triggers with these ids, in one listing.
  remove(ids: readonly string[]): void;
  create(trigger: TriggerSpec): void;
}

// One Dashboard chart as Kaigi wants it; the charts port makes or updates the native chart to match.
export interface ChartSpec {
  // Kaigi's name for the chart (the key its Sheets id is kept under; titles change with the language).
  id: string;
  type: 'PIE' | 'COLUMN' | 'LINE' | 'COMBO';
  title: string;
  // The table's cells, header row included (A1 on the Dashboard tab).
  a1: string;
  // Where the chart floats (row, column of its top-left corner).
  row: number;
  column: number;
  // Chart options beyond the title, in the dotted form Sheets keeps ('legend.position', 'series.1.targetAxisIndex').
  options: Record<string, unknown>;
}

// Kaigi's chart name → the id Sheets gave the chart.
export type ChartIds = Record<string, number>;

// The Dashboard's native charts, one per table, found again by the ids kept in `known` (gas/charts.ts in Sheets).
export interface ChartsPort {
  ensure(sheet: SheetPort, specs: ChartSpec[], known: ChartIds): { created: number; updated: number; ids: ChartIds };
}

// Brings a workbook an earlier release made to this release's tabs and columns (gas/tab-upgrade.ts in Apps Script).
export interface TabsPort {
  upgrade(ss: SpreadsheetPort): string[];
  // Makes or repairs one tab by its plan, with its formats, validation, frozen header and protection (setup, the
  // archive): gas/tabs.ts in Sheets.
  apply(ss: BoundSpreadsheet, spec: TabSpec, existing: BoundSheet | null, plan: TabPlan): BoundSheet;
}

// The spreadsheet an execution is bound to. Typed as Apps Script's whole Spreadsheet because the Sheets-only steps
// (setup's formats and protections, charts, sharing an archive) still take it from here; everything a use case reads
// or writes goes through SpreadsheetPort. The in-memory port hands over a workbook of cells, so those steps are
// proved through the bundle, and a use case that reached past SpreadsheetPort fails in-process (not a function).
export type BoundSpreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type BoundSheet = GoogleAppsScript.Spreadsheet.Sheet;

interface SpreadsheetsPort {
  // null when the execution has no active spreadsheet (a web app, a time trigger in some cases).
  active(): BoundSpreadsheet | null;
  openById(id: string): BoundSpreadsheet;
  // A new spreadsheet in the running account's Drive (the archive).
  create(name: string): BoundSpreadsheet;
}

export interface Ports {
  properties: PropertiesPort;
  cache: CachePort;
  lock: LockPort;
  clock: ClockPort;
  ids: IdsPort;
  host: HostPort;
  tabs: TabsPort;
  spreadsheets: SpreadsheetsPort;
  triggers: TriggersPort;
  charts: ChartsPort;
  // The providers' transport (UrlFetchApp.fetchAll in Apps Script).
  fetch: HttpPort;
}

let installed: Ports | null = null;
let fallback: (() => Ports) | null = null;

// The Apps Script bundle names its ports at load (gas/gas-ports.ts); an in-process test installs its own.
export function setDefaultPorts(make: () => Ports): void {
  fallback = make;
}

export function ports(): Ports {
  if (installed) return installed;
  if (!fallback) throw new Error('Kaigi has no platform ports: install them before any use case runs.');
  installed = fallback();
  return installed;
}

// Installs `p` for what runs next and returns a function that puts the previous ports back.
export function usePorts(p: Ports): () => void {
  const before = installed;
  installed = p;
  return () => {
    installed = before;
  };
}
