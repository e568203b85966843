// The council's weighted vote, computed by Kaigi: each specialist's band and weight, and each action type's score.
import { BAND_WEIGHT, type Band, type Bands, bandOf } from './confidence.js';
import type { ContentOf, Message } from './messages.js';

export interface Weighing {
  weights: {
    agent_id: string;
    weight: number;
    band: Band;
    stated: number;
    computed: number;
    learned_reliability: number;
  }[];
  // Highest score first, the scores summing to 1 (to rounding).
  votes: { action_type: string; agents: string[]; score: number }[];
  // The first score less the second: how clear the vote is (the first's whole score when it stands alone).
  margin: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

// Learned reliability as a factor on the weight: 2r, so a neutral 0.5 leaves the weight as it was. The odds r/(1−r)
// (a weighted majority's log-odds weights) were tried on the tuning seeds and lost: an agent's overall figure is
// mostly its default answer's, so a rarely carried cue-reading answer was pulled down with it.
const factor = (r: number) => 2 * Math.min(0.95, Math.max(0.05, r));

// The specialists' latest opinions (a default opinion is no vote). A weight is the band's weight times the mean of
// stated and computed confidence, times 2 × the agent's learned reliability when `learned` is on, normalised
// to sum to 1; an action type's score is the sum of its voters' weights.
export function weighOpinions(
  messages: readonly Message[],
  computed: Record<string, number>,
  bands: Bands,
  reliability: Record<string, number> = {},
  learned = true,
): Weighing {
  const latest: Record<string, ContentOf<'SPECIALIST_OPINION'>> = {};
  const answeredBy: Record<string, string | undefined> = {};
  const order: string[] = [];
  for (const m of messages)
    if (m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion) {
      if (!latest[m.speaker]) order.push(m.speaker);
      latest[m.speaker] = m.content as ContentOf<'SPECIALIST_OPINION'>;
      answeredBy[m.speaker] = m.metadata.substitute;
    }
  // A substitute's answer is the substitute's view: when the substitute also spoke for itself, counting it under the
  // absent agent's name would count one view twice, so it is no vote.
  const spokeForItself = (id: string) => latest[id] !== undefined && answeredBy[id] === undefined;
  const voters = order.filter((a) => {
    const sub = answeredBy[a];
    return !sub || !spokeForItself(sub);
  });
  const raw: Record<string, number> = {};
  const weights = voters.map((agent_id) => {
    const stated = latest[agent_id].confidence;
    const c = computed[agent_id] ?? stated;
    const band = bandOf(c, bands);
    const r = reliability[agent_id] ?? 0.5;
    raw[agent_id] = round2((BAND_WEIGHT[band] * (c + stated) * (learned ? factor(r) : 1)) / 2);
    return { agent_id, weight: 0, band, stated, computed: c, learned_reliability: r };
  });
  const total = Object.values(raw).reduce((a, w) => a + w, 0) || 1;
  for (const w of weights) w.weight = round2(raw[w.agent_id] / total);
  const byType: Record<string, { agents: string[]; score: number }> = {};
  weights.forEach((w) => {
    const v = (byType[latest[w.agent_id].recommendation.action_type] ??= { agents: [], score: 0 });
    v.agents.push(w.agent_id);
    // Summed unrounded, rounded once: rounded weights summed can pass 1.
    v.score += raw[w.agent_id] / total;
  });
  return ranked(
    Object.keys(byType).map((action_type) => ({ action_type, ...byType[action_type] })),
    weights,
  );
}

// Votes scaled to sum to 1, highest first (ties by name, so the order is stable), and the margin between the first
// two.
function ranked(votes: Weighing['votes'], weights: Weighing['weights']): Weighing {
  const sum = votes.reduce((a, v) => a + v.score, 0) || 1;
  const out = votes
    .map((v) => ({ ...v, score: round2(v.score / sum) }))
    .sort((a, b) => b.score - a.score || (a.action_type < b.action_type ? -1 : 1));
  const margin = out.length ? round2(out[0].score - (out[1]?.score ?? 0)) : 0;
  return { weights, votes: out, margin };
}

// The deliberation's weight_assignment: each weight beside the confidences and the reliability it came from.
export function weightAssignment(w: Weighing): ContentOf<'DECISION_DELIBERATION'>['weight_assignment'] {
  return w.weights.map((x) => ({
    agent_id: x.agent_id,
    weight: x.weight,
    band: x.band,
    stated_confidence: x.stated,
    computed_confidence: x.computed,
    learned_reliability: x.learned_reliability,
  }));
}

// A directive's preferred actions weighed up: each gains `weight` (joining the vote when no specialist named it).
export function preferVotes(w: Weighing, prefer: readonly string[], weight: number): Weighing {
  if (!prefer.length || weight <= 0) return w;
  const votes = w.votes.map((v) => ({ ...v, agents: v.agents.slice() }));
  for (const a of prefer) {
    const v = votes.find((x) => x.action_type === a);
    if (v) v.score += weight;
    else votes.push({ action_type: a, agents: [], score: weight });
  }
  // Scaled back to sum to 1, so a preferred action's share says how far the directive moved the vote.
  return ranked(votes, w.weights);
}
