// Each agent's self-score and effect per prompt version, from the verdicts of the decisions it spoke in.
//
// A prompt change can only be judged against what came before it, so every reviewed decision counts once for each
// agent that answered in its discussion, under the prompt version that agent answered with. The self-score is the
// share of those decisions whose forecast was confirmed; the effect counts what the actions did. A message written
// before messages recorded their prompt version counts under no version and is left out, rather than guessed.

import { EFFECTS, VERDICTS } from '../discussion/vocab.js';

type TrendVerdict = (typeof VERDICTS)[number];
type TrendEffect = (typeof EFFECTS)[number];

export interface TrendMessage {
  discussion_id: string;
  speaker: string;
  prompt_version?: number | null;
}

export interface TrendOutcome {
  discussion_id: string;
  verdict: string;
  effect?: string | null;
}

export interface VersionTrend {
  version: number;
  decisions: number;
  confirmed: number;
  rejected: number;
  inconclusive: number;
  // confirmed / decisions; null while no decision has been reviewed.
  self_score: number | null;
  effect: { worked: number; no_effect: number; worse: number; unclear: number };
}

const blank = (version: number): VersionTrend => ({
  version,
  decisions: 0,
  confirmed: 0,
  rejected: 0,
  inconclusive: 0,
  self_score: null,
  effect: { worked: 0, no_effect: 0, worse: 0, unclear: 0 },
});

// agent_id → its versions' trends, oldest version first. The latest outcome of a discussion is its verdict (a
// recheck writes a later one).
export function promptTrend(messages: TrendMessage[], outcomes: TrendOutcome[]): Record<string, VersionTrend[]> {
  const verdictOf = new Map<string, TrendOutcome>();
  for (const o of outcomes) if (VERDICTS.some((v) => v === o.verdict)) verdictOf.set(o.discussion_id, o);
  // One (agent, version) per discussion: an agent that spoke five times in a discussion made one decision there.
  const spoke = new Map<string, Set<string>>();
  for (const m of messages) {
    const v = Number(m.prompt_version);
    if (!Number.isInteger(v) || v < 1 || !verdictOf.has(m.discussion_id)) continue;
    const key = `${m.speaker}\u0000${v}`;
    const seen = spoke.get(key) ?? new Set<string>();
    seen.add(m.discussion_id);
    spoke.set(key, seen);
  }
  const out: Record<string, VersionTrend[]> = {};
  for (const [key, discussions] of spoke) {
    const [agent, v] = key.split('\u0000');
    const t = blank(Number(v));
    for (const id of discussions) {
      const o = verdictOf.get(id)!;
      t.decisions++;
      t[o.verdict as TrendVerdict]++;
      const e = String(o.effect ?? '');
      if (EFFECTS.some((x) => x === e)) t.effect[e as TrendEffect]++;
    }
    t.self_score = t.decisions ? t.confirmed / t.decisions : null;
    (out[agent] ??= []).push(t);
  }
  for (const agent of Object.keys(out)) out[agent].sort((a, b) => a.version - b.version);
  return out;
}
