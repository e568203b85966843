// The discussion state machine: exactly the transitions its table allows; anything else throws.
import { describe, expect, it } from 'vitest';
import { canTransition, IllegalTransitionError, transition } from '../../../../src/core/discussion/state-machine.js';
import type { Status } from '../../../../src/core/types.js';

const STATUSES: Status[] = ['OPEN', 'IN_PROGRESS', 'VOTING', 'DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'];
const ALLOWED: Record<Status, Status[]> = {
  OPEN: ['IN_PROGRESS', 'TIMEOUT', 'CLOSED'],
  IN_PROGRESS: ['VOTING', 'ESCALATED', 'TIMEOUT'],
  VOTING: ['DECIDED', 'ESCALATED', 'TIMEOUT'],
  DECIDED: ['VOTING', 'ESCALATED', 'CLOSED'],
  ESCALATED: ['DECIDED', 'VOTING', 'CLOSED', 'TIMEOUT'],
  CLOSED: [],
  TIMEOUT: [],
};

describe('state machine', () => {
  it('allows exactly the listed transitions among all 49 pairs', () => {
    const got: string[] = [];
    for (const from of STATUSES) for (const to of STATUSES) if (canTransition(from, to)) got.push(`${from}→${to}`);
    const want = STATUSES.flatMap((from) => ALLOWED[from].map((to) => `${from}→${to}`));
    expect(got.sort()).toEqual(want.sort());
    expect(got).toHaveLength(16);
  });

  it('returns the new status for a legal transition', () => {
    for (const from of STATUSES) for (const to of ALLOWED[from]) expect(transition(from, to)).toBe(to);
  });

  it('throws an IllegalTransitionError naming both ends for anything else', () => {
    let n = 0;
    for (const from of STATUSES)
      for (const to of STATUSES) {
        if (ALLOWED[from].indexOf(to) >= 0) continue;
        n++;
        const e = (() => {
          try {
            transition(from, to);
          } catch (err) {
            return err;
          }
          throw new Error(`${from} → ${to} did not throw`);
        })();
        expect(e).toBeInstanceOf(IllegalTransitionError);
        expect(e).toMatchObject({ from, to, message: `illegal status transition ${from} → ${to}` });
      }
    expect(n).toBe(33);
  });

  it('never leaves a terminal status, and never skips the vote on the way to a decision', () => {
    expect(() => transition('CLOSED', 'OPEN')).toThrow('illegal status transition CLOSED → OPEN');
    expect(() => transition('TIMEOUT', 'DECIDED')).toThrow(IllegalTransitionError);
    expect(() => transition('IN_PROGRESS', 'DECIDED')).toThrow('illegal status transition IN_PROGRESS → DECIDED');
    expect(() => transition('OPEN', 'OPEN')).toThrow('illegal status transition OPEN → OPEN');
  });
});
