// Objections to a decision and a person's resolution of an escalated discussion.
import { Builder, decideStep, reanalyse, recordOrder, type EngineEnv, type StepResult } from '../engine.js';
import { validateContent, type ContentOf } from '../discussion/messages.js';
import type { Discussion, ObjectionRow, Priority } from '../types.js';
import { label, mentions } from '../labels.js';

export interface ObjectionInput {
  discussion_id: string;
  objection_id: string;
  source: 'agent' | 'human' | 'api';
  objector: string;
  reason: string;
  alternative: string;
  evidence: string[];
  urgency: Priority;
  kind?: 'risk' | 'ethics' | 'legal' | 'data_error' | 'general';
}

export interface ResolutionInput {
  discussion_id: string;
  action: 'approve' | 'return' | 'reject';
  guidance?: string;
  order?: Record<string, unknown>;
  by: string;
}

interface Judgement {
  accepted: boolean;
  reanalyse: boolean;
  why: string;
}

// Governance objections always reopen; the analyst's data errors reopen after re-analysis; the decider judges the rest.
// Only an objection the engine filed as an agent (source `agent`) is judged by that agent's rule: a person or an API
// client whose name happens to be an agent's id is judged like anyone else.
export function judge(o: ObjectionInput, env: EngineEnv): Judgement {
  const t = (ja: string, en: string) => (env.lang === 'ja' ? ja : en);
  const asAgent = o.source === 'agent';
  const agent = asAgent ? env.agents.find((a) => a.agent_id === o.objector) : undefined;
  if (agent && agent.group === 'governance')
    return {
      accepted: true,
      reanalyse: false,
      why: t('ガバナンスからの異議は必ず再議論', 'Objections from governance always reopen the decision'),
    };
  if (asAgent && o.objector === 'analyst' && o.kind === 'data_error')
    return {
      accepted: true,
      reanalyse: true,
      why: t('データの誤りのため再分析して再議論', 'A data error: re-analyse, then reopen'),
    };
  const allow = env.settings.get('actions.allow_list');
  const named = allow.filter((a) => mentions(o.alternative, 'action_type', a));
  if (o.urgency === 'CRITICAL' || o.urgency === 'HIGH')
    return {
      accepted: true,
      reanalyse: false,
      why: t(
        `緊急度「${label('priority', o.urgency, 'ja')}」のため受理`,
        `Accepted: urgency ${label('priority', o.urgency, 'en')}`,
      ),
    };
  if (named.length)
    return {
      accepted: true,
      reanalyse: false,
      why: t(
        `代案（${named.map((a) => label('action_type', a, 'ja')).join('、')}）が許可された施策のため受理`,
        `Accepted: the alternative (${named.map((a) => label('action_type', a, 'en')).join(', ')}) is an allowed action`,
      ),
    };
  if (o.evidence.length >= 2)
    return {
      accepted: true,
      reanalyse: false,
      why: t('根拠が複数示されたため受理', 'Accepted: several pieces of evidence'),
    };
  return {
    accepted: false,
    reanalyse: false,
    why: t(
      '根拠が不足し、代案も許可された施策を示していないため却下',
      'Rejected: too little evidence, and the alternative names no allowed action',
    ),
  };
}

// The Objections row as it is filed: OPEN until the decider rules on it. `decisionId` is the decision objected to,
// empty when it is filed before the discussion is read (it is named when the objection is judged).
export function filedObjection(o: ObjectionInput, decisionId: string, nowIso: string): ObjectionRow {
  return {
    objection_id: o.objection_id,
    discussion_id: o.discussion_id,
    decision_id: decisionId,
    source: o.source,
    objector: o.objector,
    reason: o.reason,
    alternative: o.alternative,
    evidence: o.evidence.join('\n'),
    urgency: o.urgency,
    status: 'OPEN',
    resolution: '',
    resolved_by: '',
    created_at: nowIso,
    resolved_at: '',
  };
}

// What the objection's resolution says once the decider has decided again: a revised order, the original kept, or an
// escalation to a person.
function resolutionOf(out: StepResult, why: string, decisionId: string): string {
  const order = out.messages.find((m) => m.message_type === 'EXECUTION_ORDER');
  const kept = out.messages.find(
    (m) => m.message_type === 'ACKNOWLEDGEMENT' && (m.content as { status: string }).status === 'ORIGINAL_ORDER_KEPT',
  );
  if (order)
    return `${why}; revised order ${(order.content as ContentOf<'EXECUTION_ORDER'>).decision_id} replaces ${decisionId}`;
  return kept ? `${why}; ${(kept.content as { note: string }).note}` : `${why}; escalated to a person`;
}

// E005: processing the objection failed, so the original order runs provisionally and the objection is flagged for
// review.
function failedObjection(
  d: Discussion,
  o: ObjectionInput,
  env: EngineEnv,
  filed: { content: Record<string, unknown>; key: string; row: ObjectionRow; nowIso: string },
  e: unknown,
): { result: StepResult; objection: ObjectionRow } {
  const f = new Builder(d, env);
  f.add(5, o.objector, 'OBJECTION', filed.content, { step_key: filed.key });
  const text =
    env.lang === 'ja'
      ? `異議の処理に失敗したため原案で仮実行し、後日レビューします：${(e as Error).message}`
      : `Objection processing failed; the original order runs provisionally and is flagged for review: ${(e as Error).message}`;
  f.system(5, 'E005', text.slice(0, 2000), 5);
  f.out.executionStatus = 'PROVISIONAL';
  f.note(`E005 review needed: ${o.objection_id}`);
  f.out.inbox.push({
    from_agent: 'decider',
    type: 'question',
    priority: 'high',
    title: `E005 ${d.discussion_id}`,
    body: text.slice(0, 2000),
    discussion_id: d.discussion_id,
  });
  return {
    result: f.out,
    objection: {
      ...filed.row,
      // The objection was not judged and the order stands as it was: rejected, the resolution says why.
      status: 'REJECTED',
      resolution: text.slice(0, 2000),
      resolved_by: 'system',
      resolved_at: filed.nowIso,
    },
  };
}

// `inExecution` says why the objection comes too late when an order of the discussion is IN_PROGRESS or DONE
// (objections apply before execution); it is then recorded as rejected and nothing is re-decided.
export function runObjection(
  d: Discussion,
  o: ObjectionInput,
  env: EngineEnv,
  nowIso: string,
  inExecution = '',
): { result: StepResult; objection: ObjectionRow } {
  const row = filedObjection(
    { ...o, discussion_id: d.discussion_id },
    String(d.final_decision?.decision_id ?? ''),
    nowIso,
  );
  const content = {
    reason: o.reason,
    alternative: o.alternative,
    target_decision: row.decision_id,
    evidence: o.evidence,
    urgency: o.urgency,
  };
  validateContent('OBJECTION', content, env.settings.get('actions.allow_list'));
  const key = (who: string) => `${d.discussion_id}/5/${who}/objection-${o.objection_id}`;
  const rejected = (result: StepResult, why: string): { result: StepResult; objection: ObjectionRow } => ({
    result,
    objection: { ...row, status: 'REJECTED', resolution: why, resolved_by: 'decider', resolved_at: nowIso },
  });
  const b = new Builder(d, env);
  try {
    b.add(5, o.objector, 'OBJECTION', content, { step_key: key(o.objector) });
    if (d.status !== 'DECIDED' || !d.final_decision || inExecution) {
      const why = inExecution
        ? inExecution
        : env.lang === 'ja'
          ? `異議の対象となる決定がありません（状態 ${d.status}）`
          : `There is no decision to object to (status ${d.status})`;
      b.add(5, 'decider', 'ACKNOWLEDGEMENT', { status: 'OBJECTION_REJECTED', note: why }, { step_key: key('decider') });
      return rejected(b.out, why);
    }
    const j = judge(o, env);
    b.add(
      5,
      'decider',
      'ACKNOWLEDGEMENT',
      { status: j.accepted ? 'OBJECTION_ACCEPTED' : 'OBJECTION_REJECTED', note: j.why },
      { step_key: key('decider') },
    );
    if (!j.accepted) return rejected(b.out, j.why);
    b.to('VOTING');
    const seen = (): Discussion => ({ ...d, messages: d.messages.concat(b.out.messages) });
    if (j.reanalyse) reanalyse(seen(), env, b);
    decideStep(seen(), env, b, {
      objection: { reason: o.reason, alternative: o.alternative, evidence: o.evidence, objector: o.objector },
    });
    return {
      result: b.out,
      objection: {
        ...row,
        status: 'ACCEPTED',
        resolution: resolutionOf(b.out, j.why, row.decision_id),
        resolved_by: 'decider',
        resolved_at: nowIso,
      },
    };
  } catch (e) {
    return failedObjection(d, o, env, { content, key: key(o.objector), row, nowIso }, e);
  }
}

export function runResolution(d: Discussion, r: ResolutionInput, env: EngineEnv): StepResult {
  if (d.status !== 'ESCALATED')
    throw new Error(`${d.discussion_id} is ${d.status}; only an ESCALATED discussion can be resolved`);
  const b = new Builder(d, env);
  const key = `${d.discussion_id}/6/human/resolution-${d.messages.length + 1}`;
  const status = r.action === 'approve' ? 'APPROVED' : r.action === 'return' ? 'RETURNED_TO_PHASE_5' : 'REJECTED';
  b.add(
    r.action === 'reject' ? 6 : 5,
    'human',
    'ACKNOWLEDGEMENT',
    { status, note: `by ${r.by}`, ...(r.guidance ? { guidance: r.guidance } : {}) },
    { step_key: key, note: r.by },
  );
  const seen = (): Discussion => ({ ...d, messages: d.messages.concat(b.out.messages) });
  if (r.action === 'reject') {
    b.to('CLOSED');
    b.out.closedAt = env.isoNow();
    b.out.executionStatus = 'CANCELLED';
    return b.out;
  }
  if (r.action === 'approve' && r.order) {
    const order = { ...r.order, decision_id: env.nextDecisionId() };
    const msg = b.add(6, 'human', 'EXECUTION_ORDER', order, { step_key: `${key}/order` });
    recordOrder(d, b, msg);
    return b.out;
  }
  decideStep(seen(), env, b, { guidance: r.guidance });
  return b.out;
}
