// The rule-based council's use of case memory: what failed for this member is left out, what worked for them is
// kept (win-stay, lose-shift), a case about someone else counts a quarter, and stated confidence follows the cases.
import { describe, expect, it } from 'vitest';
import { label } from '../../../src/core/labels.js';
import type { AgentMemory } from '../../../src/core/memory/memory.js';
import type { ContentOf } from '../../../src/core/discussion/messages.js';
import { newDiscussion, runToRest, testEnv } from './env.js';

type Case = AgentMemory['cases'][number];

function run(cases: Case[]) {
  const memoryFor = () => ({ learnings: [], cases, nextActions: [], directives: [] });
  const r = runToRest(newDiscussion(), testEnv({ memoryFor }));
  const order = r.d.final_decision as { actions: { action_type: string }[] };
  const deliberation = r.d.messages.find((m) => m.message_type === 'DECISION_DELIBERATION')!;
  const opinions = Object.fromEntries(
    r.d.messages
      .filter((m) => m.message_type === 'SPECIALIST_OPINION')
      .map((m) => {
        const c = m.content as ContentOf<'SPECIALIST_OPINION'>;
        return [m.speaker, { action: c.recommendation.action_type, confidence: c.confidence }];
      }),
  );
  return { actions: order.actions.map((a) => a.action_type), text: JSON.stringify(deliberation.content), opinions };
}

const aCase = (actions: string[], verdict: string, member = 'tanaka', similarity = 0.9): Case => ({
  id: `LRN-${actions.join('-')}-${verdict}-${member}`,
  content: 'a past case',
  actions,
  verdict,
  similarity,
  recency: 1,
  member,
});

describe('case memory in the rule-based council', () => {
  const base = run([]);

  it('leaves out an action that was rejected for this member, and says so', () => {
    const top = base.actions[0];
    const after = run([aCase([top], 'rejected')]);
    expect(after.actions).not.toContain(top);
    expect(after.actions.length).toBeGreaterThan(0);
    expect(after.text).toContain(`Avoiding ${label('action_type', top, 'en')}, which did not work for this member`);
  });

  it('keeps in the order an action that was confirmed for this member, though few recommend it', () => {
    const other = ['PEER_SUPPORT', 'MESSAGE_TIMING', 'REST_RECOMMENDATION', 'SKILL_TRAINING'].find(
      (a) => base.actions.indexOf(a) < 0,
    )!;
    expect(run([aCase([other], 'confirmed')]).actions).toContain(other);
  });

  it('counts a case about another member a quarter: one rejection elsewhere does not rule an action out', () => {
    const top = base.actions[0];
    const after = run([aCase([top], 'rejected', 'suzuki')]);
    expect(after.actions).toContain(top);
    expect(after.text).not.toContain('Avoiding');
  });

  it('moves a specialist’s stated confidence by its cases: up when confirmed, down when rejected', () => {
    const [who, o] = Object.entries(base.opinions).find(([k]) => k !== 'analyst')!;
    const up = run([aCase([o.action], 'confirmed')]).opinions[who].confidence;
    const down = run([aCase([o.action], 'rejected')]).opinions[who].confidence;
    expect(up).toBeCloseTo(Math.min(0.95, o.confidence + 0.09), 5);
    expect(down).toBeCloseTo(Math.max(0.05, o.confidence - 0.09), 5);
  });
});
