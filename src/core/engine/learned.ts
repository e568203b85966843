// What the engine uses of learned trust (src/core/memory/trust.ts): nothing while memory is off or none is kept, so a
// council without memory, a new agent and a new context all start neutral.
import { calibrationCurve, MIN_CALIBRATION, teamCurve } from '../memory/isotonic.js';
import type { ContentOf } from '../discussion/messages.js';
import { type RecordBand, statedRecord } from '../memory/stated-record.js';
import { memberRecord, type MemberRecordLine, reliabilityOf, teamRate, type TrustState } from '../memory/trust.js';
import type { Discussion } from '../types.js';
import type { EngineEnv } from './types.js';

function learnedTrust(env: EngineEnv): TrustState | null {
  if (!env.trust || !env.settings.get('memory.enabled')) return null;
  return env.trust();
}

// The agent's fitted calibration curve, leaning on the team's (all agents' bins pooled) where its own bins are thin;
// null (the factor formula of recency, completeness, accuracy, sample size and consensus, with its feedback rounds)
// without memory, and until the team as a whole has MIN_CALIBRATION scored opinions: before the first verdicts there is
// nothing to fit, and a council that has learned nothing still asks its specialists for more data.
export function curveFor(env: EngineEnv, agent: string): number[] | null {
  const trust = learnedTrust(env);
  if (!trust) return null;
  const bins = Object.values(trust.agents).map((a) => a.bins);
  if (bins.reduce((n, b) => n + b.reduce((m, x) => m + x[1], 0), 0) < MIN_CALIBRATION) return null;
  const team = teamCurve(bins);
  const a = trust.agents[agent];
  return a ? calibrationCurve(a.bins, team) : team;
}

// Before the team's first MIN_CALIBRATION scored opinions, with memory on, how often an opinion is right is unknown
// (no verdict yet): the confidence Kaigi reports and weighs is this, even odds, for every opinion. The factor
// formula's figure is kept beside it (`formula_confidence`) and still decides the feedback round, so a thin-data
// opinion is still asked for more data. Without memory the factor formula stands as it is.
export const UNPROVEN_CONFIDENCE = 0.5;

export function unproven(env: EngineEnv): boolean {
  return !!learnedTrust(env) && curveFor(env, '') === null;
}

// Each specialist's learned reliability for its latest recommendation in this discussion's context.
export function reliabilities(d: Discussion, env: EngineEnv): Record<string, number> {
  const trust = learnedTrust(env);
  const out: Record<string, number> = {};
  for (const m of d.messages)
    if (m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion)
      out[m.speaker] = trust
        ? reliabilityOf(trust, m.speaker, {
            member: d.trigger.target_user_id,
            trigger: d.trigger.type,
            action: (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type,
          })
        : 0.5;
  return out;
}

// What was tried for the discussion's member and how it fared; empty without memory.
export function recordFor(d: Discussion, env: EngineEnv): MemberRecordLine[] {
  const trust = learnedTrust(env);
  return trust ? memberRecord(trust, d.trigger.target_user_id) : [];
}

// The team's confirmed rate the member's record is measured against; none without memory (the decider then reads
// 0.5 and knows it learns nothing).
export function teamRateFor(env: EngineEnv): number | undefined {
  const trust = learnedTrust(env);
  return trust ? teamRate(trust) : undefined;
}

// The agent's record of stated confidence it is shown before it states one; none without memory.
export function statedRecordFor(env: EngineEnv, agent: string): RecordBand[] {
  const a = learnedTrust(env)?.agents[agent];
  return a ? statedRecord(a.bins, env.settings.number('confidence.record_min_opinions')) : [];
}
