// Use cases in-process: a set-up Kaigi on the in-memory ports (no runtime, no bundle), and readers for its tabs.
import { afterEach, vi } from 'vitest';
import { type RowOf as Row, rowsOf, type TabKey, tabByKey } from '../../../sheets-schema/index.js';
import { seedSettings } from '../../../src/store/settings-tab.js';
import { bumpConfigVersion, Store } from '../../../src/store/store.js';
import { type MemoryPorts, memoryPorts } from '../../../src/adapters/memory/memory-ports.js';
import { usePorts } from '../../../src/ports.js';
import { createClient } from '../../../src/app/api/clients.js';
import { adoptConfigRows } from '../../../src/app/audit/config-audit.js';
import { Council } from '../../../src/app/sheet-council.js';
import { seedCouncil, seedDemo } from '../../../src/app/surfaces/seed.js';
import { runTick, type TickReport } from '../../../src/app/queue/tick.js';
import { answerWeb } from '../../../src/app/api/web.js';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { DEFAULT_METRICS } from '../../../src/core/orders/metric-table.js';
import { updateSetting } from '../../../src/app/steer/settings-rows.js';

// 10:00 in Tokyo, as the bundle tests start (tests/council-helpers.ts), so a run never crosses the date line.
const START = Date.UTC(2026, 0, 15, 1, 0, 0);
export const ZONE = 'Asia/Tokyo';

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
  vi.useRealTimers();
});

export interface Kaigi {
  ports: MemoryPorts;
  // A fresh council, as each execution builds its own (nothing cached from an earlier one).
  council(): Council;
  records<K extends TabKey>(key: K): Row<K>[];
  advance(ms: number): void;
}

// Set-up workbooks made at START, with and without the demo team: made once per worker, copied for each test.
const made: Record<string, MemoryPorts> = {};

// A set-up Kaigi of its own (a copy of one made once: setting up costs more than most tests).
export function kaigi(opts: { demo?: boolean; startAt?: number } = {}): Kaigi {
  const demo = opts.demo !== false;
  vi.useFakeTimers({ now: opts.startAt ?? START, toFake: ['Date'] });
  const key = `${demo}`;
  const template = opts.startAt === undefined ? (made[key] ??= setUp(demo)) : setUp(demo);
  const ports = memoryPorts({ from: template });
  restore = usePorts(ports);
  return {
    ports,
    council: () => new Council(ports.spreadsheets.active()!, ZONE),
    records: (key) => readRecords(ports, key),
    advance: (ms) => vi.setSystemTime(Date.now() + ms),
  };
}

// What setup() leaves in the workbook's cells and properties (tabs, Settings, Agents, Prompts, the store's state,
// the audited configuration), without its Sheets-only steps (formats, protections, triggers, charts: bundle tests).
function setUp(demo: boolean): MemoryPorts {
  const ports = memoryPorts({ scriptZone: ZONE });
  const back = usePorts(ports);
  const ss = ports.spreadsheet;
  seedSettings(ss, DEFAULT_SETTINGS);
  seedCouncil(ss);
  const store = new Store(ss, ZONE);
  store.ensureState();
  bumpConfigVersion();
  adoptConfigRows(store, 'setup', new Date());
  // setup() records the bound spreadsheet's id: the web app opens it by that id, and the API is "set up" from then on.
  ports.properties.setProperty(PROPERTY_KEYS.spreadsheetId, ss.getId());
  if (demo) seedDemo(ss);
  back();
  return ports;
}

export function readRecords<K extends TabKey>(ports: MemoryPorts, key: K): Row<K>[] {
  const spec = tabByKey(key);
  const sheet = ports.spreadsheet.getSheetByName(spec.name);
  if (!sheet) throw new Error(`no ${spec.name} tab`);
  const cols = rowsOf(key);
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return sheet
    .getRange(2, 1, last - 1, cols.width)
    .getValues()
    .map((r) => cols.read(r) as Row<K>);
}

export function statuses(k: Kaigi): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of k.records('discussions')) out[String(r.discussion_id)] = String(r.status);
  return out;
}

// Runs the minute trigger's work until no discussion is active and no work is due, moving the clock past leases,
// as tests/council-helpers.ts's settle does through the runtime.
export function settle(k: Kaigi, maxTicks = 30): TickReport[] {
  const runs: TickReport[] = [];
  for (let i = 0; i < maxTicks; i++) {
    const active = Object.values(statuses(k)).some((s) => s === 'OPEN' || s === 'IN_PROGRESS' || s === 'VOTING');
    const queued = k
      .records('queue')
      .some(
        (r) =>
          (r.status === 'queued' && (r.available_at as Date).getTime() <= Date.now()) ||
          r.status === 'processing' ||
          r.status === 'failed',
      );
    const dashboard = k.ports.properties.getProperty(PROPERTY_KEYS.dashboardDue) !== null;
    if (!active && !queued && !dashboard && i > 0) break;
    runs.push(runTick());
    k.advance(301_000);
  }
  return runs;
}

// One web API call as doGet/doPost answer it, the token in the query (GET) or the body (POST).
export function api(token: string, method: 'GET' | 'POST', path: string, body: Record<string, unknown> = {}): any {
  if (method === 'GET') {
    const parameter: Record<string, string> = { path, token };
    for (const [key, v] of Object.entries(body)) parameter[key] = String(v);
    return answerWeb('GET', parameter, undefined);
  }
  return answerWeb('POST', { path }, JSON.stringify({ token, ...body }));
}

// An API client of a role, as an admin creates one (createApiClient), with its token.
export function client(k: Kaigi, name: string, role: string): string {
  const council = k.council();
  return createClient(council.store, { name, role }, 'admin@example.com', council.config.agents()).token;
}

// A person's request about a member's falling contacts (the shape of most tests' triggers).
export function decline(member: string, priority: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' = 'HIGH') {
  return { type: 'kpi_decline', source: 'human', target_user_id: member, context: { metric: 'contacts' }, priority };
}

// Sets a Settings row's value as an admin does from the settings dialog (audited, the configuration moved on).
export function setSetting(k: Kaigi, key: string, value: string): void {
  updateSetting(k.council(), { key, value }, 'admin@example.com');
}

// The metric table with one more metric, as a person adds its row (a test's own metric besides the demo's five).
export function addMetric(k: Kaigi, name: string, over: Record<string, unknown> = {}): void {
  const table = [
    ...DEFAULT_METRICS,
    { name, label_ja: name, label_en: name, kind: 'count', good: 'up', min: 0, max: 1000, watched: false, ...over },
  ];
  setSetting(k, 'kpi.metrics', JSON.stringify(table));
}
