// The daily review: every decision whose review date has come is measured, closed, and turned into memory.
import { props } from '../adapters/gas/services.js';
import { dayOf as dayOfId } from '../core/ids.js';
import {
  applyVerdict,
  extractLearnings,
  orderOf,
  reflect,
  shouldNotify,
  type CaseContext,
  type LearningRules,
} from '../core/memory.js';
import type { ContentOf } from '../core/messages.js';
import { evaluate, type Verdict } from '../core/outcomes.js';
import { transition } from '../core/state-machine.js';
import { learningRequest } from '../core/engine.js';
import { validationErrors } from '../core/providers/http.js';
import type { LearningContent } from '../core/messages.js';
import type { InboxItem } from '../core/types.js';
import { caseOf, learningRow, lastAppliedOf } from '../adapters/gas/memory.js';
import { dayCell, dayOf, inboxRow, logRow } from '../adapters/gas/records.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import type { Council } from './council.js';

export interface ReviewReport {
  evaluated: { decision_id: string; discussion_id: string; verdict: Verdict; error: number; points: number }[];
  reembed: boolean;
}

const HISTORY_KEY = PROPERTY_KEYS.reflectionHistory;

function rules(council: Council): LearningRules {
  const s = council.settings();
  return {
    initial: s.number('learning.initial_confidence'),
    confirmStep: s.number('learning.confirm_step'),
    rejectStep: s.number('learning.reject_step'),
    deactivateBelow: s.number('learning.deactivate_below'),
    promoteAfter: s.number('learning.promote_after_successes'),
  };
}

export function runReview(council: Council): ReviewReport {
  const store = council.store;
  const s = council.settings();
  const today = dayOf(council.now(), council.tz);
  const open = ['PENDING', 'ACKNOWLEDGED', 'IN_PROGRESS'];
  const due: Record<string, { discussion: string; rows: number[] }> = {};
  store.readTab('orders').forEach((r, i) => {
    if (open.indexOf(String(r[5])) < 0 || dayCell(r[6], council.tz) > today) return;
    const d = (due[String(r[1])] ??= { discussion: String(r[2]), rows: [] });
    d.rows.push(i + 2);
  });
  const report: ReviewReport = { evaluated: [], reembed: false };
  const env = council.env();
  // A changed embedding model or size: old vectors are never compared with new ones, they are embedded again.
  if (council.recall.memory().stale().length) {
    council.queue.enqueue('memory.reembed', {}, 'LOW', 'memory.reembed', 'kaigi');
    report.reembed = true;
  }
  for (const decision of Object.keys(due)) {
    const { discussion, rows } = due[decision];
    const l = council.loadDiscussion(discussion);
    const d = l.d;
    const order = orderOf(d);
    if (!order || order.decision_id !== decision || d.status !== 'DECIDED') continue;
    const ev = evaluate(
      d.trigger.target_user_id,
      order.monitoring.success_criteria,
      dayOfId(decision),
      order.monitoring.review_date,
      env.kpi,
      {
        confirmMaxError: s.number('outcome.confirm_max_error'),
        rejectMinError: s.number('outcome.reject_min_error'),
        minDataPoints: s.number('outcome.min_data_points'),
      },
    );
    const now = council.now();
    const lang = env.lang;
    const reflections = reflect(d, ev.verdict, lang);
    const history = props.json<Record<string, { self_score: number; to_improve: string }[]>>(HISTORY_KEY, {});
    const stats = council.recall.agentStats();
    // A model provider fills the learning schema; the rule-based extraction is the fallback and the offline default.
    let extracted = extractLearnings(d, ev.verdict, lang);
    let source = 'rules';
    const req =
      ev.verdict === 'inconclusive'
        ? null
        : learningRequest(d, env, { verdict: ev.verdict, error: ev.error, measured: ev.measured });
    if (req) {
      const [res] = env.providerFor(req.agent).respond([req]);
      if (res.ok && !validationErrors(req, res.content)) {
        extracted = (res.content as LearningContent).learnings.map((x) => ({
          ...x,
          scope: x.scope,
          agent_id: x.scope === 'shared' ? '' : x.agent_id,
        }));
        source = res.model;
      }
    }
    store.withLock((state) => {
      const c = store.begin(state);
      const mem = council.recall.memory();
      mem.forget();
      // Outcomes row and column M.
      const outcomeId = `OUT-${c.nextSeq('outcome')}`;
      const oRow = c.appendOne(
        'outcomes',
        [
          outcomeId,
          decision,
          discussion,
          new Date(now),
          JSON.stringify(order.monitoring),
          JSON.stringify(ev.measured.map((m) => ({ metric: m.metric, baseline: m.baseline }))),
          JSON.stringify(
            ev.measured.map((m) => ({ metric: m.metric, predicted: m.predicted, actual: m.actual, error: m.error })),
          ),
          ev.error,
          ev.verdict,
          ev.points,
          '',
        ],
        `Outcomes:${outcomeId}`,
      );
      c.audit({
        actor: 'kaigi',
        event: 'outcome',
        tab: 'Outcomes',
        row_key: outcomeId,
        payload: { row: oRow.row, verdict: ev.verdict, error: ev.error, sha256: c.digest(oRow.values) },
      });
      for (const row of rows) {
        const v = store.readRows('orders', row, 1)[0].slice();
        v[5] = 'DONE';
        v[8] = new Date(now);
        // After the commit point: a crash before it leaves the order due, so the review runs again.
        c.updateAfter('orders', row, v);
        c.audit({
          actor: 'kaigi',
          event: 'order_done',
          tab: 'Orders',
          row_key: String(v[0]),
          payload: { row, sha256: c.digest(v) },
        });
      }
      // Learnings applied in the decision move with the verdict; the case records it.
      const applied = new Set<string>();
      for (const m of d.messages) for (const x of m.metadata.learnings ?? []) applied.add(x);
      const r = rules(council);
      for (const lrn of mem.rows()) {
        const isCase = lrn.scope === 'case' && caseOf(lrn).decision_id === decision;
        if (!applied.has(lrn.learning_id) && !isCase) continue;
        const next = isCase
          ? { ...lrn, context: JSON.stringify({ ...caseOf(lrn), verdict: ev.verdict } as CaseContext) }
          : applyVerdict(lrn, ev.verdict, r);
        const values = learningRow(next, 0, null);
        const current = store.readRows('learnings', lrn.row, 1)[0];
        values[13] = current[13];
        values[14] = lastAppliedOf(current) ? current[14] : '';
        // After the commit point too, so a replay never moves a confidence twice.
        c.updateAfter('learnings', lrn.row, values);
        c.audit({
          actor: 'kaigi',
          event: isCase ? 'case_verdict' : 'learning_updated',
          tab: 'Learnings',
          row_key: lrn.learning_id,
          payload: { verdict: ev.verdict, confidence: next.confidence, active: next.is_active, scope: next.scope },
        });
      }
      // New learnings, embedded as they are written.
      const fresh = extracted;
      const cells = mem.embed(fresh.map((f) => f.content));
      fresh.forEach((f, i) => {
        const id = `LRN-${c.nextSeq('learning')}`;
        c.appendOne(
          'learnings',
          learningRow(
            {
              learning_id: id,
              scope: f.scope,
              agent_id: f.agent_id,
              category: f.category,
              content: f.content,
              context: f.context,
              confidence: r.initial,
              times_applied: 0,
              times_successful: 0,
              is_active: true,
              source: `${outcomeId} ${source}`,
              embedding: cells[i],
              embedding_model: mem.tag,
            },
            now,
            null,
          ),
          `Learnings:${id}`,
        );
        c.audit({
          actor: 'kaigi',
          event: 'learning',
          tab: 'Learnings',
          row_key: id,
          payload: { scope: f.scope, agent_id: f.agent_id, verdict: ev.verdict },
        });
      });
      // Reflections, and the agent → human messages seed 003 §12.5 calls for.
      for (const ref of reflections) {
        const id = `REF-${c.nextSeq('reflection')}`;
        c.append('reflections', [
          [
            id,
            ref.agent_id,
            discussion,
            ref.self_score,
            ref.reasoning,
            ref.went_well,
            ref.to_improve,
            JSON.stringify(ref.next_actions),
            new Date(now),
          ],
        ]);
        c.audit({
          actor: ref.agent_id,
          event: 'reflection',
          tab: 'Reflections',
          row_key: id,
          payload: { self_score: ref.self_score },
        });
        const h = (history[ref.agent_id] ?? [])
          .concat([{ self_score: ref.self_score, to_improve: ref.to_improve }])
          .slice(-5);
        history[ref.agent_id] = h;
        const notify = shouldNotify(h);
        if (notify) {
          const inbox: InboxItem = {
            inbox_id: `INB-${c.nextSeq('inbox')}`,
            from_agent: ref.agent_id,
            type: notify.type,
            priority: notify.type === 'struggle' ? 'high' : 'normal',
            title: `${ref.agent_id}: ${notify.type}`,
            body: notify.reason,
            discussion_id: discussion,
          };
          c.append('inbox', [inboxRow(inbox, now)]);
          c.audit({
            actor: ref.agent_id,
            event: 'inbox',
            tab: 'Inbox',
            row_key: inbox.inbox_id,
            payload: { title: inbox.title },
          });
        }
      }
      // Historical accuracy and calibration (SPEC §4.4, §13): stated confidence scored against the verdict.
      if (ev.verdict !== 'inconclusive') {
        const chosen = order.actions.map((a) => a.action_type);
        for (const m of d.messages.filter(
          (x) => x.message_type === 'SPECIALIST_OPINION' && !x.metadata.default_opinion,
        )) {
          const c2 = m.content as ContentOf<'SPECIALIST_OPINION'>;
          const right = chosen.indexOf(c2.recommendation.action_type) >= 0 === (ev.verdict === 'confirmed');
          const st = (stats[m.speaker] ??= { hits: 0, misses: 0, brier: 0, n: 0 });
          if (right) st.hits++;
          else st.misses++;
          st.brier += (c2.confidence - (right ? 1 : 0)) ** 2;
          st.n++;
        }
      }
      // The discussion closes with its verdict in column M.
      const closed = {
        ...d,
        status: transition('DECIDED', 'CLOSED'),
        closed_at: new Date(now).toISOString(),
        outcome_evaluated: ev.verdict,
        execution_status: 'DONE',
      };
      const values = logRow(closed, String(l.raw[9]));
      values.forEach((v, i) => {
        if (v === l.resolved[i] && l.raw[i] !== l.resolved[i]) values[i] = l.raw[i];
      });
      c.audit({
        actor: 'kaigi',
        event: 'status',
        tab: 'Discussion Log',
        row_key: discussion,
        payload: { from: 'DECIDED', to: 'CLOSED' },
      });
      const placed = c.setMarker('discussions', l.row, values, `Discussion Log:${discussion}`);
      c.audit({
        actor: 'kaigi',
        event: 'log_row_updated',
        tab: 'Discussion Log',
        row_key: discussion,
        payload: { row: placed.row, status: 'CLOSED', sha256: c.digest(placed.values) },
      });
      c.run(new Date(now).toISOString());
      const next = props.json<Record<string, string[]>>(PROPERTY_KEYS.nextActions, {});
      for (const ref of reflections) next[ref.agent_id] = (next[ref.agent_id] ?? []).concat(ref.next_actions).slice(-3);
      props.set({
        [PROPERTY_KEYS.nextActions]: JSON.stringify(next),
        [PROPERTY_KEYS.agentStats]: JSON.stringify(stats),
        [HISTORY_KEY]: JSON.stringify(history),
      });
      mem.forget();
    });
    report.evaluated.push({
      decision_id: decision,
      discussion_id: discussion,
      verdict: ev.verdict,
      error: ev.error,
      points: ev.points,
    });
  }
  return report;
}
