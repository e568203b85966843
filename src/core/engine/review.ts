// The agent review: after Phase 6, and before any order is reported on, the council reads its own order.
import type { ContentOf } from '../discussion/messages.js';
import { type AgentObjection, reviewOrder } from '../rules/review.js';
import type { Discussion } from '../types.js';
import { ask } from './ask.js';
import type { Builder } from './builder.js';
import { expectOf } from './plan.js';
import { context, request, visible } from './requests.js';
import { agentObjections, mark } from './review-marks.js';
import type { EngineEnv } from './types.js';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').slice(0, 300);

// Ethics and legal on a model judge the order's own text (the prompt's draft_order; when in doubt, FAIL); a FAIL is
// their objection. The answer is not a message of the discussion: its only record is the objection or the note.
function modelReview(d: Discussion, env: EngineEnv, b: Builder): { found: AgentObjection[] } {
  const on = env.agents.filter(
    (a) => a.active && a.group === 'governance' && env.providerFor(a).name !== env.rules.name,
  );
  if (!on.length) return { found: [] };
  // Without its decision id: the reviewers judge the text, and the id may still be the one the commit replaces.
  const { decision_id: decisionId, ...draftOrder } = d.final_decision ?? {};
  // The reviewers read the order against the facts (Phase 1), the member and the data: the same preamble the
  // specialists were sent, so a vendor can serve it from its cache.
  const ctx = context(
    d,
    env,
    visible(d, env, (m) => m.phase === 1),
    { draftOrder },
  );
  const requests = on.map((a) => ({
    ...request(d, env, a, 6, expectOf(a), ctx),
    key: `${d.discussion_id}/6/${a.agent_id}/review-${String(decisionId ?? '')}`,
    round: on.map(expectOf),
  }));
  const found: AgentObjection[] = [];
  const ja = env.lang === 'ja';
  for (const a of ask(env, requests, false)) {
    if (a.errorCode) {
      b.note(
        `agent review ${String(decisionId ?? '')}: ${a.agent.agent_id} gave no usable answer (${a.note ?? a.errorCode})`,
      );
      continue;
    }
    const c = a.content as ContentOf<'GOVERNANCE_ETHICS'>;
    if (c.check_result !== 'FAIL') continue;
    const kind = expectOf(a.agent) === 'GOVERNANCE_LEGAL' ? 'legal' : 'ethics';
    found.push({
      objector: a.agent.agent_id,
      kind,
      reason: `${ja ? '最終指示への指摘：' : 'On the final order: '}${c.concerns.join('; ') || c.notes}`,
      alternative:
        c.notes || (ja ? '指摘の要素を除いて指示し直す' : 'Issue the order again without the flagged element'),
      evidence: c.concerns.slice(0, 20),
      urgency: 'HIGH',
    });
  }
  return { found };
}

// Ethics, legal and the analyst (those active) review the order: by rule always (the checks a rule can make are never
// left to a model's judgement), and, for governance agents on a model, by that model reading the order itself. The
// first objection within the limit is filed (the caller queues it through the ordinary objection path), the others are
// noted.
export function reviewStep(d: Discussion, env: EngineEnv, b: Builder): void {
  const id = String(d.final_decision?.decision_id ?? '');
  const on = env.agents.filter((a) => a.active).map((a) => a.agent_id);
  const byModel = modelReview(d, env, b);
  const found = byModel.found.concat(
    reviewOrder(d, env.members, env.settings.get('actions.allow_list'), env.lang).filter(
      (f) => on.indexOf(f.objector) >= 0,
    ),
  );
  const limit = env.settings.number('limits.agent_objections_per_discussion');
  if (!found.length) {
    b.note(
      `${mark(id)} no objection from ${['ethics', 'legal', 'analyst'].filter((a) => on.indexOf(a) >= 0).join(', ')}`,
    );
    return;
  }
  const [first, ...rest] = found;
  if (agentObjections(d) < limit) {
    b.note(`${mark(id)} objection by ${first.objector} (${first.kind}): ${oneLine(first.reason)}`);
    b.out.agentObjection = first;
  } else
    b.note(
      `${mark(id)} ${first.objector} would object (${first.kind}) but the limit of ${limit} agent objection(s) per discussion is reached: ${oneLine(first.reason)}`,
    );
  for (const f of rest) b.note(`${mark(id)} also found by ${f.objector} (${f.kind}): ${oneLine(f.reason)}`);
}
