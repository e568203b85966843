// The decision: the decider's deliberation and order, its fallbacks, and the order's record.
import { firstAnswersRecord } from '../memory/first-answers.js';
import { orderFromAnswer, type ContentOf, type Message, type OrderAnswer } from '../discussion/messages.js';
import type { AgentContext } from '../provider.js';
import type { Discussion } from '../types.js';
import { ask, valid, type Answer } from './ask.js';
import type { Builder } from './builder.js';
import { context, inForce, request, visible, weighingOf } from './requests.js';
import { appliedNote, type Directive } from '../discussion/directives.js';
import type { EngineEnv } from './types.js';
import { weightAssignment } from '../discussion/votes.js';

export interface DecideInput {
  objection?: AgentContext['objection'];
  guidance?: string;
}

function sameActions(a: ContentOf<'EXECUTION_ORDER'>, b: Record<string, unknown> | null): boolean {
  if (!b) return false;
  const key = (o: { actions: { action_type: string; intensity: string }[] }) =>
    o.actions
      .map((x) => `${x.action_type}:${x.intensity}`)
      .sort()
      .join(',');
  return key(a) === key(b as ContentOf<'EXECUTION_ORDER'>);
}

export function decideStep(d: Discussion, env: EngineEnv, b: Builder, input: DecideInput): void {
  if (b.out.status !== 'VOTING') b.to('VOTING');
  const decider = env.agents.find((a) => a.group === 'decider' && a.active);
  const decisionId = env.nextDecisionId();
  const v = visible(d, env, () => true);
  const weighing = weighingOf(d, env);
  const ctx = context(d, env, v, { objection: input.objection, guidance: input.guidance, ...weighing });
  if (!decider) throw new Error('no active decider in the council');
  const answer = askDecider(d, env, b, decider, ctx);
  if (!answer) return;
  const c = answer.content as { deliberation: ContentOf<'DECISION_DELIBERATION'>; order: OrderAnswer };
  // The record keeps Kaigi's count: a model is not asked for weights and votes (the decider explains, it does not
  // count). The rule-based decider counts with the same function and adds memory's and people's weight to its votes.
  if (weighing.weighing && !/^rules/.test(answer.response.model)) {
    c.deliberation = {
      ...c.deliberation,
      weight_assignment: weightAssignment(weighing.weighing),
      votes: weighing.weighing.votes,
    };
  }
  // The member's record is Kaigi's data, kept with the deliberation that read it whoever decided.
  if (weighing.memberRecord?.length) c.deliberation = { ...c.deliberation, member_record: weighing.memberRecord };
  // The model gave days ahead; the stored order holds the date they lead to from today in the script's time zone.
  const order = orderFromAnswer(c.order, decisionId, env.today);
  // What a plain vote of the specialists' first answers would have decided, and whether this order overturns it:
  // from the record (this step's messages included), whatever the model says of its votes.
  const first = firstAnswersRecord(
    d.messages.concat(b.out.messages),
    order.actions.map((x) => x.action_type),
  );
  b.answer({ ...answer, content: c.deliberation }, 5, 'DECISION_DELIBERATION', first ? { first_answers: first } : {});
  const previous = d.final_decision;
  if ((input.objection || input.guidance) && previous && sameActions(order, previous)) {
    const why =
      env.lang === 'ja'
        ? `再検討の結果、原案（${String(previous.decision_id)}）を維持：${c.deliberation.rationale}`
        : `After reconsideration the original order (${String(previous.decision_id)}) stands: ${c.deliberation.rationale}`;
    b.add(
      6,
      'decider',
      'ACKNOWLEDGEMENT',
      { status: 'ORIGINAL_ORDER_KEPT', note: why },
      { step_key: `${d.discussion_id}/6/decider/${d.messages.length + 1}` },
    );
    b.to('DECIDED');
    return;
  }
  // One call gave both messages: its tokens, time and cost are counted once, on the deliberation, so a discussion's
  // spend (and the budget read from it) does not pay for the decider twice.
  const once = { ...answer.response, tokensIn: 0, tokensOut: 0, ms: 0 };
  // The directives this decision applied: those whose ban or preference code applied here, and those delivered to
  // an agent that spoke in this cycle; a note of the record names them all, and each is then marked consumed. The
  // order's own metadata names those code applied; one delivered as text is named on its readers' messages.
  const applied = appliedDirectives(d, env, b);
  const byCode = applied.filter((x) => x.ban.length || x.prefer.length).map((x) => x.id);
  const extra = byCode.length ? { directives: byCode } : {};
  const msg = b.answer({ ...answer, content: order, response: once }, 6, 'EXECUTION_ORDER', extra);
  if (applied.length) b.note(appliedNote(applied));
  recordOrder(d, b, msg);
}

function appliedDirectives(d: Discussion, env: EngineEnv, b: Builder): Directive[] {
  let start = 0;
  d.messages.forEach((m, i) => {
    if (m.message_type === 'EXECUTION_ORDER') start = i + 1;
  });
  const delivered = new Set<string>();
  for (const m of d.messages.slice(start).concat(b.out.messages))
    for (const x of m.metadata.directives ?? []) delivered.add(x);
  return inForce(d, env).filter((x) => x.ban.length || x.prefer.length || delivered.has(x.id));
}

// The decider's answer; on E003 a rule-based one for an urgent discussion (level 4), else the discussion is
// escalated to a person and there is no answer.
function askDecider(
  d: Discussion,
  env: EngineEnv,
  b: Builder,
  decider: EngineEnv['agents'][number],
  ctx: AgentContext,
): Answer | null {
  const [a] = ask(env, [request(d, env, decider, 5, 'DECISION', ctx)], false);
  if (!a.errorCode) return a;
  if (d.priority === 'CRITICAL' || d.priority === 'HIGH') {
    // E003 on an urgent discussion: a rule-based decision (level 4).
    const [r] = env.rules.respond([
      { ...request(d, env, decider, 5, 'DECISION', ctx), key: `${d.discussion_id}/5/decider/rules` },
    ]);
    if (r.ok && !valid('DECISION', r.content, ctx.allowList, ctx.metrics))
      return { agent: decider, content: r.content, response: r, level: 4, errorCode: 'E003', note: a.note };
  }
  const text =
    env.lang === 'ja'
      ? `決裁者から応答がないため人間の判断を求めます（${(a.note ?? '').slice(0, 300)}）`
      : `The decider gave no answer; a person must decide (${(a.note ?? '').slice(0, 300)})`;
  b.escalate(5, 'E003', text, { from_agent: 'decider', type: 'struggle', priority: 'high' });
  return null;
}

// Turns a stored EXECUTION_ORDER into the decision, its Orders rows, and the cancellation of an earlier one.
export function recordOrder(d: Discussion, b: Builder, msg: Message): void {
  const order = msg.content as ContentOf<'EXECUTION_ORDER'>;
  const previous = d.final_decision;
  b.to('DECIDED');
  b.out.finalDecision = msg.content;
  b.out.executionStatus = 'PENDING';
  if (previous && previous.decision_id !== order.decision_id) b.out.cancelDecision = String(previous.decision_id);
  // One row per action and executor, so each executor pulls and reports its own part; numbered A1, A2, … in action
  // order, each action's executors in the order named (one executor: An is the nth action, as before).
  const executors = order.target_agents.filter((x, i, all) => all.indexOf(x) === i);
  let n = 0;
  for (const action of order.actions)
    for (const target of executors)
      b.out.orders.push({
        order_id: `${order.decision_id}-A${++n}`,
        decision_id: order.decision_id,
        discussion_id: d.discussion_id,
        target_agent: target,
        action,
        status: 'PENDING',
        review_date: order.monitoring.review_date,
        success_criteria: order.monitoring.success_criteria,
      });
}
