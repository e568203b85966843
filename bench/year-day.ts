// One simulated day of the year bench on the real path: the KPI feed through POST /kpi, the measured discussions,
// and the daily review with the ticks after it (the archive run among them), each execution on the time model.
import type { ExecutionResult, Runtime } from '../runtime/runtime.js';
import { tabRows } from '../tools/tab-rows.js';
import { discussion, must, sheet } from './discussion.js';
import { rowsOf } from '../sheets-schema/index.js';
import { PROPERTY_KEYS } from '../src/core/property-keys.js';

export const DAY_MS = 24 * 3600_000;

// YYYY-MM-DD in Tokyo, the demo workbook's zone and the script's.
export function tokyoDay(t: number): string {
  return new Date(t + 9 * 3600_000).toISOString().slice(0, 10);
}

// The demo team's five and as many more as make `count` members, added as a person types them into Members.
export async function addMembers(rt: Runtime, count: number): Promise<string[]> {
  const s = sheet(rt.workbook, 'Members');
  const m = rowsOf('members');
  const have = tabRows(rt, 'members').map((r) => String(r.member_id));
  const rows: unknown[][] = [];
  for (let i = have.length; i < count; i++)
    rows.push(
      m.write({
        member_id: `m${String(i + 1).padStart(2, '0')}`,
        name: `Member ${i + 1}`,
        team: `Team ${(i % 4) + 1}`,
        role: 'sales',
        joined_at: new Date(Date.UTC(2024, i % 12, 1)),
        best_login_streak: 10,
        profile_json: '{}',
      }),
    );
  if (rows.length) for (const r of await rt.edit('Members', rt.workbook.lastRow(s) + 1, 1, rows)) must(r);
  return tabRows(rt, 'members').map((r) => String(r.member_id));
}

// One KPI row per member for the day, sent as a CRM feed would send it; returns the rows accepted.
export async function postKpi(rt: Runtime, token: string, members: readonly string[], day: string): Promise<number> {
  const seed = Number(day.replace(/-/g, '')) % 97;
  const rows = members.map((id, i) => ({
    member_id: id,
    date: day,
    metric: 'contacts',
    value: 8 + ((seed + i * 5) % 8),
    note: 'crm',
  }));
  const post = await rt.doPost({ path: '/kpi' }, JSON.stringify({ token, rows }));
  const answer = JSON.parse(post.body) as { status?: number; accepted?: number; error?: unknown };
  if (!post.result.ok || answer.error) throw new Error(`POST /kpi answered ${post.body}`);
  return Number(answer.accepted ?? 0);
}

export interface Measured {
  id: string;
  orders: string[];
  own_ms: number;
  round_trips: number;
}

// One discussion from the request to DECIDED: Kaigi's own modelled time (no model is called: the rules decide) and
// its Sheets round trips, with the ids it wrote.
export async function measuredDiscussion(rt: Runtime): Promise<Measured> {
  const runs = await discussion(rt);
  const log = tabRows(rt, 'discussions');
  const last = log[log.length - 1];
  if (last.status !== 'DECIDED') throw new Error(`the measured discussion ${last.discussion_id} is ${last.status}`);
  const id = String(last.discussion_id);
  const orders = tabRows(rt, 'orders')
    .filter((o) => o.discussion_id === id)
    .map((o) => String(o.order_id));
  return {
    id,
    orders,
    own_ms: runs.reduce((a, r) => a + (r.endedAt - r.startedAt), 0),
    round_trips: runs.reduce((a, r) => a + r.counts.roundTrips, 0),
  };
}

// The Dashboard refresh a decision made due, run by a tick at its due time as the backstop would run it (Apps Script
// fires one every few minutes; the bench fires none between discussions): its modelled time, 0 when none was due.
// Without it the next measured discussion's first tick did the refresh and counted it as that discussion's.
export async function dueDashboard(rt: Runtime): Promise<number> {
  const due = Number(rt.scriptProperties.get(PROPERTY_KEYS.dashboardDue) || 0);
  if (!due) return 0;
  rt.clock.advanceTo(Math.max(rt.clock.now(), due + 1000));
  const r = await rt.run('tick', [], { kind: 'trigger' });
  if (!(must(r) as { dashboard?: boolean }).dashboard)
    throw new Error('the tick at the Dashboard’s due time did not refresh it');
  return r.endedAt - r.startedAt;
}

export interface ReviewDay {
  // The review's executions that day: the daily trigger and the ticks until nothing queued was left.
  ms: number;
  longest_ms: number;
  executions: number;
  failed: number;
  // Queue items (review, archive) still open when the day's ticks stopped.
  left: number;
  // Each execution that failed or ran out of time: the function, and for a tick the tasks it held when it stopped.
  stopped: string[];
}

// Apps Script ends an execution at six minutes: a review execution must end before.
export const EXECUTION_LIMIT_MS = 360_000;

// The daily review, then a tick each time queued work may be claimed (as the nudge or the backstop would fire one).
export async function reviewDay(rt: Runtime, maxRuns = 60): Promise<ReviewDay> {
  const stopped: string[] = [];
  const note = (r: ExecutionResult) => {
    if (r.ok && !r.timedOut) return;
    const held = tabRows(rt, 'queue')
      .filter((q) => q.status === 'processing')
      .map((q) => String(q.type));
    // Where its modelled time went, and its most frequent round trips: what to look at first.
    const ms = Object.entries(r.counts.msByKind)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k, v]) => `${k} ${Math.round(v / 1000)} s`);
    const ops = Object.entries(r.counts.byOp)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${k} ×${v}`);
    stopped.push(
      `${r.fn}${r.timedOut ? ' (6 min)' : ` (${r.error?.message ?? 'failed'})`}${held.length ? ` in ${held.join(', ')}` : ''}` +
        ` [${ms.concat(ops).join(', ')}]`,
    );
  };
  const runs: ExecutionResult[] = [await rt.run('dailyReview', [], { kind: 'trigger' })];
  note(runs[0]);
  const open = () => tabRows(rt, 'queue').filter((q) => q.status === 'queued' || q.status === 'processing');
  for (let left = open(); left.length && runs.length < maxRuns; left = open()) {
    const free = Math.min(
      ...left.map((q) =>
        q.status === 'processing' ? (q.lease_until as Date).getTime() : (q.available_at as Date).getTime(),
      ),
    );
    rt.clock.advanceTo(Math.max(rt.clock.now(), free) + 1000);
    runs.push(await rt.run('tick', [], { kind: 'trigger' }));
    note(runs[runs.length - 1]);
  }
  const ms = runs.map((r) => r.endedAt - r.startedAt);
  return {
    ms: ms.reduce((a, b) => a + b, 0),
    longest_ms: Math.max(...ms),
    executions: runs.length,
    failed: runs.filter((r) => !r.ok || r.timedOut).length,
    left: open().length,
    stopped,
  };
}
