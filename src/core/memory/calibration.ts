// How each specialist's stated confidence fared against a verdict: an opinion is right when its
// action was carried out and confirmed, or left out of an order that was rejected. The review keeps the running
// Brier score and learned trust from these; the learning benchmark bins them into a reliability table.
import type { ContentOf } from '../discussion/messages.js';
import type { Verdict } from './outcomes.js';
import type { TrustEvent } from './trust.js';
import type { Discussion } from '../types.js';

export interface OpinionScore {
  agent: string;
  confidence: number;
  // The confidence Kaigi computed for the opinion (recalibrated once the agent has a record).
  computed: number;
  right: boolean;
}

// Nothing is scored on an inconclusive verdict; an opinion given by default (the agent failed) is not the agent's.
export function opinionScores(d: Discussion, chosen: readonly string[], verdict: Verdict): OpinionScore[] {
  return trustEvents(d, chosen, verdict).map((e) => ({
    agent: e.agent,
    confidence: e.stated,
    computed: e.computed,
    right: e.right,
  }));
}

// The same opinions as learned trust reads them: the context each was given in, and whether its action was carried.
export function trustEvents(
  d: Discussion,
  chosen: readonly string[],
  verdict: Verdict,
): (TrustEvent & { computed: number })[] {
  if (verdict === 'inconclusive') return [];
  const out: (TrustEvent & { computed: number })[] = [];
  for (const m of d.messages) {
    if (m.message_type !== 'SPECIALIST_OPINION' || m.metadata.default_opinion) continue;
    const op = m.content as ContentOf<'SPECIALIST_OPINION'>;
    const carried = chosen.indexOf(op.recommendation.action_type) >= 0;
    out.push({
      agent: m.speaker,
      member: d.trigger.target_user_id,
      trigger: d.trigger.type,
      action: op.recommendation.action_type,
      carried,
      confirmed: verdict === 'confirmed',
      stated: op.confidence,
      computed: m.metadata.computed_confidence ?? op.confidence,
      right: carried === (verdict === 'confirmed'),
    });
  }
  return out;
}
