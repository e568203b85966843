// The platform ports in memory, for use cases run in-process: properties, a cache with lifetimes, the script lock,
// the session and dates in a zone, and a workbook with Kaigi's tabs as sheets-schema defines them.
import { TABS, type TabSpec } from '../../../sheets-schema/index.js';
import { hasOwn } from '../../core/json-guard.js';
import { sha256Text } from '../../core/sha256.js';
import { planTab } from '../../core/tab-plan.js';
import { EVENT_TYPES } from '../../core/trigger-plan.js';
import type { HttpResult } from '../../core/providers/http.js';
import type { WireRequest } from '../../core/providers/vendors.js';
import type {
  BoundSpreadsheet,
  CachePort,
  ChartsPort,
  ClockPort,
  ChartIds,
  ChartSpec,
  HostPort,
  IdsPort,
  LockPort,
  SheetPort,
  Ports,
  PropertiesPort,
  SpreadsheetPort,
  TabsPort,
  TriggerInfo,
  TriggerSpec,
  TriggersPort,
} from '../../ports.js';
import { MemorySpreadsheet } from './memory-sheets.js';

class MemoryProperties implements PropertiesPort {
  readonly values: Record<string, string> = {};
  getProperty(key: string): string | null {
    return hasOwn(this.values, key) ? this.values[key] : null;
  }
  getProperties(): Record<string, string> {
    return { ...this.values };
  }
  setProperty(key: string, value: string): void {
    this.values[key] = String(value);
  }
  setProperties(values: Record<string, string>): void {
    for (const k of Object.keys(values)) this.values[k] = String(values[k]);
  }
  deleteProperty(key: string): void {
    delete this.values[key];
  }
}

// CacheService's default lifetime is 10 minutes and its longest 6 hours; an expired value reads as missing.
class MemoryCache implements CachePort {
  private readonly entries: Record<string, { value: string; until: number }> = {};
  copy(): MemoryCache {
    const twin = new MemoryCache();
    for (const k of Object.keys(this.entries)) twin.entries[k] = { ...this.entries[k] };
    return twin;
  }
  get(key: string): string | null {
    const e = hasOwn(this.entries, key) ? this.entries[key] : null;
    return e && e.until > Date.now() ? e.value : null;
  }
  getAll(keys: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of keys) {
      const v = this.get(k);
      if (v !== null) out[k] = v;
    }
    return out;
  }
  put(key: string, value: string, seconds = 600): void {
    this.entries[key] = { value, until: Date.now() + Math.min(seconds, 21600) * 1000 };
  }
  putAll(values: Record<string, string>, seconds = 600): void {
    for (const k of Object.keys(values)) this.put(k, values[k], seconds);
  }
  remove(key: string): void {
    delete this.entries[key];
  }
  removeAll(keys: string[]): void {
    for (const k of keys) this.remove(k);
  }
}

// One process runs one execution at a time, so the lock is free unless a test holds it to play another execution.
class MemoryLock implements LockPort {
  held = 0;
  heldElsewhere = false;
  tryLock(_timeoutMs: number): boolean {
    if (this.heldElsewhere) return false;
    this.held++;
    return true;
  }
  releaseLock(): void {
    if (this.held > 0) this.held--;
  }
}

// One formatter per zone: making one costs far more than formatting with it.
const formatters: Record<string, Intl.DateTimeFormat> = {};
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  formatters[timeZone] ??= new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour12: false,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return formatters[timeZone];
}

// The fields of an instant's wall clock in a zone, and that zone's offset from UTC then, in minutes.
function wallClock(date: Date, timeZone: string): { f: Record<string, string>; offset: number } {
  const parts = formatterOf(timeZone).formatToParts(date);
  const f: Record<string, string> = {};
  for (const p of parts) f[p.type] = p.value;
  // hour12: false may print midnight as 24 (ES2019's options have no hourCycle).
  if (f.hour === '24') f.hour = '00';
  const wall = Date.UTC(+f.year, +f.month - 1, +f.day, +f.hour, +f.minute, +f.second);
  return { f, offset: Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60000) };
}

function offsetText(minutes: number, colon: boolean, zulu: boolean): string {
  if (zulu && minutes === 0) return 'Z';
  const a = Math.abs(minutes);
  const hh = String(Math.floor(a / 60)).padStart(2, '0');
  const mm = String(a % 60).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${hh}${colon ? ':' : ''}${mm}`;
}

// The SimpleDateFormat letters Kaigi uses; any other letter is refused rather than printed wrong.
function formatDate(date: Date, timeZone: string, pattern: string): string {
  const { f, offset } = wallClock(date, timeZone);
  const ms = String(((date.getTime() % 1000) + 1000) % 1000).padStart(3, '0');
  const fields: Record<string, string> = {
    yyyy: f.year,
    yy: f.year.slice(2),
    MM: f.month,
    dd: f.day,
    HH: f.hour,
    mm: f.minute,
    ss: f.second,
    SSS: ms,
    XXX: offsetText(offset, true, true),
    Z: offsetText(offset, false, false),
  };
  return pattern.replace(/'([^']*)'|([A-Za-z])\2*/g, (token, quoted: string | undefined) => {
    if (quoted !== undefined) return quoted;
    if (!hasOwn(fields, token)) throw new Error(`formatDate: the pattern letter ${token} is not supported in memory`);
    return fields[token];
  });
}

interface MemoryHost extends HostPort {
  activeEmail: string;
  effectiveEmail: string;
  flushes: number;
  // What the code logged, in order.
  logs: string[];
}

function memoryHost(scriptZone: string): MemoryHost {
  const host: MemoryHost = {
    activeEmail: 'owner@example.com',
    effectiveEmail: 'owner@example.com',
    flushes: 0,
    logs: [],
    activeUserEmail: () => host.activeEmail,
    effectiveUserEmail: () => host.effectiveEmail,
    temporaryActiveUserKey: () => 'memory-user-key',
    scriptTimeZone: () => scriptZone,
    sha256Hex: sha256Text,
    formatDate,
    sleep: () => undefined,
    activeUserLocale: () => 'en',
    flushSheets: () => {
      host.flushes++;
    },
    log: (text) => {
      host.logs.push(text);
    },
  };
  return host;
}

interface MemoryIds extends IdsPort {
  issued(): number;
}

// Ids in order and chance from a fixed seed (mulberry32), so a test that reads them back finds the same ones each run.
function memoryIds(issued = 0): MemoryIds {
  let ids = issued;
  let seed = 0x9e3779b9;
  return {
    issued: () => ids,
    uuid: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    random: () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

// A missing tab is made and a missing column added at the end, as gas/tab-upgrade.ts does in Sheets.
const memoryTabs: TabsPort = {
  upgrade(ss: SpreadsheetPort): string[] {
    if (!(ss instanceof MemorySpreadsheet)) throw new Error('memoryTabs upgrades only a MemorySpreadsheet');
    const changed: string[] = [];
    for (const spec of TABS as readonly TabSpec[]) {
      const sheet = ss.getSheetByName(spec.name) ?? ss.getSheetByName(spec.nameJa);
      const header = sheet?.getLastColumn() ? sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] : [];
      const plan = planTab(spec, header.map(String));
      if (sheet && !plan.insert.length && !plan.writeHeader) continue;
      const target = sheet ?? ss.insertSheet(spec.name, plan.header.length);
      if (target.getMaxColumns() < plan.header.length) target.addColumns(plan.header.length - target.getMaxColumns());
      target.getRange(1, 1, 1, plan.header.length).setValues([plan.header]);
      changed.push(spec.name);
    }
    return changed;
  },
  // Formats, validation and protection are Sheets' alone: setup and the archive are proved through the bundle.
  apply: () => {
    throw new Error('memoryTabs shapes no tab: setup and the archive run in the bundle');
  },
};

// No network in memory: a test that wants answers from a provider sets `answer`; otherwise every request fails
// as a refused connection would, reported and not thrown (core/providers/http.ts).
class MemoryFetch {
  readonly sent: WireRequest[] = [];
  answer: ((request: WireRequest) => HttpResult) | null = null;
  fetchAll(requests: WireRequest[]): HttpResult[] {
    this.sent.push(...requests);
    return requests.map(
      (r) => this.answer?.(r) ?? { code: 0, headers: {}, body: '', error: `no network in memory: ${r.url}` },
    );
  }
}

class MemoryTriggers implements TriggersPort {
  readonly installed: (TriggerInfo & { spec: TriggerSpec })[] = [];
  private ids = 0;
  list(): TriggerInfo[] {
    return this.installed.map(({ id, handler, eventType }) => ({ id, handler, eventType }));
  }
  remove(ids: readonly string[]): void {
    for (let i = this.installed.length - 1; i >= 0; i--)
      if (ids.indexOf(this.installed[i].id) >= 0) this.installed.splice(i, 1);
  }
  create(spec: TriggerSpec): void {
    this.installed.push({
      id: `trigger-${++this.ids}`,
      handler: spec.handler,
      eventType: spec.kind === 'after' ? 'CLOCK' : EVENT_TYPES[spec.kind],
      spec,
    });
  }
}

// The charts each sheet holds, by the id "Sheets" gave them; a chart whose spec changed counts as updated.
class MemoryCharts implements ChartsPort {
  readonly drawn: Record<string, { id: number; spec: ChartSpec }[]> = {};
  private ids = 0;
  ensure(sheet: SheetPort, specs: ChartSpec[], known: ChartIds): { created: number; updated: number; ids: ChartIds } {
    const charts = (this.drawn[sheet.getName()] ??= []);
    const ids: ChartIds = {};
    let created = 0;
    let updated = 0;
    for (const spec of specs) {
      const chart = charts.find((c) => c.id === known[spec.id]);
      if (!chart) {
        charts.push({ id: ++this.ids, spec });
        ids[spec.id] = this.ids;
        created++;
        continue;
      }
      ids[spec.id] = chart.id;
      if (JSON.stringify(chart.spec) === JSON.stringify(spec)) continue;
      chart.spec = spec;
      updated++;
    }
    return { created, updated, ids };
  }
}

export interface MemoryPorts extends Ports {
  properties: MemoryProperties;
  cache: MemoryCache;
  lock: MemoryLock;
  ids: MemoryIds;
  host: MemoryHost;
  fetch: MemoryFetch;
  triggers: MemoryTriggers;
  charts: MemoryCharts;
  spreadsheet: MemorySpreadsheet;
}

// Everything one in-process "script" needs: its own properties, cache, lock and a workbook with every Kaigi tab.
// `from`: a copy of another's cells, properties and cache (a set-up Kaigi made once and copied for each test).
// `clock`: the time the use cases read; by default the host's Date.now (which a test's fake timers move).
export function memoryPorts(
  options: { scriptZone?: string; sheetZone?: string; from?: MemoryPorts; clock?: ClockPort } = {},
): MemoryPorts {
  const from = options.from;
  const scriptZone = from ? from.host.scriptTimeZone() : (options.scriptZone ?? 'UTC');
  const spreadsheet = from ? from.spreadsheet.copy() : new MemorySpreadsheet(options.sheetZone ?? scriptZone);
  if (!from) memoryTabs.upgrade(spreadsheet);
  const properties = new MemoryProperties();
  if (from) properties.setProperties(from.properties.values);
  return {
    properties,
    cache: from ? from.cache.copy() : new MemoryCache(),
    lock: new MemoryLock(),
    clock: options.clock ?? { now: () => Date.now() },
    ids: memoryIds(from ? from.ids.issued() : 0),
    host: memoryHost(scriptZone),
    tabs: memoryTabs,
    fetch: new MemoryFetch(),
    triggers: new MemoryTriggers(),
    charts: new MemoryCharts(),
    // The workbook stands for the bound spreadsheet; it holds cells only (see BoundSpreadsheet in ports.ts).
    spreadsheets: {
      active: () => spreadsheet as unknown as BoundSpreadsheet,
      openById: (id) => {
        if (id !== spreadsheet.getId()) throw new Error(`no spreadsheet ${id} in memory`);
        return spreadsheet as unknown as BoundSpreadsheet;
      },
      create: () => {
        throw new Error('memory ports make no new spreadsheet: the archive is proved through the bundle');
      },
    },
    spreadsheet,
  };
}
