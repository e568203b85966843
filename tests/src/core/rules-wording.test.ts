// The rule-based council's words match its action types: whatever the allow-list leaves a specialist to recommend,
// the recommendation's target and description describe that type, and so does every action of the order.
import { describe, expect, it } from 'vitest';
import type { ContentOf } from '../../../src/core/discussion/messages.js';
import { actionWording, WORDED_TYPES } from '../../../src/core/rules/action-wording.js';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.js';
import { newDiscussion, runToRest, testEnv } from './env.js';

const DEFAULT_TYPES: string[] = JSON.parse(DEFAULT_SETTINGS.find((s) => s.key === 'actions.allow_list')!.value);
const words = (type: string, lang: 'ja' | 'en') =>
  actionWording(type, (ja, en) => (lang === 'ja' ? ja : en)).description;

describe('rule-based wording', () => {
  it('has words for every action type of the default allow-list', () => {
    expect([...WORDED_TYPES].sort()).toEqual([...DEFAULT_TYPES].sort());
  });

  for (const lang of ['ja', 'en'] as const)
    for (const only of DEFAULT_TYPES)
      it(`with only ${only} allowed (${lang}), every recommendation and action describes ${only}`, () => {
        const env = testEnv({ lang, settings: { 'actions.allow_list': [only] } });
        const d = runToRest(newDiscussion(), env).d;
        const recs = d.messages
          .filter((m) => m.message_type === 'SPECIALIST_OPINION')
          .map((m) => (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation);
        expect(recs.length).toBeGreaterThan(0);
        // Another type's standard words never stand under this type.
        const others = DEFAULT_TYPES.filter((t) => t !== only).map((t) => words(t, lang));
        for (const r of recs) {
          expect(r.action_type).toBe(only);
          expect(others).not.toContain(r.description);
        }
        const order = d.messages.find((m) => m.message_type === 'EXECUTION_ORDER');
        if (order)
          for (const a of (order.content as ContentOf<'EXECUTION_ORDER'>).actions) {
            expect(a.action_type).toBe(only);
            expect(others).not.toContain(a.description);
          }
      });

  it('words a type a person added plainly', () => {
    expect(actionWording('CUSTOM_THING', (_ja, en) => en)).toEqual({
      target: 'the member',
      description: 'Carry out CUSTOM_THING',
    });
  });
});
