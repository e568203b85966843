// The daily review: every decision whose review date has come is measured, closed, and turned into memory.
// The work is planned in src/core/review-plan.ts; this file reads the sheet, asks the models and writes the plan.
import { rowsOf, type RowMapper, type TabKey } from '../../sheets-schema/index.js';
import { dayCell, dayOf } from '../adapters/gas/records.js';
import { props } from '../adapters/gas/services.js';
import type { Commit, StoreState } from '../adapters/gas/store.js';
import { emptyFlipStats } from '../core/first-answers.js';
import { thresholdsOf, type Verdict } from '../core/outcomes.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { parseReflectionHistory, reflectionHistoryValue } from '../core/reflection-history.js';
import { askForLearnings, learningRulesOf, newLearnings, type Learned } from '../core/review-learnings.js';
import {
  assessReview,
  dueDecisions,
  planReview,
  type Assessment,
  type ReviewCommit,
  type ReviewMemory,
  type ReviewProperties,
} from '../core/review-plan.js';
import type { Council, Loaded } from './council.js';

export interface ReviewReport {
  evaluated: { decision_id: string; discussion_id: string; verdict: Verdict; error: number | null; points: number }[];
  reembed: boolean;
}

const orderCols = rowsOf('orders');
const outcomeCols = rowsOf('outcomes');

// A decision ready to commit: measured, its learnings chosen and embedded, all before the lock.
interface Prepared {
  a: Assessment;
  loaded: Loaded;
  learned: Learned & { embeddings: string[] };
}

export function runReview(council: Council): ReviewReport {
  const store = council.store;
  const env = council.env();
  const today = dayOf(council.now(), council.tz);
  const report: ReviewReport = { evaluated: [], reembed: false };
  const mem = council.recall.memory();
  // A changed embedding model or size: old vectors are never compared with new ones, they are embedded again.
  if (mem.stale().length) {
    council.queue.enqueue('memory.reembed', {}, 'LOW', 'memory.reembed', 'kaigi');
    report.reembed = true;
  }
  const due = dueDecisions(
    store.readTab('orders').map((r, i) => {
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
    today,
    evaluatedDecisions(council),
  );
  // Outside the lock: load and measure each decision, ask its model for learnings, embed them.
  const thresholds = thresholdsOf(env.settings);
  const prepared: Prepared[] = [];
  for (const d of due) {
    const loaded = council.discussions.load(d.discussion_id);
    const a = assessReview(d, loaded.d, loaded.row, env.kpi, thresholds);
    if (!a) continue;
    const learned = newLearnings(a, env.lang, askForLearnings(a, env));
    prepared.push({ a, loaded, learned: { ...learned, embeddings: mem.embed(learned.items.map((x) => x.content)) } });
  }
  if (!prepared.length) return report;
  const rules = learningRulesOf(env.settings);
  store.withLock((state) => {
    // What other executions may have changed is read under the lock: the Learnings rows and the properties.
    mem.forget();
    const learningRows = store.readTab('learnings');
    let memory: ReviewMemory = { learnings: mem.rows(), properties: readProperties() };
    let current = state;
    // Rows this review already rewrote: a later decision's update starts from them, not from the first read.
    const written: Record<string, unknown[]> = {};
    const base = (p: Prepared, tab: TabKey, row: number): unknown[] => {
      const hit = written[`${tab}:${row}`];
      if (hit) return hit;
      if (tab === 'discussions') return p.loaded.raw;
      if (tab === 'learnings') return learningRows[row - 2];
      return store.readRows(tab, row, 1)[0];
    };
    // One commit per decision, all under this one lock. A commit has one commit point and each decision's log row
    // must be one: a second log row written before the point would survive a rollback (closed, its outcome gone),
    // one written after it could be lost after the commit counted as done.
    for (const p of prepared) {
      const now = council.now();
      // The orders' status when the outcome is evaluated: a report may have come since the read above.
      for (const o of p.a.orders) o.status = String(orderCols.read(store.readRows('orders', o.row, 1)[0]).status);
      const c = store.begin(current);
      const planned = planReview(p.a, p.learned, memory, {
        rules,
        lang: env.lang,
        now,
        embeddingModel: mem.tag,
        next: (name) => c.nextSeq(name),
      });
      current = writePlan(c, planned.commit, now, (tab, row) => base(p, tab, row), written);
      // After the commit point: the properties follow the rows they summarise.
      props.set(propertyValues(planned.commit.properties));
      memory = planned.memory;
      report.evaluated.push({
        decision_id: p.a.decision_id,
        discussion_id: p.a.discussion_id,
        verdict: p.a.ev.verdict,
        error: p.a.ev.error,
        points: p.a.ev.points,
      });
    }
    mem.forget();
  });
  return report;
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
  };
}

function propertyValues(p: ReviewProperties): Record<string, string> {
  return {
    [PROPERTY_KEYS.nextActions]: JSON.stringify(p.nextActions),
    [PROPERTY_KEYS.agentStats]: JSON.stringify(p.agentStats),
    [PROPERTY_KEYS.reflectionHistory]: reflectionHistoryValue(p.reflectionHistory),
    [PROPERTY_KEYS.flipStats]: JSON.stringify(p.flipStats ?? emptyFlipStats()),
  };
}

// Writes one planned commit in its order and runs it; an update starts from `base`, the row as stored, and
// what it wrote is kept in `written`.
function writePlan(
  c: Commit,
  plan: ReviewCommit,
  now: number,
  base: (tab: TabKey, row: number) => unknown[],
  written: Record<string, unknown[]>,
): StoreState {
  for (const op of plan.ops) {
    if (op.kind === 'audit') {
      c.audit({ actor: op.actor, event: op.event, tab: op.tab, row_key: op.row_key, payload: op.payload });
      continue;
    }
    const cols = rowsOf(op.tab) as unknown as RowMapper<TabKey>;
    if (op.at === 'append') {
      const values = cols.write(op.values);
      if (op.owner) c.appendOne(op.tab, values, op.owner);
      else c.append(op.tab, [values]);
    } else {
      const values = cols.write(op.values, base(op.tab, op.row));
      written[`${op.tab}:${op.row}`] = values;
      if (op.at === 'after') c.updateAfter(op.tab, op.row, values);
      else c.setMarker(op.tab, op.row, values, op.owner ?? `${op.tab}:${op.row}`);
    }
    // The commit puts the written row's number and digest on the event that names it.
    c.audit(op.audit);
  }
  return c.run(new Date(now).toISOString());
}
