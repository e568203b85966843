// The manager's note on the rule-based council: health cues in either language mean no goal, and governance fails one.
import { describe, expect, it } from 'vitest';
import type { ContentOf } from '../../../../src/core/discussion/messages.js';
import { healthCues, noteText } from '../../../../src/core/rules/note-cues.js';
import { reviewOrder } from '../../../../src/core/rules/review.js';
import { DEMO_MEMBERS } from '../../../../src/core/demo-data.js';
import { newDiscussion, runToRest, testEnv } from '../env.js';

const NOTES = [
  { lang: 'en' as const, note: 'He has been working late a lot these past weeks.' },
  { lang: 'ja' as const, note: '最近、夜遅くまで残業が続いている様子です。' },
  { lang: 'en' as const, note: 'Her father is in hospital and she is caring for him.' },
  { lang: 'ja' as const, note: '家族の介護で休暇を取ることが増えた。' },
];

function orderOf(note: string, lang: 'ja' | 'en') {
  const trigger = { ...newDiscussion().trigger, context: { metric: 'contacts', note } };
  const run = runToRest(newDiscussion({ trigger }), testEnv({ lang }));
  const order = run.d.messages.filter((m) => m.message_type === 'EXECUTION_ORDER').pop()?.content as
    | ContentOf<'EXECUTION_ORDER'>
    | undefined;
  return { run, order };
}

describe('health cues in the manager note', () => {
  it('are read in Japanese and English, never in a machine value', () => {
    expect(healthCues('working late a lot')).toEqual(['long_hours']);
    expect(healthCues('遅くまで残業')).toEqual(['long_hours']);
    expect(healthCues('子供が生まれたばかり')).toEqual(['family']);
    expect(healthCues('contacts fell 12 → 5 three days in a row')).toEqual([]);
    expect(healthCues('田中さんの連絡数が3日連続低下')).toEqual([]);
    expect(healthCues('a willingness to cleave')).toEqual([]);
    expect(noteText({ context: { metric: 'overtime_hours', note: 'on sick leave' } })).toBe('on sick leave');
  });

  for (const { lang, note } of NOTES)
    it(`keep every goal out of the order (${lang}: ${note})`, () => {
      const { run, order } = orderOf(note, lang);
      expect(run.d.status).toBe('DECIDED');
      const types = order!.actions.map((a) => a.action_type);
      expect(types).not.toContain('GOAL_ADJUSTMENT');
      expect(types.some((t) => t === 'REST_RECOMMENDATION' || t === 'ONE_ON_ONE')).toBe(true);
      const opinions = run.d.messages.filter((m) => m.message_type === 'SPECIALIST_OPINION');
      expect(
        opinions.map((m) => (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type),
      ).not.toContain('GOAL_ADJUSTMENT');
      const legal = run.d.messages.find((m) => m.message_type === 'GOVERNANCE_LEGAL')!;
      expect(legal.content.check_result).toBe('PASS');
    });

  it('without a note the demo still adjusts the goal (the cue is what changes it)', () => {
    const { order } = orderOf('', 'en');
    expect(order!.actions.map((a) => a.action_type)).toContain('GOAL_ADJUSTMENT');
  });

  it('make the agent review object to an order that sets a goal anyway (a model that ignored the note)', () => {
    const { run } = orderOf('', 'en');
    const trigger = { ...run.d.trigger, context: { metric: 'contacts', note: 'working long hours' } };
    const found = reviewOrder({ ...run.d, trigger }, DEMO_MEMBERS.slice(), ['ONE_ON_ONE', 'REST_RECOMMENDATION'], 'en');
    expect(found.map((f) => f.objector)).toContain('legal');
    expect(found.find((f) => f.objector === 'legal')!.reason).toMatch(/long_hours/);
  });
});
