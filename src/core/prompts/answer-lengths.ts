// How long each kind of answer should be: the target its task states, so a model writes to fit the cap it is sent.
import type { Expectation } from '../provider.js';

type Both = [ja: string, en: string];

// Targets in characters (Japanese, about a token each) and words (English). The caps the answers are sent with
// (src/core/providers/model-table.ts DEFAULT_OUTPUT_CAPS) are at least 1.5 × the 95th percentile of realistic
// answers of the kind in either language (tests/src/core/answer-caps.test.ts measures it), so an answer near its
// target is never cut, and one that runs long has room before the cap.
const TARGETS: Partial<Record<Expectation, [ja: number, en: number]>> = {
  SITUATION_REPORT: [400, 130],
  SPECIALIST_OPINION: [400, 140],
  FEEDBACK_RESPONSE: [300, 100],
  PERSPECTIVE_POSITIVE: [300, 100],
  PERSPECTIVE_NEGATIVE: [300, 100],
  PERSPECTIVE_HUMAN: [300, 100],
  GOVERNANCE_ETHICS: [200, 70],
  GOVERNANCE_LEGAL: [200, 70],
  DECISION: [800, 270],
  LEARNING: [300, 100],
  REFLECTION: [300, 100],
};

// The line a task ends with: the answer's whole length, and that each text says its point first.
export function lengthLine(expect: Expectation, lang: 'ja' | 'en'): string {
  const t = TARGETS[expect];
  if (!t) return '';
  const line: Both = [
    `長さ：回答全体で約${t[0]}字。各欄は要点から。`,
    `Length: about ${t[1]} words in all, each field's point first.`,
  ];
  return lang === 'ja' ? line[0] : line[1];
}
