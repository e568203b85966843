// A measured decision for the sidebar: its verdict with the numbers behind it, and what memory learned from it.
// Read only for a discussion whose outcome was evaluated (column M), so a live discussion's polls cost nothing more.
import { rowsOf } from '../../../sheets-schema/index.js';
import type { Council } from '../sheet-council.js';
import { text } from './plain.js';
import { effectText } from '../../core/memory/effect.js';

const outcomeCols = rowsOf('outcomes');
const learningCols = rowsOf('learnings');

export interface OutcomeView {
  outcome_id: string;
  // The effect first (did the actions help), then the forecast's verdict; blank effect: a row from before it existed.
  effect: string;
  effect_change: number | null;
  effect_target: number | null;
  // What a manager reads first, in each language ("Worked — better than forecast: +140 % against +20 % …").
  headline: { ja: string; en: string };
  verdict: string;
  // Blank in the sheet when nothing could be measured (no data in the review window).
  prediction_error: number | null;
  data_points: number;
  notes: string;
  observed: { metric: string; predicted: number | null; actual: number | null; error: number | null }[];
  learned: { learning_id: string; scope: string; agent_id: string; content: string; confidence: number }[];
}

function parsed<T>(v: unknown, fallback: T): T {
  try {
    return JSON.parse(text(v)) as T;
  } catch {
    return fallback;
  }
}

const number = (v: unknown): number | null =>
  v === '' || v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);

export function outcomeView(c: Council, discussionId: string): OutcomeView | null {
  const row = c.store
    .readTab('outcomes')
    .map((r) => outcomeCols.read(r))
    .filter((o) => o.discussion_id === discussionId)
    .pop();
  if (!row) return null;
  const id = text(row.outcome_id);
  // The learnings the review wrote from this outcome name it first in their source (src/core/memory/review-learnings.ts).
  const learned = c.store
    .readTab('learnings')
    .map((r) => learningCols.read(r))
    .filter((l) => text(l.source).split(' ')[0] === id)
    .map((l) => ({
      learning_id: text(l.learning_id),
      scope: text(l.scope),
      agent_id: text(l.agent_id),
      content: text(l.content),
      confidence: Number(l.confidence) || 0,
    }));
  const effect = {
    effect: text(row.effect),
    change: number(row.effect_change),
    target: number(row.effect_target) ?? 0,
  };
  return {
    outcome_id: id,
    effect: effect.effect,
    effect_change: effect.change,
    effect_target: number(row.effect_target),
    headline: { ja: effectText(effect, text(row.verdict), 'ja'), en: effectText(effect, text(row.verdict), 'en') },
    verdict: text(row.verdict),
    prediction_error: number(row.prediction_error),
    data_points: Number(row.data_points) || 0,
    notes: text(row.notes),
    observed: parsed<OutcomeView['observed']>(row.observed_json, []),
    learned,
  };
}
