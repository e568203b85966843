// Learned trust: a new agent or context is neutral, evidence moves a context away from the agent's overall figure
// by its weight, the state is versioned, and it stays within one Script Property.
import { describe, expect, it } from 'vitest';
import { StateError } from '../../../../src/core/errors.js';
import { MAX_PROPERTY_BYTES } from '../../../../src/core/property-size.js';
import {
  emptyTrust,
  memberRecord,
  overallReliability,
  parseTrust,
  bestBets,
  recordAdjustment,
  recordVerdict,
  reliabilityOf,
  type TrustEvent,
  type TrustState,
  trustValue,
} from '../../../../src/core/memory/trust.js';

const KEY = 'KAIGI_TRUST';
const ctx = { member: 'aoki', trigger: 'kpi_decline', action: 'GOAL_ADJUSTMENT' };

function event(agent: string, over: Partial<TrustEvent> = {}): TrustEvent {
  return { agent, ...ctx, carried: true, confirmed: true, stated: 0.7, right: true, ...over };
}

// n verdicts on one agent's recommendation, `ok` of them confirmed, in context `c`.
function verdicts(state: TrustState, agent: string, c: Partial<TrustEvent>, ok: number, n: number): TrustState {
  let s = state;
  for (let i = 0; i < n; i++) {
    const confirmed = i < ok;
    s = recordVerdict(s, [event(agent, { ...c, confirmed, right: confirmed })], c.member ?? 'aoki', [], confirmed);
  }
  return s;
}

describe('learned reliability', () => {
  it('starts neutral: a new agent, and a new context of a known agent, read the prior or the overall figure', () => {
    expect(reliabilityOf(emptyTrust(), 'coaching', ctx)).toBe(0.5);
    const s = verdicts(emptyTrust(), 'coaching', { member: 'baba' }, 6, 8);
    const overall = overallReliability(s, 'coaching');
    expect(overall).toBeCloseTo(7 / 10, 5);
    // Another member, trigger and action than any seen: exactly the overall figure.
    expect(reliabilityOf(s, 'coaching', { member: 'new', trigger: 'manual', action: 'REST_RECOMMENDATION' })).toBe(
      Math.round(overall * 1000) / 1000,
    );
  });

  it('moves a context by its evidence, shrunk toward the overall figure', () => {
    // Confirmed for baba ten times, rejected for aoki ten times: overall about a half.
    let s = verdicts(emptyTrust(), 'coaching', { member: 'baba' }, 10, 10);
    s = verdicts(s, 'coaching', { member: 'aoki' }, 0, 10);
    const aoki = reliabilityOf(s, 'coaching', { ...ctx, member: 'aoki' });
    const baba = reliabilityOf(s, 'coaching', { ...ctx, member: 'baba' });
    expect(overallReliability(s, 'coaching')).toBeCloseTo(0.5, 5);
    expect(aoki).toBeLessThan(0.25);
    expect(baba).toBeGreaterThan(0.75);
    // One verdict moves a context less than ten do.
    const one = verdicts(emptyTrust(), 'coaching', { member: 'aoki' }, 0, 1);
    const few = reliabilityOf(one, 'coaching', { ...ctx, member: 'new' });
    expect(reliabilityOf(one, 'coaching', ctx)).toBeLessThan(few);
    expect(reliabilityOf(one, 'coaching', ctx)).toBeGreaterThan(aoki);
  });

  it('counts only an action carried out; calibration bins count every scored opinion', () => {
    const s = recordVerdict(
      emptyTrust(),
      [event('psychology', { carried: false, right: false, stated: 0.81 })],
      'aoki',
      [],
      true,
    );
    expect(s.agents.psychology.all).toEqual([0, 0]);
    expect(s.agents.psychology.bins[8]).toEqual([0, 1]);
  });

  it("keeps each member's record of what was tried, recent verdicts weighing most", () => {
    let s = recordVerdict(emptyTrust(), [], 'aoki', ['PRAISE_INCREASE'], false);
    s = recordVerdict(s, [], 'aoki', ['PRAISE_INCREASE', 'ONE_ON_ONE'], true);
    expect(memberRecord(s, 'aoki')).toEqual([
      { action_type: 'ONE_ON_ONE', confirmed: 1, rejected: 0 },
      { action_type: 'PRAISE_INCREASE', confirmed: 1, rejected: 0.9 },
    ]);
    expect(memberRecord(s, 'nobody')).toEqual([]);
  });

  it('does not count out, after one rejection, an action that also worked (lose-shift needs a record)', () => {
    const record = [
      { action_type: 'ONE_ON_ONE', confirmed: 1, rejected: 1 },
      { action_type: 'GOAL_ADJUSTMENT', confirmed: 0, rejected: 2 },
      { action_type: 'PRAISE_INCREASE', confirmed: 2, rejected: 0 },
    ];
    const usual = 0.35;
    expect(recordAdjustment('ONE_ON_ONE', record, usual)).toBeGreaterThan(-0.3);
    expect(recordAdjustment('GOAL_ADJUSTMENT', record, usual)).toBeLessThanOrEqual(-0.3);
    expect(recordAdjustment('PRAISE_INCREASE', record, usual)).toBeGreaterThanOrEqual(0.3);
    expect(recordAdjustment('SKILL_TRAINING', record, usual)).toBe(0);
    // One confirmation keeps an action; one rejection alone does not count it out.
    expect(recordAdjustment('X', [{ action_type: 'X', confirmed: 1, rejected: 0 }], usual)).toBeGreaterThanOrEqual(0.3);
    expect(recordAdjustment('X', [{ action_type: 'X', confirmed: 0, rejected: 1 }], usual)).toBeGreaterThan(-0.3);
  });
});

describe('the stored state', () => {
  it('round-trips, reads empty as nothing learned, and refuses another version or a malformed value', () => {
    const s = verdicts(emptyTrust(), 'coaching', {}, 2, 3);
    expect(parseTrust(trustValue(s, KEY), KEY)).toEqual(s);
    expect(parseTrust(null, KEY)).toEqual(emptyTrust());
    expect(parseTrust('', KEY)).toEqual(emptyTrust());
    expect(() => parseTrust(JSON.stringify({ ...s, v: 2 }), KEY)).toThrow(StateError);
    expect(() => parseTrust(JSON.stringify({ agents: {}, members: {} }), KEY)).toThrow(/format undefined/);
    expect(() => parseTrust('{', KEY)).toThrow(/not JSON/);
    const broken = JSON.parse(trustValue(s, KEY)) as { agents: { coaching: { all: unknown } } };
    broken.agents.coaching.all = [1];
    expect(() => parseTrust(JSON.stringify(broken), KEY)).toThrow(/agent coaching/);
  });

  it('stays within one property, dropping the member contexts with the least evidence first', () => {
    let s = emptyTrust();
    for (let m = 0; m < 60; m++)
      for (const agent of ['analyst', 'psychology', 'neuroscience', 'coaching', 'sales_strategy', 'wellbeing'])
        s = verdicts(s, agent, { member: `member-${m}`, action: `ACTION_${m % 7}` }, m % 3, 1 + (m % 4));
    const value = trustValue(s, KEY);
    expect(value.length + KEY.length).toBeLessThanOrEqual(MAX_PROPERTY_BYTES);
    const kept = parseTrust(value, KEY);
    // The overall figures are all kept.
    for (const a of Object.keys(s.agents)) expect(kept.agents[a].all).toEqual(s.agents[a].all);
    expect(Object.keys(kept.agents.coaching.ctx).length).toBeLessThan(Object.keys(s.agents.coaching.ctx).length);
  });
});

describe("the member's best bets", () => {
  const allow = ['GOAL_ADJUSTMENT', 'PRAISE_INCREASE', 'ONE_ON_ONE', 'PEER_SUPPORT'];
  const line = (action_type: string, confirmed: number, rejected: number) => ({ action_type, confirmed, rejected });
  const votes: Record<string, number> = { GOAL_ADJUSTMENT: 0.6, PRAISE_INCREASE: 0.3, ONE_ON_ONE: 0.1 };
  const score = (a: string) => votes[a] ?? 0;

  it('with no record, follows the vote, an action nobody voted for last', () => {
    expect(bestBets(allow, score, [], 4)).toEqual(['GOAL_ADJUSTMENT', 'PRAISE_INCREASE', 'ONE_ON_ONE', 'PEER_SUPPORT']);
  });

  it('keeps what worked (win-stay) and lets what only failed give way (lose-shift), the vote still counting', () => {
    // PRAISE_INCREASE worked once: ahead of the vote's favourite; PEER_SUPPORT, which nobody voted for, needs two.
    expect(bestBets(allow, score, [line('PRAISE_INCREASE', 1, 0)], 3)).toEqual([
      'PRAISE_INCREASE',
      'GOAL_ADJUSTMENT',
      'ONE_ON_ONE',
    ]);
    expect(bestBets(allow, score, [line('PEER_SUPPORT', 1, 0)], 1)).toEqual(['GOAL_ADJUSTMENT']);
    expect(bestBets(allow, score, [line('PEER_SUPPORT', 2, 0)], 1)).toEqual(['PEER_SUPPORT']);
    // The vote's favourite failed once: it falls behind the untried ones the vote backs, not behind the unvoted one.
    expect(bestBets(allow, score, [line('GOAL_ADJUSTMENT', 0, 1)], 4)).toEqual([
      'PRAISE_INCREASE',
      'GOAL_ADJUSTMENT',
      'ONE_ON_ONE',
      'PEER_SUPPORT',
    ]);
    // Failed twice: behind everything untried.
    expect(bestBets(allow, score, [line('GOAL_ADJUSTMENT', 0, 2)], 4).pop()).toBe('GOAL_ADJUSTMENT');
    // A confirmation and a rejection cancel: the vote decides again.
    expect(bestBets(allow, score, [line('ONE_ON_ONE', 1, 1)], 1)).toEqual(['GOAL_ADJUSTMENT']);
  });
});
