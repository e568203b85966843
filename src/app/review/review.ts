// The daily review: every decision whose review date has come is measured, closed, and turned into memory.
// The work is planned in src/core/memory/review-plan.ts; this file reads the sheet, asks the models and writes the plan.
import { rowsOf } from '../../../sheets-schema/index.js';
import type { Memory } from '../../store/memory.js';
import { dayCell, dayOf } from '../../store/records.js';
import { props } from '../../store/services.js';
import type { EngineEnv } from '../../core/engine.js';
import { RequeueError } from '../../core/errors.js';
import { emptyFlipStats } from '../../core/memory/first-answers.js';
import { milestoneRuleOf, type MilestoneRule } from '../../core/memory/inbox-reports.js';
import type { LearningRules } from '../../core/memory/memory.js';
import { thresholdsOf, type Thresholds, type Verdict } from '../../core/memory/outcomes.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { parseReflectionHistory, reflectionHistoryValue } from '../../core/memory/reflection-history.js';
import { learningRulesOf, newLearnings, type Learned } from '../../core/memory/review-learnings.js';
import {
  assessReview,
  dueDecisions,
  nextReview,
  planReview,
  type Assessment,
  type DueDecision,
  type ReviewMemory,
  type ReviewProperties,
} from '../../core/memory/review-plan.js';
import { askAfterOutcome, type Spent } from '../../core/memory/review-reflections.js';
import type { Council, Loaded } from '../sheet-council.js';
import { nudge } from '../discussions/requests.js';
import { triggerTypes } from '../discussions/trigger-door.js';
import { runRechecks } from './recheck.js';
import { writeOps } from './review-write.js';
import { sendStatusReport } from './status-report.js';
import { emptyTrust, parseTrust, trustValue } from '../../core/memory/trust.js';
import { suggestWorldOf } from '../../core/memory/prompt-suggestion.js';
import type { Outcome } from '../queue/work-queue.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';

export interface ReviewReport {
  evaluated: { decision_id: string; discussion_id: string; verdict: Verdict; error: number | null; points: number }[];
  reembed: boolean;
  // Due decisions this run did not get to (its time budget ran out, a model asked for a wait past it, a row moved
  // under it): still due, and the next run plans them again from the sheet.
  left: number;
  // When the rest may go on: a model's back-off that outlasts this run (epoch ms), else absent.
  retry_at?: number;
}

const orderCols = rowsOf('orders');
const outcomeCols = rowsOf('outcomes');
const logCols = rowsOf('discussions');

// A decision ready to commit: measured, its learnings chosen and embedded, its agents' reflections written, all
// before the lock; with what those calls cost, for the day's budget.
interface Prepared {
  a: Assessment;
  loaded: Loaded;
  learned: Learned & { embeddings: string[] };
  spent: Spent;
}

// The daily trigger's review: run as the queue's review.run item, enqueued and claimed by this execution, so that what
// it does not finish — its budget spent, a model's back-off, the execution killed (once the item's lease has run
// out) — the ticks go on with, through the task of the same name (src/app/tasks/review-run.ts).
export function runDailyReview(council: Council, deadline: number): ReviewReport {
  const mem = council.recall.memory();
  let reembed = false;
  // A changed embedding model or size: old vectors are never compared with new ones, they are embedded again; so is a
  // cell the decoder refuses, which shows only when decoded: the matrix is decoded here once a day.
  if (mem.stale(true).length) {
    council.queue.enqueue(TASK_KINDS.reembed, {}, 'LOW', TASK_KINDS.reembed.type, 'kaigi');
    reembed = true;
  }
  // The weekly status report goes out whether or not anything is due today.
  sendStatusReport(council);
  // An inconclusive decision whose late KPI has come is looked at once more; no model is asked, so it takes no turn.
  const rechecked = runRechecks(council);
  const due = dueNow(council);
  if (!due.length) return { evaluated: rechecked, reembed, left: 0 };
  const item = council.queue.claim(
    council.queue.enqueue(TASK_KINDS.review, {}, 'LOW', TASK_KINDS.review.type, 'kaigi').id,
  );
  // Another execution holds the review (yesterday's rest, still going): it goes on with what is due.
  if (!item) return { evaluated: rechecked, reembed, left: due.length };
  let report: ReviewReport;
  try {
    const run = runReview(council, due, deadline);
    report = { ...run, evaluated: rechecked.concat(run.evaluated), reembed };
  } catch (e) {
    // Failed, not left to its lease: the queue retries it with back-off, and a person hears if it dies.
    council.queue.finish(item, { kind: 'failed', error: (e as Error).message || String(e) });
    throw e;
  }
  // A model's back-off past this run's deadline is waited out; a wait that only ended this run is not (a tick is
  // another execution, with a budget of its own), and the rest starts at once, at a nudged tick.
  const waits = report.retry_at !== undefined && report.retry_at > deadline;
  council.queue.finish(item, restOf(waits ? report : { ...report, retry_at: undefined }));
  if (report.left && !waits) nudge(council);
  return report;
}

// How a run's queue item ends: done, or back in the queue for what is left, not before `after` nor a model's back-off.
export function restOf(r: ReviewReport, after = 0): Outcome {
  if (!r.left) return { kind: 'done' };
  return { kind: 'requeue', progressed: r.evaluated.length > 0, notBefore: Math.max(after, r.retry_at ?? 0) };
}

// The decisions due today, in the Orders tab's order: the Orders tab and one column of Outcomes are read.
export function dueNow(council: Council): DueDecision[] {
  return dueDecisions(
    council.store.readTab('orders').map((r, i) => {
      const o = orderCols.read(r);
      return {
        row: i + 2,
        order_id: String(o.order_id),
        decision_id: String(o.decision_id),
        discussion_id: String(o.discussion_id),
        status: String(o.status),
        review_day: dayCell(o.review_date, council.tz),
      };
    }),
    dayOf(council.now(), council.tz),
    evaluatedDecisions(council),
  );
}

// Reviews `due` one decision at a time until all are done or `deadline` (the tick budget) comes. Each is committed
// as soon as it is prepared, so a run that is killed loses at most the one in hand, and a decision with its Outcomes
// row is never due again. The budget or a model's back-off ends the run early with `left` > 0; the next run plans
// what is still due again from the sheet rather than carrying a list over that could go stale.
export function runReview(council: Council, due: readonly DueDecision[], deadline: number): ReviewReport {
  const env = council.env();
  const mem = council.recall.memory();
  const report: ReviewReport = { evaluated: [], reembed: false, left: 0 };
  // The learning calls check this deadline before each round and give the rest back instead of running past it.
  council.models.deadline = deadline;
  const thresholds = thresholdsOf(env.settings);
  const rules = learningRulesOf(env.settings);
  let taken = 0;
  let slowestMs = 0;
  for (;;) {
    const d = nextReview(due, taken, { now: council.now(), deadline, slowestMs });
    if (!d) break;
    const started = council.now();
    // Outside the lock: load and measure the decision, ask its model for learnings, embed them.
    let p: Prepared | null;
    try {
      p = prepare(council, env, mem, d, thresholds);
    } catch (e) {
      // A wait that would outlast this execution: the decision stays due, the run ends cleanly.
      if (!(e instanceof RequeueError)) throw e;
      report.retry_at = e.retryAt;
      break;
    }
    taken++;
    const done = p ? commitReview(council, mem, p, rules, env.lang, milestoneRuleOf(env.settings)) : null;
    if (done === 'moved') report.left++;
    else if (done) report.evaluated.push(done);
    slowestMs = Math.max(slowestMs, council.now() - started);
  }
  report.left += due.length - taken;
  return report;
}

function prepare(
  council: Council,
  env: EngineEnv,
  mem: Memory,
  d: DueDecision,
  thresholds: Thresholds,
): Prepared | null {
  const loaded = council.discussions.load(d.discussion_id);
  const a = assessReview(d, loaded.d, loaded.row, env.kpi, thresholds);
  if (!a) return null;
  // The agents' records as the last commit left them: only what their prompts show, the plan reads them again.
  const asked = askAfterOutcome(a, env, props.json(PROPERTY_KEYS.agentStats, {}));
  // What a person reads names the member and the trigger as they know them; the stored ids stay in their columns.
  const trigger = loaded.d.trigger;
  const learned = newLearnings(a, env.lang, asked.learning, asked.reflections, {
    member: env.members.find((m) => m.member_id === trigger.target_user_id)?.name,
    trigger: triggerTypes(council).find((t) => t.type === trigger.type)?.[env.lang === 'ja' ? 'label_ja' : 'label_en'],
  });
  return {
    a,
    loaded,
    learned: { ...learned, embeddings: mem.embed(learned.items.map((x) => x.content)) },
    spent: asked.spent,
  };
}

// One decision's commit, under the lock. A commit has one commit point and each decision's log row must be one: a
// second log row written before the point would survive a rollback (closed, its outcome gone), one written after it
// could be lost after the commit counted as done. Returns the decision's line of the report; null when there is
// nothing to write (another execution reviewed it first, or the discussion was reopened); 'moved' when its rows
// changed since they were read (the next run reads them again).
function commitReview(
  council: Council,
  mem: Memory,
  p: Prepared,
  rules: LearningRules,
  lang: 'ja' | 'en',
  milestone: MilestoneRule,
): ReviewReport['evaluated'][number] | 'moved' | null {
  const store = council.store;
  return store.withLock((state) => {
    // The calls were made whatever the commit finds: the day's budget counts them first.
    council.models.addSpend(p.spent);
    // What other executions may have changed is read under the lock: the log row, the orders' status (a report may
    // have come since), the Learnings rows and the properties.
    const raw = store.readRows('discussions', p.a.log_row, 1)[0];
    const log = logCols.read(raw);
    if (String(log.discussion_id) !== p.a.discussion_id) return 'moved';
    if (String(log.status) !== 'DECIDED') return null;
    if (log.messages_json !== logCols.read(p.loaded.raw).messages_json) return 'moved';
    for (const o of p.a.orders) {
      const row = orderCols.read(store.readRows('orders', o.row, 1)[0]);
      if (String(row.order_id) !== o.order_id) return 'moved';
      o.status = String(row.status);
    }
    const learningRows = mem.rowsNow();
    const memory: ReviewMemory = { learnings: mem.rows(), properties: readProperties() };
    const now = council.now();
    const c = store.begin(state);
    const planned = planReview(p.a, p.learned, memory, {
      rules,
      lang,
      now,
      embeddingModel: mem.tag,
      next: (name) => c.nextSeq(name),
      milestone,
      suggest: suggestWorldOf(council.prompts(), lang, council.settings().number('learning.prompt_suggest_drop')),
    });
    writeOps(c, planned.commit.ops, now, (tab, row) => {
      if (tab === 'discussions') return raw;
      if (tab === 'learnings') return learningRows[row - 2];
      return store.readRows(tab, row, 1)[0];
    });
    // After the commit point: the properties follow the rows they summarise.
    props.set(propertyValues(planned.commit.properties));
    mem.reparse();
    const { ev } = p.a;
    return {
      decision_id: p.a.decision_id,
      discussion_id: p.a.discussion_id,
      verdict: ev.verdict,
      error: ev.error,
      points: ev.points,
    };
  });
}

// Decisions with an Outcomes row: evaluated once, whatever their orders say since. One column is read.
function evaluatedDecisions(council: Council): string[] {
  const sheet = council.store.sheet('outcomes');
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return sheet
    .getRange(2, outcomeCols.index('decision_id') + 1, last - 1, 1)
    .getValues()
    .map((r) => String(r[0]));
}

function readProperties(): ReviewProperties {
  return {
    agentStats: props.json(PROPERTY_KEYS.agentStats, {}),
    reflectionHistory: parseReflectionHistory(
      props.get(PROPERTY_KEYS.reflectionHistory),
      PROPERTY_KEYS.reflectionHistory,
    ),
    nextActions: props.json(PROPERTY_KEYS.nextActions, {}),
    flipStats: props.json(PROPERTY_KEYS.flipStats, emptyFlipStats()),
    trust: parseTrust(props.get(PROPERTY_KEYS.trust), PROPERTY_KEYS.trust),
  };
}

function propertyValues(p: ReviewProperties): Record<string, string> {
  return {
    [PROPERTY_KEYS.nextActions]: JSON.stringify(p.nextActions),
    [PROPERTY_KEYS.agentStats]: JSON.stringify(p.agentStats),
    [PROPERTY_KEYS.reflectionHistory]: reflectionHistoryValue(p.reflectionHistory),
    [PROPERTY_KEYS.flipStats]: JSON.stringify(p.flipStats ?? emptyFlipStats()),
    [PROPERTY_KEYS.trust]: trustValue(p.trust ?? emptyTrust(), PROPERTY_KEYS.trust),
  };
}
