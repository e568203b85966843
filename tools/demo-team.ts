// The five-member demo team for multi-day runs through the runtime: members slump, and recover only when an order
// holds the action type each one responds to — an effect hidden from the council, which has to learn it from outcomes.
import type { ExecutionResult, Runtime } from '../runtime/runtime.js';
import { rowsOf } from '../sheets-schema/index.js';

export const HIDDEN_EFFECTS: Record<string, string> = {
  tanaka: 'PRAISE_INCREASE',
  sato: 'ONE_ON_ONE',
  suzuki: 'MESSAGE_TIMING',
  takahashi: 'REST_RECOMMENDATION',
  ito: 'PEER_SUPPORT',
};

const BASE: Record<string, number> = { tanaka: 12, sato: 13, suzuki: 11, takahashi: 14, ito: 12 };
const DAY = 24 * 3600_000;

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

interface MemberState {
  slumpDay: number;
  level: number;
  streak: number;
  recovering: boolean;
}

export interface SimulationResult {
  days: number;
  verdicts: { day: number; member: string; verdict: string }[];
  discussions: number;
}

function ok(r: ExecutionResult): unknown {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.message}`);
  return r.value;
}

function day(t: number): string {
  return new Date(t + 9 * 3600_000).toISOString().slice(0, 10);
}

const orderCols = rowsOf('orders');
const logCols = rowsOf('discussions');
const LIVE = ['PENDING', 'ACKNOWLEDGED', 'IN_PROGRESS'];

// A tab's rows from row 2, read by column name (the first `width` columns only).
function rowsFrom<K extends Parameters<typeof rowsOf>[0]>(rt: Runtime, name: string, key: K, width: number) {
  const s = rt.workbook.sheetByName(name)!;
  const last = rt.workbook.lastRow(s);
  return last < 2 ? [] : rt.workbook.getValues(s, 2, 1, last - 1, width).map((v) => rowsOf(key).read(v));
}

// Per member, the action types of the orders now in force: open orders whose review date has not passed (the review
// leaves orders as reported, so the date, not the status, says when one stops).
function activeActions(
  rt: Runtime,
  today: string,
): { memberOf: Record<string, string>; active: Record<string, string[]> } {
  const memberOf: Record<string, string> = {};
  for (const r of rowsFrom(rt, 'Discussion Log', 'discussions', logCols.index('trigger_target_user') + 1))
    memberOf[String(r.discussion_id)] = String(r.trigger_target_user);
  const active: Record<string, string[]> = {};
  for (const o of rowsFrom(rt, 'Orders', 'orders', orderCols.index('review_date') + 1)) {
    if (LIVE.indexOf(String(o.status)) < 0 || day((o.review_date as Date).getTime()) < today) continue;
    const m = memberOf[String(o.discussion_id)];
    (active[m] ??= []).push(JSON.parse(String(o.action_json)).action_type as string);
  }
  return { memberOf, active };
}

// One member's day: a slump may start, an order holding its hidden effect starts recovery, and the KPI rows it gives.
function memberDay(
  m: string,
  s: MemberState,
  active: readonly string[],
  rand: () => number,
  today: string,
): unknown[][] {
  if (active.indexOf(HIDDEN_EFFECTS[m]) >= 0) s.recovering = true;
  if (s.slumpDay < 0 && !s.recovering && rand() < 0.06) s.slumpDay = 0;
  if (s.recovering) {
    s.level = Math.min(BASE[m], s.level + 2.5);
    if (s.level >= BASE[m]) {
      s.recovering = false;
      s.slumpDay = -1;
    }
  } else if (s.slumpDay >= 0 && s.slumpDay < 4) {
    s.level = Math.max(3, s.level * 0.78);
    s.slumpDay++;
  } else if (s.slumpDay >= 4) {
    // Left alone, a slump wears off after about two weeks.
    s.slumpDay++;
    if (s.slumpDay > 16) s.recovering = true;
  }
  s.streak = s.slumpDay >= 0 && !s.recovering ? Math.max(0, s.streak - 2) : s.streak + 1;
  const contacts = Math.max(1, Math.round(s.level + (rand() - 0.5)));
  const when = new Date(Date.parse(`${today}T00:00:00+09:00`));
  return [
    [when, m, 'contacts', contacts, ''],
    [when, m, 'appointments', Math.round(contacts * 0.3), ''],
    [when, m, 'login_streak', s.streak, ''],
    [when, m, 'praise_count_last_7d', s.slumpDay >= 0 ? 1 : 4, ''],
    [when, m, 'overtime_hours', s.slumpDay >= 0 ? 2.6 : 1.2, ''],
  ];
}

// Runs `days` days on the runtime's clock: KPI arrives each morning, the review and the watcher run, the queue drains.
export async function simulate(
  rt: Runtime,
  days: number,
  seed: number,
  onDay?: (d: number) => Promise<void>,
): Promise<SimulationResult> {
  const rand = rng(seed);
  const members = Object.keys(HIDDEN_EFFECTS);
  const state: Record<string, MemberState> = {};
  for (const m of members) state[m] = { slumpDay: -1, level: BASE[m], streak: 5, recovering: false };
  const verdicts: SimulationResult['verdicts'] = [];
  const kpi = rt.workbook.sheetByName('KPI')!;
  for (let d = 0; d < days; d++) {
    const today = day(rt.clock.now());
    const { memberOf, active } = activeActions(rt, today);
    const rows = members.flatMap((m) => memberDay(m, state[m], active[m] ?? [], rand, today));
    const at = rt.workbook.lastRow(kpi) + 1;
    if (at + rows.length - 1 > kpi.maxRows)
      rt.workbook.insertRows(kpi, kpi.maxRows + 1, rows.length + 500, kpi.maxRows);
    rt.workbook.setValues(kpi, at, 1, rows.length, 5, rows);
    const review = ok(await rt.run('dailyReview', [], { kind: 'trigger' })) as {
      evaluated: { discussion_id: string; verdict: string }[];
    };
    for (const e of review.evaluated)
      verdicts.push({ day: d, member: memberOf[e.discussion_id] ?? '', verdict: e.verdict });
    ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    for (let i = 0; i < 8; i++) {
      const r = ok(await rt.run('tick', [], { kind: 'trigger' })) as { processed: number };
      if (r.processed === 0) break;
    }
    if (onDay) await onDay(d);
    rt.clock.advance(DAY);
  }
  const s = rt.workbook.sheetByName('Discussion Log')!;
  return { days, verdicts, discussions: Math.max(0, rt.workbook.lastRow(s) - 1) };
}

export function confirmedRate(verdicts: SimulationResult['verdicts'], fromDay: number): number {
  const later = verdicts.filter((v) => v.day >= fromDay && v.verdict !== 'inconclusive');
  return later.length ? later.filter((v) => v.verdict === 'confirmed').length / later.length : 0;
}
