// How each specialist's stated confidence fared against a verdict (SPEC §4.4, §13): an opinion is right when its
// action was carried out and confirmed, or left out of an order that was rejected. The review keeps the running
// Brier score from these; the learning benchmark bins them into a reliability table.
import type { ContentOf } from './messages.js';
import type { Verdict } from './outcomes.js';
import type { Discussion } from './types.js';

export interface OpinionScore {
  agent: string;
  confidence: number;
  right: boolean;
}

// Nothing is scored on an inconclusive verdict; an opinion given by default (the agent failed) is not the agent's.
export function opinionScores(d: Discussion, chosen: readonly string[], verdict: Verdict): OpinionScore[] {
  if (verdict === 'inconclusive') return [];
  const out: OpinionScore[] = [];
  for (const m of d.messages) {
    if (m.message_type !== 'SPECIALIST_OPINION' || m.metadata.default_opinion) continue;
    const op = m.content as ContentOf<'SPECIALIST_OPINION'>;
    const right = chosen.indexOf(op.recommendation.action_type) >= 0 === (verdict === 'confirmed');
    out.push({ agent: m.speaker, confidence: op.confidence, right });
  }
  return out;
}
