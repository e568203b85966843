// A day with a backlog of reviews, for the review-in-budget test and bench: many decisions due at once, each asking a
// model for its learnings, then the daily review and the ticks after it until nothing of the review is left.
import type { ExecutionResult, RunOptions, Runtime, RuntimeSnapshot } from '../runtime/runtime.js';
import { rowsOf, tabByKey } from '../sheets-schema/index.js';
import { PROPERTY_KEYS } from '../src/core/property-keys.js';
import { HIDDEN_EFFECTS } from './demo-team.js';
import { tabRows } from './tab-rows.js';

const DAY = 24 * 3600_000;
const ACTIVE = ['OPEN', 'IN_PROGRESS', 'VOTING'];

function must(r: ExecutionResult): unknown {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.name}: ${r.error?.message}`);
  return r.value;
}

// YYYY-MM-DD in Tokyo, the demo workbook's zone.
function tokyoDay(t: number): string {
  return new Date(t + 9 * 3600_000).toISOString().slice(0, 10);
}

// On a set-up workbook with the demo team: `n` discussions about the five members in turn, decided with the offline
// rules (so the set-up costs no model calls), then every member's contacts for each day up to the review date — up
// by a fifth for some members, down for others, so each verdict is measured and asks a model for learnings. From
// then on every agent answers through `modelBase` (an OpenAI-compatible server). The clock ends at 06:00 (Tokyo) on
// the review date. Returns the decisions due.
export async function reviewBacklog(rt: Runtime, n: number, modelBase: string): Promise<string[]> {
  const members = Object.keys(HIDDEN_EFFECTS);
  for (let i = 0; i < n; i++) {
    const member = members[i % members.length];
    const trigger = { type: 'kpi_decline', source: 'human', target_user_id: member, context: { metric: 'contacts' } };
    must(await rt.run('startDiscussion', [{ ...trigger, priority: 'MEDIUM' }], { kind: 'server' }));
  }
  for (let i = 0; i < 4 * n; i++) {
    const active = tabRows(rt, 'discussions').some((r) => ACTIVE.indexOf(String(r.status)) >= 0);
    const queued = tabRows(rt, 'queue').some((q) => q.status === 'queued' || q.status === 'processing');
    if (!active && !queued) break;
    must(await rt.run('tick', [], { kind: 'trigger' }));
    rt.clock.advance(301_000);
  }
  const orders = tabRows(rt, 'orders');
  const decided = tabRows(rt, 'discussions').filter((r) => r.status === 'DECIDED');
  if (decided.length !== n) throw new Error(`${decided.length} of ${n} discussions were decided`);
  const reviewAt = Math.max(...orders.map((o) => (o.review_date as Date).getTime()));
  const kpi = rowsOf('kpi');
  const rows: unknown[][] = [];
  const base: Record<string, number> = { tanaka: 12, sato: 13, suzuki: 11, takahashi: 14, ito: 12 };
  for (let t = rt.clock.now() + DAY; tokyoDay(t) <= tokyoDay(reviewAt); t += DAY)
    members.forEach((m, i) =>
      rows.push(
        kpi.write({
          date: new Date(Date.parse(`${tokyoDay(t)}T00:00:00+09:00`)),
          member_id: m,
          metric: 'contacts',
          value: Math.round(base[m] * (i % 2 ? 0.5 : 1.2)),
          note: '',
        }),
      ),
    );
  const sheet = rt.workbook.sheetByName(tabByKey('kpi').name)!;
  const at = rt.workbook.lastRow(sheet) + 1;
  if (at + rows.length > sheet.maxRows)
    rt.workbook.insertRows(sheet, sheet.maxRows + 1, rows.length + 100, sheet.maxRows);
  rt.workbook.setValues(sheet, at, 1, rows.length, kpi.width, rows);
  rt.allowLocalFetch = [modelBase];
  rt.scriptProperties.set({
    [PROPERTY_KEYS.providerOverride]: JSON.stringify({
      provider: 'openai-compatible',
      model: 'bench',
      base_url: `${modelBase}/v1`,
    }),
  });
  rt.clock.advanceTo(Date.parse(`${tokyoDay(reviewAt)}T06:00:00+09:00`));
  return [...new Set(orders.map((o) => String(o.decision_id)))];
}

// `rt`, a set-up workbook with the demo team (a test passes its worker's shared one, tests/council-helpers.ts, rather
// than run setup and seedDemoData again), with `n` decisions due (reviewBacklog), as a snapshot each test restores;
// `rt` is closed after.
export async function backlogSnapshot(
  rt: Runtime,
  n: number,
  modelBase: string,
): Promise<{ snapshot: RuntimeSnapshot; due: string[] }> {
  try {
    const due = await reviewBacklog(rt, n, modelBase);
    return { snapshot: rt.snapshot(), due };
  } finally {
    await rt.close();
  }
}

// The review's queue items not yet finished.
function openReviews(rt: Runtime): Record<string, unknown>[] {
  return tabRows(rt, 'queue').filter(
    (q) => q.type === 'review.run' && ['queued', 'processing', 'failed'].indexOf(String(q.status)) >= 0,
  );
}

// The daily review, then the ticks after it (continueReview). `opts(i)` gives the i-th execution's options (0 is the
// daily review): the clock hook that charges a model's latency, a kill.
export async function reviewUntilDone(
  rt: Runtime,
  opts: (i: number) => RunOptions,
  maxRuns = 40,
): Promise<ExecutionResult[]> {
  const daily = await rt.run('dailyReview', [], { ...opts(0), kind: 'trigger' });
  return [daily, ...(await continueReview(rt, (i) => opts(i + 1), maxRuns - 1))];
}

// A tick each time the review's rest may be claimed again (as the nudge or the backstop would fire one: once it is
// available, or once a dead execution's lease has run out), until no review.run is left or after `maxRuns`.
export async function continueReview(
  rt: Runtime,
  opts: (i: number) => RunOptions,
  maxRuns = 40,
): Promise<ExecutionResult[]> {
  const runs: ExecutionResult[] = [];
  while (runs.length < maxRuns) {
    const open = openReviews(rt);
    if (!open.length) break;
    const free = Math.min(
      ...open.map((q) =>
        q.status === 'processing' ? (q.lease_until as Date).getTime() : (q.available_at as Date).getTime(),
      ),
    );
    rt.clock.advanceTo(Math.max(rt.clock.now(), free) + 1000);
    runs.push(await rt.run('tick', [], { ...opts(runs.length), kind: 'trigger' }));
  }
  return runs;
}
