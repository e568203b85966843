// Refreshes the Dashboard tab: the five tables in one batched write, then one native chart per table.
import { rowsOf, tabByKey } from '../../../sheets-schema/index.js';
import type { ChartSpec } from '../../ports.js';
import { ports } from '../../ports.js';
import { dayOf } from '../../store/records.js';
import { props } from '../../store/services.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import {
  chartIdsValue,
  type DashboardColumn,
  type DashMessage,
  dashboardTables,
  layout,
  parseChartIds,
} from '../../core/dashboard.js';
import { label } from '../../core/labels.js';
import { lastPerDecision } from '../../core/memory/last-verdicts.js';
import type { Council } from '../sheet-council.js';
import { parseInstant } from '../../core/instant.js';

const discussionCols = rowsOf('discussions');
const messageCols = rowsOf('messages');
const outcomeCols = rowsOf('outcomes');

const TITLES: Record<'ja' | 'en', string[]> = {
  ja: [
    'ステータス別の議論',
    'フェーズ所要時間と目標（秒）',
    '表明信頼度と算出信頼度',
    '評価結果の割合（週別）',
    '日別のトークンとコスト',
  ],
  en: [
    'Discussions by status',
    'Phase latency vs target (s)',
    'Stated and computed confidence',
    'Verdict rates by week',
    'Tokens and cost per day',
  ],
};
const TYPES: ChartSpec['type'][] = ['PIE', 'COLUMN', 'COLUMN', 'LINE', 'COMBO'];

// Each chart's options beyond its type and title: legends below; the pie names each status with its count (its
// legend) and shows the count on the slice; tokens per day as columns on the left axis, cost as a line on an axis
// of its own on the right (a cent beside thousands of tokens is invisible on one axis).
function chartOptions(i: number, label: (key: DashboardColumn) => string): Record<string, unknown> {
  const common = { 'legend.position': 'bottom' };
  if (i === 0) return { ...common, pieSliceText: 'value' };
  if (i !== 4) return common;
  return {
    ...common,
    'series.0.type': 'bars',
    'series.0.targetAxisIndex': 0,
    'series.1.type': 'line',
    'series.1.targetAxisIndex': 1,
    'vAxes.0.title': label('tokens'),
    'vAxes.1.title': label('cost_usd'),
  };
}

const valuesOf = (key: 'discussions' | 'outcomes', col: string): readonly string[] =>
  (tabByKey(key).columns.find((c) => c.key === col) as { values?: readonly string[] }).values ?? [];

const num = (v: unknown): number | null => (v === '' || v === null || v === undefined ? null : Number(v));

function timeOf(v: unknown): number {
  return v instanceof Date ? v.getTime() : parseInstant(String(v));
}

// Messages rows to one entry per message: the columns give phase, time, tokens and confidence; cost is only in the
// message's metadata, so the JSON (chunks concatenated in order) is parsed for it.
function dashMessages(rows: unknown[][], tz: string): DashMessage[] {
  const byId: Record<string, ReturnType<typeof messageCols.read>[]> = {};
  for (const r of rows.map((v) => messageCols.read(v))) (byId[String(r.message_id)] ??= []).push(r);
  return Object.keys(byId).map((id) => {
    const parts = byId[id].sort((a, b) => Number(a.chunk) - Number(b.chunk));
    const m = parts[0];
    const json = JSON.parse(parts.map((p) => String(p.message_json)).join('')) as { metadata?: { cost_usd?: number } };
    return {
      discussion_id: String(m.discussion_id),
      phase: Number(m.phase),
      day: dayOf(timeOf(m.timestamp), tz),
      processing_time_ms: Number(m.processing_time_ms) || 0,
      at: timeOf(m.timestamp),
      type: String(m.message_type),
      tokens: Number(m.tokens_consumed) || 0,
      cost_usd: Number(json.metadata?.cost_usd ?? 0),
      stated: num(m.stated_confidence),
      computed: num(m.computed_confidence),
    };
  });
}

export interface DashboardReport {
  ranges: number;
  charts: number;
  created: number;
  updated: number;
}

// Reads the Discussion Log, Messages and Outcomes once each (tokens and cost come from Messages, which the latency
// and confidence tables need anyway, so no other tab is read), writes every table with one setValues from A1 that also
// blanks rows a longer previous refresh left, then makes sure the five charts point at the tables (found again by the
// ids Sheets gave them, kept in a Script Property).
export function refreshDashboardNow(council: Council): DashboardReport {
  const store = council.store;
  const settings = council.settings();
  // Days are counted on the script's calendar, as everywhere in Kaigi (setup gives a new spreadsheet the same zone).
  const tz = council.tz;
  const lang = String(settings.get('locale')) === 'en' ? 'en' : 'ja';
  const tables = dashboardTables({
    statuses: valuesOf('discussions', 'status'),
    statusLabel: (s, n) => `${label('status', s, lang)} (${n})`,
    discussions: store.readTab('discussions').map((r) => ({ status: String(discussionCols.read(r).status) })),
    messages: dashMessages(store.readTab('messages'), tz),
    // A decision rechecked has two rows: its later one is its verdict, and it is counted once.
    outcomes: lastPerDecision(
      store.readTab('outcomes').map((r) => {
        const o = outcomeCols.read(r);
        return {
          decision_id: String(o.decision_id),
          day: dayOf(timeOf(o.evaluated_at), tz),
          verdict: String(o.verdict),
        };
      }),
    ),
    verdicts: valuesOf('outcomes', 'verdict'),
    targets: settings.get('phase.target_seconds'),
  });
  const sheet = store.sheet('dashboard');
  const columnLabel = (key: string) => label('dashboard_column', key, lang);
  const { blocks, grid } = layout(tables, columnLabel, sheet.getLastRow());
  sheet.getRange(1, 1, grid.length, grid[0].length).setValues(grid);
  store.wrote();
  const right = grid[0].length + 2;
  const specs: ChartSpec[] = blocks.map((b, i) => ({
    id: `dashboard-${i + 1}`,
    type: TYPES[i],
    title: TITLES[lang][i],
    a1: sheet.getRange(b.row, b.column, b.rows, b.columns).getA1Notation(),
    row: 1 + i * 20,
    column: right,
    options: chartOptions(i, columnLabel),
  }));
  const known = parseChartIds(props.get(PROPERTY_KEYS.dashboardCharts), PROPERTY_KEYS.dashboardCharts);
  const { ids, ...r } = ports().charts.ensure(sheet, specs, known);
  // The ids move on only when a chart was made or found again; an unchanged Dashboard writes no property.
  if (chartIdsValue(ids) !== chartIdsValue(known)) props.set({ [PROPERTY_KEYS.dashboardCharts]: chartIdsValue(ids) });
  return { ranges: blocks.length, charts: specs.length, ...r };
}

// A discussion ended: the Dashboard is due dashboard.refresh_delay_seconds from now, unless a refresh is already due
// (it reads the tabs when it runs, so it covers this discussion too). A property, not a queue row: it costs the
// discussion no Sheets round trip, and one refresh serves a burst of decisions.
export function markDashboardDue(council: Council): void {
  if (props.get(PROPERTY_KEYS.dashboardDue)) return;
  const delay = council.settings().number('dashboard.refresh_delay_seconds') * 1000;
  props.set({ [PROPERTY_KEYS.dashboardDue]: String(council.now() + delay) });
}

export function dashboardDueAt(all: Record<string, string>): number | null {
  const due = Number(all[PROPERTY_KEYS.dashboardDue] || 0);
  return due > 0 ? due : null;
}

// A refresh run for its own reason (the daily review, the menu) covers one already due, since it reads the tabs as
// they are now: the mark goes with it, so the next tick does not read them whole again for nothing.
export function refreshDashboardCovering(council: Council): DashboardReport {
  const due = dashboardDueAt({ [PROPERTY_KEYS.dashboardDue]: props.get(PROPERTY_KEYS.dashboardDue) ?? '' });
  return due === null ? refreshDashboardNow(council) : refreshDueDashboard(council, due);
}

// Run by a tick once the refresh is due. The mark is cleared first, so a discussion that ends during the refresh
// marks it due again; a refresh that fails puts the mark back for the next tick, and the error goes on.
export function refreshDueDashboard(council: Council, due: number): DashboardReport {
  props.remove(PROPERTY_KEYS.dashboardDue);
  try {
    return refreshDashboardNow(council);
  } catch (e) {
    if (!props.get(PROPERTY_KEYS.dashboardDue)) props.set({ [PROPERTY_KEYS.dashboardDue]: String(due) });
    throw e;
  }
}
