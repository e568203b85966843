// The council's weighted vote, computed by Kaigi: each specialist's band and weight, and each action type's score.
import { BAND_WEIGHT, type Band, type Bands, bandOf } from './confidence.js';
import type { ContentOf, Message } from './messages.js';

export interface Weighing {
  weights: { agent_id: string; weight: number; band: Band; stated: number; computed: number }[];
  votes: { action_type: string; agents: string[]; score: number }[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

// The specialists' latest opinions (a default opinion is no vote). A weight is the band's weight times the mean of
// stated and computed confidence, normalised to sum to 1; an action type's score is the sum of its voters' weights.
export function weighOpinions(messages: readonly Message[], computed: Record<string, number>, bands: Bands): Weighing {
  const latest: Record<string, ContentOf<'SPECIALIST_OPINION'>> = {};
  const order: string[] = [];
  for (const m of messages)
    if (m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion) {
      if (!latest[m.speaker]) order.push(m.speaker);
      latest[m.speaker] = m.content as ContentOf<'SPECIALIST_OPINION'>;
    }
  const weights = order.map((agent_id) => {
    const stated = latest[agent_id].confidence;
    const c = computed[agent_id] ?? stated;
    const band = bandOf(c, bands);
    return { agent_id, weight: round2((BAND_WEIGHT[band] * (c + stated)) / 2), band, stated, computed: c };
  });
  const total = weights.reduce((a, w) => a + w.weight, 0) || 1;
  for (const w of weights) w.weight = round2(w.weight / total);
  const byType: Record<string, { agents: string[]; score: number }> = {};
  weights.forEach((w) => {
    const v = (byType[latest[w.agent_id].recommendation.action_type] ??= { agents: [], score: 0 });
    v.agents.push(w.agent_id);
    v.score = round2(v.score + w.weight);
  });
  const votes = Object.keys(byType)
    .sort()
    .map((action_type) => ({ action_type, ...byType[action_type] }));
  return { weights, votes };
}
