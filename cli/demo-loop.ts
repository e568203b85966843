// The demo's loop from decision to outcome, on the runtime's clock (kaigi run --demo --until closed): the demo's
// executor carries out each order and reports it as an executor would (reportOrder, as POST /orders/{id}/report),
// the member responds through the KPI the same code as POST /kpi records (importKpiCsv), one completed day at a time,
// and the daily review measures the decision on its review date. What came in and what changed is returned for the
// transcript.
import type { Runtime } from '../runtime/runtime.js';
import { addDays } from '../src/core/discussion/ids.js';
import { demoResponse } from '../src/core/demo-data.js';
import { call } from './shared.js';
import { queueIdle } from './workbook-reads.js';

type Row = Record<string, unknown>;

export interface LoopReport {
  reports: { order_id: string; action_type: string; status: string }[];
  kpi: { day: string; contacts: number }[];
  outcome: {
    verdict: string;
    effect: string;
    effect_change: number | string;
    prediction_error: number | string;
    data_points: number;
    notes: string;
  } | null;
  learnings: { learning_id: string; change: string; content: string }[];
}

async function tab(rt: Runtime, name: string): Promise<Row[]> {
  return ((await call(rt, 'exportTab', [name])) as { rows: Row[] }).rows;
}

const dayOf = (t: number, tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date(t));

// The demo's executor: every order of the discussion carried out and reported DONE, straight from PENDING.
async function carryOut(rt: Runtime, discussionId: string): Promise<LoopReport['reports']> {
  const orders = (await tab(rt, 'Orders')).filter((o) => o.discussion_id === discussionId && o.status === 'PENDING');
  // The report is read in the sidebar and the Discussion Log beside the council's words: in the workbook's language.
  const ja = (await tab(rt, 'Settings')).find((r) => r.key === 'locale')?.value !== 'en';
  const out: LoopReport['reports'] = [];
  for (const o of orders) {
    const action = JSON.parse(String(o.action_json)) as { action_type: string; description?: string };
    const report = ja
      ? `デモの実行役: ${action.description ? `「${action.description}」を` : '指示を'}実行しました`
      : `demo executor: carried out${action.description ? ` “${action.description}”` : ' the order'}`;
    await call(rt, 'reportOrder', [{ order_id: o.order_id, status: 'DONE', report }], 'server');
    out.push({ order_id: String(o.order_id), action_type: action.action_type, status: 'DONE' });
  }
  return out;
}

function csv(rows: { date: string; member_id: string; metric: string; value: number }[]): string {
  return ['date,member_id,metric,value,note']
    .concat(rows.map((r) => `${r.date},${r.member_id},${r.metric},${r.value},demo member's day`))
    .join('\n');
}

function learningChanges(before: Row[], after: Row[]): LoopReport['learnings'] {
  const was = new Map(before.map((r) => [String(r.learning_id), r]));
  const out: LoopReport['learnings'] = [];
  for (const r of after) {
    const id = String(r.learning_id);
    const old = was.get(id);
    const content = String(r.content).slice(0, 120);
    if (!old) out.push({ learning_id: id, change: `new, confidence ${r.confidence}`, content });
    else if (old.confidence !== r.confidence || old.times_successful !== r.times_successful)
      out.push({
        learning_id: id,
        change: `confidence ${old.confidence} → ${r.confidence}, successful ${old.times_successful} → ${r.times_successful}`,
        content,
      });
  }
  return out;
}

// Runs until the discussion is CLOSED (or the review window has passed): carry out, then day by day the member's
// KPI for the day that ended, then that day's review.
export async function closeDemoLoop(
  rt: Runtime,
  d: { id: string; member: string },
  status: () => string,
  maxDays: number,
  say: (line: string) => void = () => {},
): Promise<LoopReport> {
  const tz = rt.manifest.timeZone;
  const reports = await carryOut(rt, d.id);
  say(`demo executor: ${reports.length} order${reports.length === 1 ? '' : 's'} reported DONE`);
  const done = reports.map((r) => r.action_type);
  const decided = dayOf(rt.clock.now(), tz);
  const before = await tab(rt, 'Learnings');
  const kpi: LoopReport['kpi'] = [];
  let fed = decided;
  for (let i = 0; status() === 'DECIDED' && i <= maxDays + 1; i++) {
    const review = rt.triggers.triggers.find((t) => t.handler === 'dailyReview' && t.nextAt !== null);
    if (!review) break;
    rt.clock.advanceTo(review.nextAt!);
    // The member's days that have ended by now arrive as KPI rows, the way a CRM feed would send them.
    const today = dayOf(rt.clock.now(), tz);
    const rows = [];
    const fedBefore = kpi.length;
    for (let day = addDays(fed, 1); day < today; day = addDays(day, 1)) {
      const n = Math.round((Date.parse(day) - Date.parse(decided)) / 86_400_000);
      const dayRows = demoResponse(d.member, done, day, n);
      rows.push(...dayRows);
      const contacts = dayRows.find((r) => r.metric === 'contacts');
      if (contacts) kpi.push({ day, contacts: contacts.value });
      fed = day;
    }
    if (rows.length) await call(rt, 'importKpiCsv', [{ text: csv(rows) }], 'server');
    const fedNow = kpi.slice(fedBefore).map((k) => `${k.day} contacts ${k.contacts}`);
    say(`daily review of ${today}${fedNow.length ? ` (KPI in: ${fedNow.join(', ')})` : ''}`);
    await rt.fireDueTriggers();
    await rt.runTriggers(() => queueIdle(rt), { maxFirings: 50 });
  }
  const outcome = (await tab(rt, 'Outcomes')).find((o) => o.discussion_id === d.id);
  return {
    reports,
    kpi,
    outcome: outcome
      ? {
          verdict: String(outcome.verdict),
          effect: String(outcome.effect ?? ''),
          effect_change: outcome.effect_change as number | string,
          prediction_error: outcome.prediction_error as number | string,
          data_points: Number(outcome.data_points),
          notes: String(outcome.notes ?? ''),
        }
      : null,
    learnings: learningChanges(before, await tab(rt, 'Learnings')),
  };
}
