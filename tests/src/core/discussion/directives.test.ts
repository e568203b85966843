// Directives applied by code: a ban keeps an action out of every answer and the order, a preference weighs it up,
// a member's directive reaches only that member's discussions, and the record names what was applied.
import { describe, expect, it } from 'vitest';
import type { Directive } from '../../../../src/core/discussion/directives.js';
import type { ContentOf } from '../../../../src/core/discussion/messages.js';
import { newDiscussion, runToRest, testEnv } from '../env.js';

const dir = (over: Partial<Directive>): Directive => ({
  id: 'DIR-1',
  content: 'Never raise his goal',
  priority: 'high',
  targets: ['all'],
  member: '',
  ban: [],
  prefer: [],
  ...over,
});

function run(directives: Directive[], member = 'tanaka') {
  const base = newDiscussion();
  const d = newDiscussion({ trigger: { ...base.trigger, target_user_id: member } });
  const r = runToRest(d, { ...testEnv({ lang: 'en' }), directives: () => directives });
  const order = r.d.messages.find((m) => m.message_type === 'EXECUTION_ORDER')!;
  return { d: r.d, order: order.content as ContentOf<'EXECUTION_ORDER'>, meta: order.metadata };
}

const typesOf = (o: ContentOf<'EXECUTION_ORDER'>) => o.actions.map((a) => a.action_type);

describe('directives on the rule-based council', () => {
  it('without one, the demo order adjusts the goal', () => {
    expect(typesOf(run([]).order)).toContain('GOAL_ADJUSTMENT');
  });

  it('a ban keeps the action out of every opinion and the order, and the record names the directive', () => {
    const { d, order, meta } = run([dir({ member: 'tanaka', ban: ['GOAL_ADJUSTMENT'] })]);
    expect(typesOf(order)).not.toContain('GOAL_ADJUSTMENT');
    const opinions = d.messages.filter((m) => m.message_type === 'SPECIALIST_OPINION');
    for (const m of opinions)
      expect((m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type).not.toBe('GOAL_ADJUSTMENT');
    expect(meta.directives).toEqual(['DIR-1']);
    expect(d.notes).toContain('directives applied: DIR-1 ban GOAL_ADJUSTMENT');
  });

  it('a directive for another member is not in force, and the order is the same as without it', () => {
    const { d, order, meta } = run([dir({ member: 'sato', ban: ['GOAL_ADJUSTMENT'] })]);
    expect(typesOf(order)).toEqual(typesOf(run([]).order));
    expect(meta.directives).toBeUndefined();
    expect(d.notes.some((n) => n.startsWith('directives applied'))).toBe(false);
  });

  it('a preference weighs an action up into the order', () => {
    expect(typesOf(run([]).order)).not.toContain('SKILL_TRAINING');
    const { d, order } = run([dir({ content: 'Try training', prefer: ['SKILL_TRAINING'] })]);
    expect(typesOf(order)).toContain('SKILL_TRAINING');
    const delib = d.messages.find((m) => m.message_type === 'DECISION_DELIBERATION')!
      .content as ContentOf<'DECISION_DELIBERATION'>;
    expect(delib.votes.find((v) => v.action_type === 'SKILL_TRAINING')!.score).toBeGreaterThan(0);
  });

  it('the text reaches the agents it is addressed to, with the lists code applies', () => {
    const { d } = run([dir({ targets: ['decider'], ban: ['GOAL_ADJUSTMENT'] })]);
    const decider = d.messages.find((m) => m.message_type === 'DECISION_DELIBERATION')!;
    expect(decider.metadata.directives).toEqual(['DIR-1']);
    const analyst = d.messages.find((m) => m.speaker === 'analyst' && m.phase === 2)!;
    expect(analyst.metadata.directives).toBeUndefined();
  });
});

describe("a directive's words on the rule-based decider", () => {
  it('closes an action a sentence denies, and weighs up one it names (an Inbox reply has only words)', () => {
    const never = run([dir({ targets: ['decider'], content: 'Never use GOAL_ADJUSTMENT for him.' })]);
    expect(typesOf(never.order)).not.toContain('GOAL_ADJUSTMENT');
    const ja = run([dir({ targets: ['all'], content: '目標の調整は使わないでください。' })]);
    expect(typesOf(ja.order)).not.toContain('GOAL_ADJUSTMENT');
    const training = run([dir({ targets: ['decider'], content: 'Please consider skill training.' })]);
    expect(typesOf(training.order)).toContain('SKILL_TRAINING');
    // Addressed to another agent, the words do not reach the decider.
    const elsewhere = run([dir({ targets: ['analyst'], content: 'Never use GOAL_ADJUSTMENT.' })]);
    expect(typesOf(elsewhere.order)).toContain('GOAL_ADJUSTMENT');
  });
});
