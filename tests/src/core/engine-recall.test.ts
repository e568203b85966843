// Recall that pays (issue 26): which calls of a discussion are given the retrieved learnings, cases and next actions.
import { describe, expect, it } from 'vitest';
import type { AgentMemory } from '../../../src/core/memory/memory.js';
import { ScriptedProvider } from '../../../src/core/providers/scripted.js';
import { emptyTrust, recordVerdict } from '../../../src/core/memory/trust.js';
import { fullScript } from './answers.js';
import { newDiscussion, runToRest, testEnv } from './env.js';

const MEMBER = newDiscussion().trigger.target_user_id;

// Every agent is offered the same memory: an individual and a shared learning, a case about the member under
// discussion and one about someone else, and a next action.
const MEMORY: AgentMemory = {
  learnings: [
    { id: 'LRN-1', scope: 'individual', content: 'own lesson', confidence: 0.6 },
    { id: 'LRN-2', scope: 'shared', content: 'team lesson', confidence: 0.6 },
  ],
  cases: [
    {
      id: 'LRN-3',
      content: 'same member',
      actions: ['ONE_ON_ONE'],
      verdict: 'rejected',
      similarity: 1,
      member: MEMBER,
    },
    {
      id: 'LRN-4',
      content: 'other member',
      actions: ['REST_RECOMMENDATION'],
      verdict: 'confirmed',
      similarity: 0.9,
      member: 'zz',
    },
  ],
  nextActions: ['check overtime first'],
  directives: [],
};

function requests(withRecord: boolean) {
  const p = new ScriptedProvider(fullScript());
  const trust = recordVerdict(
    emptyTrust(),
    [
      {
        agent: 'analyst',
        member: MEMBER,
        trigger: 'kpi_decline',
        action: 'ONE_ON_ONE',
        carried: true,
        stated: 0.7,
        confirmed: false,
        right: false,
      },
    ],
    MEMBER,
    ['ONE_ON_ONE'],
    false,
  );
  const env = testEnv({ provider: p, memoryFor: () => MEMORY });
  runToRest(newDiscussion(), withRecord ? { ...env, trust: () => trust } : env);
  const of = (phase: number) => p.requests.filter((r) => r.phase === phase).map((r) => r.context.memory!);
  return { of, decider: p.requests.find((r) => r.expect === 'DECISION')!.context.memory! };
}

const ids = (m: AgentMemory) => [...m.learnings.map((l) => l.id), ...m.cases.map((c) => c.id)];

describe('who is given what memory recalls', () => {
  it('gives Phase 1 and the balancers and governance no retrieved text and no next actions', () => {
    const { of } = requests(true);
    for (const phase of [1, 3, 4]) {
      expect(of(phase).length).toBeGreaterThan(0);
      for (const m of of(phase)) expect([ids(m), m.nextActions]).toEqual([[], []]);
    }
  });

  it('gives a specialist its own learnings, every case and its next actions, not the shared learnings', () => {
    const { of } = requests(true);
    for (const m of of(2))
      expect([ids(m), m.nextActions]).toEqual([['LRN-1', 'LRN-3', 'LRN-4'], ['check overtime first']]);
  });

  it("gives the decider the shared learnings, and the member's cases only while it has no record of the member", () => {
    expect(ids(requests(true).decider)).toEqual(['LRN-1', 'LRN-2', 'LRN-4']);
    expect(ids(requests(false).decider)).toEqual(['LRN-1', 'LRN-2', 'LRN-3', 'LRN-4']);
  });
});
