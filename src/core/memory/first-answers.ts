// The council's first answers: the plurality of the specialists' independent Phase 2 recommendations (what a plain
// majority vote would have decided), and whether the decision dropped it — a flip, the measure of what deliberation
// changed. Computed by Kaigi from the record, never taken from a model.
import type { ContentOf, Message } from '../discussion/messages.js';
import type { Verdict } from './outcomes.js';

export interface FirstAnswers {
  // The action type most specialists recommended first; a tie goes to the larger summed stated confidence, then to
  // the action type first in alphabetical order (so the same record always gives the same answer).
  majority: string;
  votes: number;
  // Specialists whose first answer counted (default opinions, given when an agent failed, do not).
  of: number;
}

// The specialists' first answers tallied by action type and ranked as a plain vote ranks them: most votes, then
// summed stated confidence, then alphabetical.
function tallied(messages: readonly Message[]): { ranked: string[]; votes: Record<string, number> } {
  const seen = new Set<string>();
  const tally: Record<string, { votes: number; confidence: number }> = {};
  for (const m of messages) {
    if (m.phase !== 2 || m.message_type !== 'SPECIALIST_OPINION' || seen.has(m.speaker)) continue;
    seen.add(m.speaker);
    if (m.metadata.default_opinion) continue;
    const c = m.content as ContentOf<'SPECIALIST_OPINION'>;
    const t = (tally[c.recommendation.action_type] ??= { votes: 0, confidence: 0 });
    t.votes++;
    t.confidence += Number(c.confidence) || 0;
  }
  const ranked = Object.keys(tally).sort(
    (a, b) => tally[b].votes - tally[a].votes || tally[b].confidence - tally[a].confidence || (a < b ? -1 : 1),
  );
  return { ranked, votes: Object.fromEntries(ranked.map((a) => [a, tally[a].votes])) };
}

// The action types of the first answers, best first: the vote's next choices when an order is filled.
export function voteRanking(messages: readonly Message[]): string[] {
  return tallied(messages).ranked;
}

export function firstAnswers(messages: readonly Message[]): FirstAnswers | null {
  const { ranked, votes } = tallied(messages);
  if (!ranked.length) return null;
  const of = ranked.reduce((n, a) => n + votes[a], 0);
  return { majority: ranked[0], votes: votes[ranked[0]], of };
}

// A flip: the decision's actions leave out what the first answers' majority recommended.
export function isFlip(first: FirstAnswers | null, decided: readonly string[]): boolean {
  return !!first && decided.indexOf(first.majority) < 0;
}

// What first_answers records on the decision's DECISION_DELIBERATION message.
export interface FirstAnswersRecord extends FirstAnswers {
  flip: boolean;
}

// The first answers of a discussion's record against the action types its decision ordered, or null when no
// specialist's first answer counted (a flip is then undefined).
export function firstAnswersRecord(
  messages: readonly Message[],
  decided: readonly string[],
): FirstAnswersRecord | null {
  const first = firstAnswers(messages);
  return first ? { ...first, flip: isFlip(first, decided) } : null;
}

// The council's running record of reviewed decisions (Script Property PROPERTY_KEYS.flipStats): how often the
// decision overturned the first answers' majority, and how flips and kept majorities fared. A decision with no
// counted first answer is left out; an inconclusive verdict counts in decisions and flips only.
export interface FlipStats {
  decisions: number;
  flips: number;
  flips_confirmed: number;
  flips_rejected: number;
  kept_confirmed: number;
  kept_rejected: number;
}

export function emptyFlipStats(): FlipStats {
  return { decisions: 0, flips: 0, flips_confirmed: 0, flips_rejected: 0, kept_confirmed: 0, kept_rejected: 0 };
}

// The stats after one reviewed decision; the input is not changed.
export function countFlip(stats: FlipStats, first: FirstAnswersRecord | null, verdict: Verdict): FlipStats {
  const s = { ...stats };
  if (!first) return s;
  s.decisions++;
  if (first.flip) s.flips++;
  if (verdict === 'confirmed') s[first.flip ? 'flips_confirmed' : 'kept_confirmed']++;
  else if (verdict === 'rejected') s[first.flip ? 'flips_rejected' : 'kept_rejected']++;
  return s;
}

// GET /status's and the sidebar's view of the stats: counts and rates; a rate with nothing to divide by is null.
export interface Deliberation {
  decisions: number;
  flips: number;
  flip_rate: number | null;
  flips_confirmed: number;
  flips_rejected: number;
  flip_success: number | null;
  kept_confirmed: number;
  kept_rejected: number;
  kept_success: number | null;
}

function rate(n: number, of: number): number | null {
  return of > 0 ? Math.round((n / of) * 1000) / 1000 : null;
}

// From the stored property, whatever it holds: a missing or partial record reads as zeros.
export function deliberationOf(stored: Partial<FlipStats> | null | undefined): Deliberation {
  const s = { ...emptyFlipStats(), ...(stored ?? {}) };
  const n = (k: keyof FlipStats) => (Number.isFinite(Number(s[k])) ? Number(s[k]) : 0);
  const [decisions, flips] = [n('decisions'), n('flips')];
  const [fc, fr, kc, kr] = [n('flips_confirmed'), n('flips_rejected'), n('kept_confirmed'), n('kept_rejected')];
  return {
    decisions,
    flips,
    flip_rate: rate(flips, decisions),
    flips_confirmed: fc,
    flips_rejected: fr,
    flip_success: rate(fc, fc + fr),
    kept_confirmed: kc,
    kept_rejected: kr,
    kept_success: rate(kc, kc + kr),
  };
}
