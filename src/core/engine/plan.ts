// Step planning: decides the next step of a discussion from the record alone.
import { ACTIVE_STATUSES } from '../discussion/vocab.js';
import { bandOf, type Bands } from '../discussion/confidence.js';
import type { MessageType } from '../discussion/messages.js';
import type { Expectation } from '../provider.js';
import type { Settings } from '../settings.js';
import type { AgentDef, Discussion } from '../types.js';
import { needsReview } from './review-marks.js';
import type { EngineEnv, Step } from './types.js';
import { curveFor } from './learned.js';
import { parseInstant } from '../instant.js';

// What a Phase 3 or 4 agent answers: its own perspective or check, else its group's default.
const EXPECT_OF: Record<string, Expectation> = {
  positive: 'PERSPECTIVE_POSITIVE',
  devils_advocate: 'PERSPECTIVE_NEGATIVE',
  human_view: 'PERSPECTIVE_HUMAN',
  ethics: 'GOVERNANCE_ETHICS',
  legal: 'GOVERNANCE_LEGAL',
};

export function expectOf(a: AgentDef): Expectation {
  return EXPECT_OF[a.agent_id] ?? (a.group === 'governance' ? 'GOVERNANCE_ETHICS' : 'PERSPECTIVE_POSITIVE');
}

export function active(env: EngineEnv, group: string, phase: number): AgentDef[] {
  return env.agents.filter((a) => a.active && a.group === group && a.phases.indexOf(phase) >= 0);
}

function spoke(d: Discussion, agent: string, phase: number, types: MessageType[]): boolean {
  return d.messages.some((m) => m.speaker === agent && m.phase === phase && types.indexOf(m.message_type) >= 0);
}

export function totalTokens(d: Discussion): number {
  return d.messages.reduce((a, m) => a + m.metadata.tokens_consumed, 0);
}

// Each specialist's latest figure of `figure` over its opinion and feedback answers.
function latestOf(d: Discussion, figure: (m: Discussion['messages'][number]) => number | undefined) {
  const out: Record<string, number> = {};
  for (const m of d.messages) {
    const c = figure(m);
    if (c !== undefined && (m.message_type === 'SPECIALIST_OPINION' || m.message_type === 'FEEDBACK_RESPONSE'))
      out[m.speaker] = c;
  }
  return out;
}

export function latestComputed(d: Discussion): Record<string, number> {
  return latestOf(d, (m) => m.metadata.computed_confidence);
}

// What decides a feedback round: the factor formula's figure where Kaigi reports even odds in its place (memory on,
// no verdict yet: learned.ts), else the computed confidence itself.
export function latestFeedbackFigure(d: Discussion): Record<string, number> {
  return latestOf(d, (m) => m.metadata.formula_confidence ?? m.metadata.computed_confidence);
}

export function feedbackRounds(d: Discussion, agent: string): number {
  return d.messages.filter(
    (m) => m.message_type === 'FEEDBACK_REQUEST' && (m.content as { target_agent: string }).target_agent === agent,
  ).length;
}

export function bands(s: Settings): Bands {
  return {
    heavy: s.number('confidence.band_heavy'),
    reference: s.number('confidence.band_reference'),
    crosscheck: s.number('confidence.band_crosscheck'),
    feedback: s.number('confidence.band_feedback'),
  };
}

export function planStep(d: Discussion, env: EngineEnv): Step {
  const s = env.settings;
  const timeoutMs = s.number('limits.discussion_timeout_hours') * 3600_000;
  if (ACTIVE_STATUSES.indexOf(d.status) >= 0 && env.now() - parseInstant(d.created_at) > timeoutMs)
    return { kind: 'timeout' };
  if (d.status === 'OPEN') return { kind: 'start' };
  if (d.status === 'VOTING') return { kind: 'decide' };
  if (needsReview(d)) return { kind: 'agent_review' };
  if (d.status !== 'IN_PROGRESS') return { kind: 'idle', reason: d.status };
  if (!d.messages.some((m) => m.phase === 1 && m.message_type === 'SITUATION_REPORT')) return { kind: 'start' };
  const forced = d.messages.length >= s.number('limits.max_messages_per_discussion');
  if (forced) return { kind: 'decide' };
  const specialists = active(env, 'specialist', 2).filter((a) => !spoke(d, a.agent_id, 2, ['SPECIALIST_OPINION']));
  if (specialists.length) return { kind: 'phase2', agents: specialists.map((a) => a.agent_id) };
  const b = bands(s);
  const computed = latestFeedbackFigure(d);
  const maxRounds = s.number('confidence.max_feedback_rounds');
  const ask = active(env, 'specialist', 2).filter((a) => {
    const c = computed[a.agent_id];
    // A recalibrated confidence is measured from verdicts: more data from the agent cannot move it, so none is asked.
    const measured = curveFor(env, a.agent_id) !== null;
    return c !== undefined && !measured && bandOf(c, b) === 'feedback' && feedbackRounds(d, a.agent_id) < maxRounds;
  });
  if (ask.length) return { kind: 'feedback', agents: ask.map((a) => a.agent_id) };
  const p34 = active(env, 'balancer', 3)
    .concat(active(env, 'governance', 4))
    .filter((a) => !d.messages.some((m) => m.speaker === a.agent_id && (m.phase === 3 || m.phase === 4)));
  if (p34.length) return { kind: 'phase34', agents: p34.map((a) => a.agent_id) };
  return { kind: 'decide' };
}
