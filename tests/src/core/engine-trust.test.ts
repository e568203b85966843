// Learned trust in a scripted discussion: the specialists' answers are fixed, the rule-based decider counts, and
// the verdicts behind each agent's learned reliability move the decision the way they say.
import { describe, expect, it } from 'vitest';
import type { ContentOf } from '../../../src/core/discussion/messages.js';
import { ScriptedProvider } from '../../../src/core/providers/scripted.js';
import { RulesProvider } from '../../../src/core/providers/rules.js';
import { emptyTrust, recordVerdict, type TrustState } from '../../../src/core/memory/trust.js';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.js';
import { fullScript } from './answers.js';
import { newDiscussion, NOW_ISO, runToRest, testEnv } from './env.js';

// Five specialists say GOAL_ADJUSTMENT, three say PRAISE_INCREASE, all at 0.8.
const GOAL = ['analyst', 'coaching', 'sales_strategy', 'behavioral_econ', 'organization'];
const types: Record<string, string> = Object.fromEntries(GOAL.map((a) => [a, 'GOAL_ADJUSTMENT']));

// For tanaka, the GOAL_ADJUSTMENT voices were rejected `n` times, the PRAISE_INCREASE ones confirmed `n` times.
function learned(n: number): TrustState {
  let s = emptyTrust();
  const base = { member: 'tanaka', trigger: 'kpi_decline', carried: true, stated: 0.8 };
  for (let i = 0; i < n; i++) {
    s = recordVerdict(
      s,
      GOAL.map((agent) => ({ ...base, agent, action: 'GOAL_ADJUSTMENT', confirmed: false, right: false })),
      'elsewhere',
      [],
      false,
    );
    s = recordVerdict(
      s,
      ['psychology', 'neuroscience', 'wellbeing'].map((agent) => ({
        ...base,
        agent,
        action: 'PRAISE_INCREASE',
        confirmed: true,
        right: true,
      })),
      'elsewhere',
      [],
      true,
    );
  }
  return s;
}

// The same reliabilities with the reliability bins emptied: the stated confidences then recalibrate alike for every
// agent (the team's curve, neutral), so only the learned weights can move the decision.
function withoutBins(s: TrustState): TrustState {
  const agents = Object.fromEntries(
    Object.entries(s.agents).map(([k, a]) => [k, { ...a, bins: a.bins.map((): [number, number] => [0, 0]) }]),
  );
  return { ...s, agents };
}

function deliberation(trust: TrustState | undefined, settings: Record<string, string> = {}) {
  const rules = new RulesProvider(() => Date.parse(NOW_ISO));
  const script = new ScriptedProvider(fullScript(types), { order: 'per-agent' });
  const env = testEnv({
    provider: (a) => (a.group === 'decider' ? rules : script),
    // Learned weights on unless a test says otherwise: the setting ships off, and these tests are about its use.
    settings: { locale: 'en', 'learning.reliability_weights': 'true', ...settings },
  });
  const run = runToRest(newDiscussion(), trust ? { ...env, trust: () => trust } : env);
  const m = run.d.messages.find((x) => x.message_type === 'DECISION_DELIBERATION')!;
  return m.content as ContentOf<'DECISION_DELIBERATION'>;
}

const score = (d: ContentOf<'DECISION_DELIBERATION'>, a: string) => d.votes.find((v) => v.action_type === a)!.score;

describe('learned reliability in the decision', () => {
  it('with nothing learned, the majority wins and every agent shows a neutral 0.5', () => {
    const d = deliberation(undefined);
    expect(score(d, 'GOAL_ADJUSTMENT')).toBeGreaterThan(score(d, 'PRAISE_INCREASE'));
    expect(d.selected_action_types[0]).toBe('GOAL_ADJUSTMENT');
    expect(d.weight_assignment.map((w) => w.learned_reliability)).toEqual(Array(8).fill(0.5));
    expect(d.weight_assignment[0]).toMatchObject({ stated_confidence: 0.8, computed_confidence: expect.any(Number) });
  });

  it('computes confidence by the factor formula until the team has MIN_CALIBRATION scored opinions, then recalibrates', () => {
    const computed = (d: ContentOf<'DECISION_DELIBERATION'>) => d.weight_assignment.map((w) => w.computed_confidence);
    // Memory on but nothing scored yet: every opinion reads even odds (UNPROVEN_CONFIDENCE), the formula's figure
    // kept in the message's metadata for the feedback round; without memory, the formula as it is.
    const formula = computed(deliberation(undefined));
    expect(formula.some((c) => c! !== 0.5)).toBe(true);
    expect(computed(deliberation(emptyTrust()))).toEqual(formula.map(() => 0.5));
    // Six verdicts scored for eight agents: the GOAL_ADJUSTMENT voices, rejected at 0.8 each time, now read lower.
    const after = deliberation(learned(6));
    const before = deliberation(undefined);
    const goal = (d: ContentOf<'DECISION_DELIBERATION'>) => d.weight_assignment.find((w) => w.agent_id === 'coaching')!;
    expect(goal(after).computed_confidence!).toBeLessThan(goal(before).computed_confidence!);
  });

  it('after verdicts against the majority for this member, the agents who were right outweigh it', () => {
    const d = deliberation(learned(6));
    expect(score(d, 'PRAISE_INCREASE')).toBeGreaterThan(score(d, 'GOAL_ADJUSTMENT'));
    expect(d.selected_action_types[0]).toBe('PRAISE_INCREASE');
    const r = Object.fromEntries(d.weight_assignment.map((w) => [w.agent_id, w.learned_reliability!]));
    expect(r.psychology).toBeGreaterThan(0.5);
    expect(r.coaching).toBeLessThan(0.5);
  });

  it('with learning.reliability_weights off, shows the learned figures and does not use them', () => {
    expect(deliberation(withoutBins(learned(6))).selected_action_types[0]).toBe('PRAISE_INCREASE');
    const d = deliberation(withoutBins(learned(6)), { 'learning.reliability_weights': 'false' });
    expect(d.selected_action_types[0]).toBe('GOAL_ADJUSTMENT');
    expect(d.weight_assignment.find((w) => w.agent_id === 'coaching')!.learned_reliability).toBeLessThan(0.5);
  });

  it('ships with learning.reliability_weights off: the learned figures are shown and not used', () => {
    const shipped = DEFAULT_SETTINGS.find((x) => x.key === 'learning.reliability_weights')!.value;
    expect(shipped).toBe('false');
    const d = deliberation(withoutBins(learned(6)), { 'learning.reliability_weights': shipped });
    expect(d.selected_action_types[0]).toBe('GOAL_ADJUSTMENT');
  });

  it('with memory off, nothing learned is used or shown', () => {
    const d = deliberation(learned(6), { 'memory.enabled': 'false' });
    expect(d.selected_action_types[0]).toBe('GOAL_ADJUSTMENT');
    expect(d.weight_assignment.map((w) => w.learned_reliability)).toEqual(Array(8).fill(0.5));
  });

  it("fills a member's first order (memory on, no record yet) to three actions by the vote; not without memory", () => {
    const without = deliberation(undefined).selected_action_types;
    expect(without).toEqual(['GOAL_ADJUSTMENT', 'PRAISE_INCREASE']);
    const first = deliberation(emptyTrust()).selected_action_types;
    expect(first).toHaveLength(3);
    expect(first.slice(0, 2)).toEqual(without);
    // Once the member has a record, the three best bets: the confirmed action is kept, first.
    const s = recordVerdict(emptyTrust(), [], 'tanaka', ['GOAL_ADJUSTMENT'], true);
    const kept = deliberation(s).selected_action_types;
    expect(kept[0]).toBe('GOAL_ADJUSTMENT');
    expect(kept).toHaveLength(3);
  });

  it('after a rejected order for this member, the best bets: what also worked before what only failed', () => {
    // Tanaka: SKILL_TRAINING once confirmed, then SKILL_TRAINING with GOAL_ADJUSTMENT rejected.
    let s = recordVerdict(emptyTrust(), [], 'tanaka', ['SKILL_TRAINING'], true);
    s = recordVerdict(s, [], 'tanaka', ['SKILL_TRAINING', 'GOAL_ADJUSTMENT'], false);
    const before = deliberation(undefined).selected_action_types;
    expect(before.length).toBeLessThan(3);
    expect(before).not.toContain('SKILL_TRAINING');
    const after = deliberation(s);
    expect(after.selected_action_types).toHaveLength(3);
    expect(after.selected_action_types).toContain('SKILL_TRAINING');
    expect(after.member_record).toEqual([
      { action_type: 'GOAL_ADJUSTMENT', confirmed: 0, rejected: 1 },
      { action_type: 'SKILL_TRAINING', confirmed: 0.9, rejected: 1 },
    ]);
  });
});
