// The API clients' ledger as pure rules: the cap as tokens or a share, the reserve, holds used up by actual tokens.
import { describe, expect, it } from 'vitest';
import {
  addHold,
  admitSpend,
  budgetLimits,
  charge,
  compactSpend,
  emptySpend,
  holderOf,
  mayStillSpend,
  poolSpent,
  spendOf,
  spentBy,
} from '../../../../src/core/api/api-budget.js';
import type { RateLimitError } from '../../../../src/core/errors.js';
import { Settings } from '../../../../src/core/settings.js';

describe('the API clients’ ledger', () => {
  it('reads the cap as tokens or a share of the daily budget, and the pool as the budget less the reserve', () => {
    expect(budgetLimits(new Settings({}))).toEqual({ client: 200_000, pool: 1_000_000 });
    expect(budgetLimits(new Settings({ 'api.client_daily_tokens': '5000', 'budget.reserve_share': '0.8' }))).toEqual({
      client: 5000,
      pool: 400_000,
    });
    expect(budgetLimits(new Settings({ 'api.client_daily_tokens': '25 %' })).client).toBe(500_000);
  });

  it('counts a discussion at the larger of its forecast and its actual tokens, by the client that started it', () => {
    let s = addHold(emptySpend('2026-01-15'), 'DISC-1', 'alpha', 1000);
    expect(holderOf(s, 'DISC-1')).toBe('alpha');
    s = charge(s, 'alpha', 400, 'DISC-1');
    expect(spentBy(s, 'alpha')).toBe(1000);
    s = charge(s, 'alpha', 900, 'DISC-1');
    expect(spentBy(s, 'alpha')).toBe(1300);
    s = charge(s, 'beta', 50);
    expect([spentBy(s, 'beta'), poolSpent(s)]).toEqual([50, 1350]);
    // A name like __proto__ is a client like any other.
    s = charge(s, '__proto__', 7);
    expect(spentBy(s, '__proto__')).toBe(7);
    expect(spendOf(JSON.parse(JSON.stringify(s)), '2026-01-15')).toEqual(s);
    expect(spendOf(s, '2026-01-16')).toEqual(emptySpend('2026-01-16'));
  });

  it('admits while the client and all clients stay within their limits, else 429 budget_exceeded', () => {
    const limits = { client: 1000, pool: 1500 };
    const s = charge(charge(emptySpend('d'), 'alpha', 900), 'beta', 500);
    expect(() => admitSpend(s, 'alpha', 50, limits)).not.toThrow();
    const refuse = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return e as RateLimitError;
      }
      throw new Error('admitted');
    };
    expect(refuse(() => admitSpend(s, 'alpha', 200, limits)).code).toBe('budget_exceeded');
    expect(refuse(() => admitSpend(s, 'gamma', 200, limits)).message).toContain('budget.reserve_share');
    expect(mayStillSpend(s, 'alpha', limits)).toBe(true);
    expect(mayStillSpend(charge(s, 'alpha', 100), 'alpha', limits)).toBe(false);
  });
});

describe('holderOf', () => {
  it('charges a discussion to the newest client holding tokens on it, and keeps a used-up hold naming who pays', () => {
    let s = addHold(emptySpend('2026-01-15'), 'DISC-1', 'alpha', 100);
    // An objection by beta: its hold is newer, so the rerun is beta's.
    s = addHold(s, 'DISC-1', 'beta', 500);
    expect(holderOf(s, 'DISC-1')).toBe('beta');
    s = charge(s, 'beta', 600, 'DISC-1');
    expect([spentBy(s, 'alpha'), spentBy(s, 'beta')]).toEqual([100, 600]);
    // Both used up (alpha's by its own steps): the newest still names who pays for later steps.
    s = charge(s, 'alpha', 100, 'DISC-1');
    expect(holderOf(s, 'DISC-1')).toBe('beta');
    expect(holderOf(compactSpend(s, 7600), 'DISC-1')).toBe('beta');
  });
});

describe('compactSpend', () => {
  it('drops used-up holds and settles the oldest at their forecast until the ledger fits a property', () => {
    let s = emptySpend('2026-01-15');
    for (let i = 0; i < 400; i++)
      s = addHold(s, `DISC-2026-01-15-${String(i).padStart(3, '0')}`, `api:c${i % 3}`, 1000);
    s = charge(s, 'api:c0', 1000, 'DISC-2026-01-15-399');
    const before = spentBy(s, 'api:c0');
    const c = compactSpend(s, 7600);
    expect(new TextEncoder().encode(JSON.stringify(c)).length).toBeLessThanOrEqual(7600);
    expect(c.holds.length).toBeLessThan(400);
    // The used-up hold is gone; nothing is forgotten: each client's spend and the pool stay as they were.
    expect(c.holds.some((h) => h[0] === 'DISC-2026-01-15-399')).toBe(false);
    expect(spentBy(c, 'api:c0')).toBe(before);
    expect(poolSpent(c)).toBe(poolSpent(s));
    // The newest holds are kept, so their discussions are still charged their actual tokens.
    expect(holderOf(c, 'DISC-2026-01-15-398')).toBe('api:c2');
    expect(compactSpend(emptySpend('2026-01-15'), 7600)).toEqual(emptySpend('2026-01-15'));
  });
});
