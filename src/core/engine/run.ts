// Running a planned step through the phases, and folding its result back into the discussion.
import type { Discussion } from '../types.js';
import { Builder, SYSTEM } from './builder.js';
import { decideStep, type DecideInput } from './decide.js';
import { feedback, phase2, phase34, reanalyse } from './phases.js';
import { overflows } from './requests.js';
import { needsReview } from './review-marks.js';
import { reviewStep } from './review.js';
import { groundingOf, noData } from './grounded.js';
import type { EngineEnv, Step, StepResult } from './types.js';

export function runStep(d: Discussion, step: Step, env: EngineEnv, input: DecideInput = {}): StepResult {
  const b = new Builder(d, env);
  const limit = env.settings.number('limits.max_tokens_per_discussion');
  if (overflows(d.messages, Math.floor(limit / 4)))
    b.note(`summarised: the digests of earlier messages passed a quarter of ${limit} tokens`);
  switch (step.kind) {
    case 'timeout':
      b.to('TIMEOUT');
      b.out.closedAt = env.isoNow();
      b.note(`TIMEOUT: not decided within ${env.settings.number('limits.discussion_timeout_hours')} h`);
      break;
    case 'start': {
      if (d.status === 'OPEN') b.to('IN_PROGRESS');
      // The watcher and the queue open discussions without the door: one about data the council does not have ends
      // here, with a person, not in a decision.
      const gap = groundingOf(d, env);
      if (gap) noData(env, b, gap);
      else reanalyse(d, env, b);
      break;
    }
    case 'phase2':
      phase2(d, env, b, step.agents);
      break;
    case 'feedback':
      feedback(d, env, b, step.agents);
      break;
    case 'phase34':
      phase34(d, env, b, step.agents);
      break;
    case 'decide':
      if (d.messages.length >= env.settings.number('limits.max_messages_per_discussion'))
        b.note(`message limit ${env.settings.number('limits.max_messages_per_discussion')} reached: forced to phase 5`);
      decideStep(d, env, b, input);
      // The agent review of the new order runs in the same step, so the decision and its review are committed
      // together (no extra round trip, no window where the order stands unreviewed).
      if (b.out.status === 'DECIDED' && b.out.finalDecision) {
        const after = applyStep(d, b.out);
        if (needsReview(after)) reviewStep(after, env, b);
      }
      break;
    case 'agent_review':
      reviewStep(d, env, b);
      break;
    case 'idle':
      break;
  }
  return b.out;
}

// Whether two consecutive steps fold into one: each may carry at most one cancelled decision and one agent objection.
export function mergeable(a: StepResult, b: StepResult): boolean {
  return !(a.cancelDecision && b.cancelDecision) && !(a.agentObjection && b.agentObjection);
}

// Two consecutive steps as one, so that applyStep(d, mergeSteps(a, b)) is applyStep(applyStep(d, a), b): an
// execution that commits several steps together (src/app/tasks/discussion-advance.ts) writes them as one.
export function mergeSteps(a: StepResult, b: StepResult): StepResult {
  return {
    messages: a.messages.concat(b.messages),
    status: b.status,
    transitions: a.transitions.concat(b.transitions),
    closedAt: b.closedAt ?? a.closedAt,
    finalDecision: b.finalDecision ?? a.finalDecision,
    orders: a.orders.concat(b.orders),
    cancelDecision: b.cancelDecision ?? a.cancelDecision,
    executionStatus: b.executionStatus ?? a.executionStatus,
    inbox: a.inbox.concat(b.inbox),
    notes: a.notes.concat(b.notes),
    agentObjection: b.agentObjection ?? a.agentObjection,
  };
}

export function applyStep(d: Discussion, r: StepResult): Discussion {
  const speakers = d.participants.slice();
  for (const m of r.messages) if (speakers.indexOf(m.speaker) < 0 && m.speaker !== SYSTEM) speakers.push(m.speaker);
  return {
    ...d,
    status: r.status,
    messages: d.messages.concat(r.messages),
    participants: speakers,
    closed_at: r.closedAt ?? d.closed_at,
    final_decision: r.finalDecision ?? d.final_decision,
    execution_status: r.executionStatus ?? d.execution_status,
    notes: d.notes.concat(r.notes),
  };
}
