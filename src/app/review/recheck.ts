// The daily review's second look at an inconclusive decision whose late KPI has come: measured once more, under lock.
import { rowsOf } from '../../../sheets-schema/index.js';
import { dayCell, dayOf } from '../../store/records.js';
import { thresholdsOf } from '../../core/memory/outcomes.js';
import { dueRechecks, recheckReady, type OutcomeLine } from '../../core/memory/recheck.js';
import { planRecheck } from '../../core/memory/recheck-plan.js';
import { learningRulesOf } from '../../core/memory/review-learnings.js';
import { assessReview, type Assessment } from '../../core/memory/review-plan.js';
import type { Council, Loaded } from '../sheet-council.js';
import { writeOps } from './review-write.js';

const orderCols = rowsOf('orders');
const outcomeCols = rowsOf('outcomes');
const logCols = rowsOf('discussions');

// A recheck measures a decision its first review closed (or, had nothing closed it, one still DECIDED).
const MEASURABLE = ['DECIDED', 'CLOSED'];

type Line = OutcomeLine & { discussion_id: string };

export interface Rechecked {
  decision_id: string;
  discussion_id: string;
  verdict: Assessment['ev']['verdict'];
  error: number | null;
  points: number;
}

// Each inconclusive decision due a recheck today whose window's KPI is all there now gets its second Outcomes row.
// One whose KPI is still missing waits for a later day within outcome.recheck_days; none is rechecked twice.
export function runRechecks(council: Council): Rechecked[] {
  const env = council.env();
  const due = dueRechecks(
    outcomeLines(council),
    dayOf(council.now(), council.tz),
    env.settings.number('outcome.recheck_days'),
  );
  if (!due.length) return [];
  const orders = council.store.readTab('orders').map((r, i) => ({ row: i + 2, o: orderCols.read(r) }));
  const thresholds = thresholdsOf(env.settings);
  const out: Rechecked[] = [];
  for (const first of due as Line[]) {
    const mine = orders.filter((x) => String(x.o.decision_id) === first.decision_id && x.o.status !== 'CANCELLED');
    if (!mine.length) continue;
    const loaded = council.discussions.load(first.discussion_id);
    const a = assessReview(
      {
        decision_id: first.decision_id,
        discussion_id: first.discussion_id,
        orders: mine.map((x) => ({ row: x.row, order_id: String(x.o.order_id), status: String(x.o.status) })),
      },
      loaded.d,
      loaded.row,
      env.kpi,
      thresholds,
      MEASURABLE,
    );
    if (!a || !recheckReady(a.ev)) continue;
    const done = commitRecheck(council, a, first, loaded, env.lang);
    if (done) out.push(done);
  }
  return out;
}

// The recheck's commit, under the lock: nothing is written when the decision has a second Outcomes row by now
// (another execution rechecked it) or its discussion row moved since it was read.
function commitRecheck(
  council: Council,
  a: Assessment,
  first: Line,
  loaded: Loaded,
  lang: 'ja' | 'en',
): Rechecked | null {
  const store = council.store;
  const mem = council.recall.memory();
  const rules = learningRulesOf(council.env().settings);
  return store.withLock((state) => {
    const raw = store.readRows('discussions', a.log_row, 1)[0];
    const log = logCols.read(raw);
    if (String(log.discussion_id) !== a.discussion_id) return null;
    if (MEASURABLE.indexOf(String(log.status)) < 0) return null;
    if (log.messages_json !== logCols.read(loaded.raw).messages_json) return null;
    // The Outcomes rows as committed now, not this execution's earlier copy: another execution may have rechecked it.
    store.forgetTab('outcomes');
    if (outcomeLines(council).filter((l) => l.decision_id === a.decision_id).length !== 1) return null;
    const learningRows = mem.rowsNow();
    const now = council.now();
    const c = store.begin(state);
    const planned = planRecheck(a, first, mem.rows(), { rules, lang, now, next: (name) => c.nextSeq(name) });
    writeOps(c, planned.ops, now, (tab, row) => {
      if (tab === 'discussions') return raw;
      if (tab === 'learnings') return learningRows[row - 2];
      return store.readRows(tab, row, 1)[0];
    });
    mem.reparse();
    return {
      decision_id: a.decision_id,
      discussion_id: a.discussion_id,
      verdict: a.ev.verdict,
      error: a.ev.error,
      points: a.ev.points,
    };
  });
}

// The Outcomes tab as the recheck reads it.
function outcomeLines(council: Council): Line[] {
  return council.store.readTab('outcomes').map((r) => {
    const o = outcomeCols.read(r);
    return {
      outcome_id: String(o.outcome_id),
      decision_id: String(o.decision_id),
      discussion_id: String(o.discussion_id),
      verdict: String(o.verdict),
      evaluated_day: dayCell(o.evaluated_at, council.tz),
      notes: String(o.notes),
    };
  });
}
