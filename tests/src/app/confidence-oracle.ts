// The council's computed confidence worked out from what the workbook holds, for the council tests through the built
// file (council.test.ts) and in-process (council.inproc.test.ts) alike.
import { computeConfidence, type Weights } from '../../../src/core/discussion/confidence.js';

const DAY = 86_400_000;

// The calendar day in the script's time zone (Asia/Tokyo) of a KPI date cell or of a clock's reading.
export function tokyoDay(v: unknown): string {
  if (v instanceof Date) return new Date(v.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
  if (typeof v === 'number') return new Date(v + 9 * 3600_000).toISOString().slice(0, 10);
  return String(v).slice(0, 10);
}

interface Opinion {
  speaker: string;
  content: any;
}

export interface Workbook {
  kpi: Record<string, unknown>[];
  settings: Record<string, unknown>[];
  now: number;
}

// The factor formula's figure from the member's KPI days, the Settings weights, a historical accuracy of 0.5 for an
// agent with no outcomes yet, and the other specialists' recommendations. With memory on and no verdict yet, Kaigi
// keeps it as `formula_confidence` (it decides the feedback round) and reports and weighs even odds in its place
// (UNPROVEN_CONFIDENCE, src/core/engine/learned.ts: re-pinned 2026-11-27).
export function expectedFormula(w: Workbook, member: string, opinions: Opinion[], speaker: string, bonus = 0): number {
  const days = [...new Set(w.kpi.filter((r) => r.member_id === member).map((r) => tokyoDay(r.date)))];
  days.sort();
  const age = Math.round((Date.parse(tokyoDay(w.now)) - Date.parse(days[days.length - 1])) / DAY);
  const weights = JSON.parse(String(w.settings.find((r) => r.key === 'confidence.weights')!.value));
  const own = opinions.find((m) => m.speaker === speaker)!;
  const others = opinions.filter((m) => m.speaker !== speaker);
  const agree = others.filter(
    (m) => m.content.recommendation.action_type === own.content.recommendation.action_type,
  ).length;
  return computeConfidence(
    {
      data_recency: Math.max(0, 1 - age / 7),
      data_completeness: Math.min(1, days.length / 30 + bonus),
      historical_accuracy: 0.5,
      sample_size: Math.min(1, days.length / 30),
      expert_consensus: agree / Math.min(others.length, 4),
    },
    weights as Weights,
  );
}
