// The Dashboard's five summary tables, aggregated from plain rows, and where each table sits on the tab.
import { ConfigError } from './errors.js';

type Cell = string | number;
export type Table = Cell[][];

export interface DashMessage {
  discussion_id: string;
  phase: number;
  // The message's day (YYYY-MM-DD in the script's zone), from its timestamp.
  day: string;
  processing_time_ms: number;
  // When it was written (epoch ms) and its kind: the phase's time taken is read from these timestamps. Absent (NaN or
  // undefined): only the processing times count.
  at?: number;
  type?: string;
  tokens: number;
  cost_usd: number;
  stated: number | null;
  computed: number | null;
}

export interface DashInput {
  statuses: readonly string[];
  // A status as the chart's reader should see it, with its count (the pie's legend): the label in the workbook's
  // language. Without it, the status itself.
  statusLabel?: (status: string, count: number) => string;
  discussions: { status: string }[];
  messages: DashMessage[];
  // Outcomes: the day each was evaluated and its verdict.
  outcomes: { day: string; verdict: string }[];
  verdicts: readonly string[];
  // Settings phase.target_seconds.
  targets: Record<string, number>;
}

const PHASES = [1, 2, 3, 4, 5, 6];

// The five tables' headers: the Dashboard tab's columns, in this order (sheets-schema/tabs-data.ts).
const BLOCK_HEADERS = [
  ['status', 'discussions'],
  ['phase', 'latency_seconds', 'target_seconds'],
  ['confidence_phase', 'stated_confidence', 'computed_confidence'],
  ['week', 'confirmed', 'rejected', 'inconclusive'],
  ['day', 'tokens', 'cost_usd'],
] as const;

// Every column of the Dashboard tab: each has a label per locale (label-tables.ts), which the charts' legends show.
export const DASHBOARD_COLUMNS = BLOCK_HEADERS.flat();
export type DashboardColumn = (typeof DASHBOARD_COLUMNS)[number];

const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

// Monday of the day's week (YYYY-MM-DD): verdict rates are weekly, as a daily rate over a handful of reviews is noise.
export function weekOf(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const dow = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - dow * 86_400_000).toISOString().slice(0, 10);
}

function statusTable(inp: DashInput): Table {
  const counts: Record<string, number> = {};
  for (const d of inp.discussions) counts[d.status] = (counts[d.status] ?? 0) + 1;
  const named = inp.statusLabel ?? ((s: string) => s);
  return [[...BLOCK_HEADERS[0]], ...inp.statuses.map((s) => [named(s, counts[s] ?? 0), counts[s] ?? 0])];
}

// Messages the council does not write in its own time: an executor's report or a person's answer arrives whenever
// they act, and would count hours of waiting as the phase's work.
const NOT_COUNCIL = ['ACKNOWLEDGEMENT', 'FEEDBACK_RESPONSE', 'OBJECTION'];

// A phase's time taken in one discussion, in seconds: from the end of the phase before (for the first, from the start
// of its first message's work) to its last council message, as the timestamps show it, or the sum of its speakers'
// processing times when that is longer (rows without timestamps, speakers working in parallel in separate executions).
function phaseSeconds(ms: DashMessage[]): Record<number, number> {
  const sum: Record<number, number> = {};
  const first: Record<number, number> = {};
  const last: Record<number, number> = {};
  for (const m of ms) {
    sum[m.phase] = (sum[m.phase] ?? 0) + m.processing_time_ms;
    const at = m.at ?? Number.NaN;
    if (!Number.isFinite(at) || NOT_COUNCIL.indexOf(m.type ?? '') >= 0) continue;
    first[m.phase] = Math.min(first[m.phase] ?? Infinity, at - m.processing_time_ms);
    last[m.phase] = Math.max(last[m.phase] ?? -Infinity, at);
  }
  const out: Record<number, number> = {};
  for (const p of Object.keys(sum).map(Number)) {
    const before = Object.keys(last)
      .map(Number)
      .filter((q) => q < p)
      .map((q) => last[q]);
    const start = before.length ? Math.max(...before) : first[p];
    const span = last[p] !== undefined && start !== undefined ? last[p] - start : 0;
    out[p] = Math.max(sum[p], span) / 1000;
  }
  return out;
}

// The table shows each phase's mean time taken over the discussions that reached it, next to its target; to the
// millisecond, so a quick run (the demo's rules answer in milliseconds) shows the time it took rather than 0.
function latencyTable(inp: DashInput): Table {
  const byDiscussion: Record<string, DashMessage[]> = {};
  for (const m of inp.messages) (byDiscussion[m.discussion_id] ??= []).push(m);
  const times = Object.keys(byDiscussion).map((id) => phaseSeconds(byDiscussion[id]));
  return [
    [...BLOCK_HEADERS[1]],
    ...PHASES.map((p) => {
      const xs = times.filter((t) => t[p] !== undefined).map((t) => t[p]);
      return [`P${p}`, round(mean(xs), 3), Number(inp.targets[String(p)] ?? 0)];
    }),
  ];
}

// Mean stated and computed confidence per phase, over the messages that carry each.
function confidenceTable(inp: DashInput): Table {
  return [
    [...BLOCK_HEADERS[2]],
    ...PHASES.map((p) => {
      const ms = inp.messages.filter((m) => m.phase === p);
      const stated = ms.map((m) => m.stated).filter((v): v is number => v !== null);
      const computed = ms.map((m) => m.computed).filter((v): v is number => v !== null);
      return [`P${p}`, round(mean(stated), 3), round(mean(computed), 3)];
    }),
  ];
}

// Share of each verdict among the outcomes evaluated that week.
function verdictTable(inp: DashInput): Table {
  const weeks: Record<string, Record<string, number>> = {};
  for (const o of inp.outcomes) {
    const w = weekOf(o.day);
    weeks[w] = weeks[w] ?? {};
    weeks[w][o.verdict] = (weeks[w][o.verdict] ?? 0) + 1;
  }
  const rows = Object.keys(weeks)
    .sort()
    .map((w) => {
      const total = Object.keys(weeks[w]).reduce((a, v) => a + weeks[w][v], 0);
      return [w, ...inp.verdicts.map((v) => round((weeks[w][v] ?? 0) / total, 3))];
    });
  return [[...BLOCK_HEADERS[3]], ...rows];
}

function usageTable(inp: DashInput): Table {
  const days: Record<string, { tokens: number; cost: number }> = {};
  for (const m of inp.messages) {
    const d = (days[m.day] = days[m.day] ?? { tokens: 0, cost: 0 });
    d.tokens += m.tokens;
    d.cost += m.cost_usd;
  }
  return [
    [...BLOCK_HEADERS[4]],
    ...Object.keys(days)
      .sort()
      .map((d) => [d, days[d].tokens, round(days[d].cost, 6)]),
  ];
}

export function dashboardTables(inp: DashInput): Table[] {
  return [statusTable(inp), latencyTable(inp), confidenceTable(inp), verdictTable(inp), usageTable(inp)];
}

// Where one table's chart reads: its row of labels and the values below it.
interface Block {
  row: number;
  column: number;
  rows: number;
  columns: number;
}

export interface Layout {
  blocks: Block[];
  // The grid written in one setValues from A1: every table side by side, blanks below the shorter ones.
  grid: Cell[][];
}

// Tables sit side by side from A1, so a table that grows only lengthens its own columns. Row 1 holds each table's
// column keys (the tab's frozen header, which setup checks); row 2 the same columns by `columnLabel`, in the
// workbook's language; the values follow. A chart reads from row 2, so its legend shows labels, not column names.
// `clearRows` is how many rows the tab held before: the grid covers them with blanks.
export function layout(tables: Table[], columnLabel: (key: string) => string, clearRows = 0): Layout {
  const blocks: Block[] = [];
  let column = 1;
  const rows = tables.map((t) => [t[0], t[0].map((k) => columnLabel(String(k))), ...t.slice(1)]);
  for (const t of rows) {
    blocks.push({ row: 2, column, rows: t.length - 1, columns: t[0].length });
    column += t[0].length;
  }
  const height = Math.max(clearRows, ...rows.map((t) => t.length));
  const grid: Cell[][] = [];
  for (let r = 0; r < height; r++) {
    const line: Cell[] = [];
    for (const t of rows) for (let c = 0; c < t[0].length; c++) line.push(r < t.length ? t[r][c] : '');
    grid.push(line);
  }
  return { blocks, grid };
}

// ---- the charts' ids (Script Property PROPERTY_KEYS.dashboardCharts) ----------------------------------------
// Sheets keeps no option of Kaigi's on a chart, so the id Sheets gave each Dashboard chart is kept here, by the
// chart's name: { v: 1, ids: { "dashboard-1": 123456, … } }.

const CHART_IDS_VERSION = 1;

// The stored ids; none when nothing is stored. A value in another shape or version is refused, never guessed at.
export function parseChartIds(raw: string | null, property: string): Record<string, number> {
  if (raw === null || raw === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    throw new ConfigError(
      `The Script Property ${property} is not JSON (${(e as Error).message}); delete it.`,
      property,
    );
  }
  const o = v as { v?: unknown; ids?: unknown } | null;
  if (!o || typeof o !== 'object' || o.v !== CHART_IDS_VERSION || !o.ids || typeof o.ids !== 'object')
    throw new ConfigError(
      `The Script Property ${property} is not Dashboard chart ids of version ${CHART_IDS_VERSION}; delete it.`,
      property,
    );
  const ids: Record<string, number> = {};
  for (const [k, id] of Object.entries(o.ids as Record<string, unknown>)) if (typeof id === 'number') ids[k] = id;
  return ids;
}

export function chartIdsValue(ids: Record<string, number>): string {
  return JSON.stringify({ v: CHART_IDS_VERSION, ids });
}
