// The watcher's plan for one decline: open, add evidence, or leave it to the discussion that has or had it.
import { describe, expect, it } from 'vitest';
import { phaseRequests } from '../../../../src/core/engine.js';
import { type Decline, declineOf } from '../../../../src/core/orders/kpi.js';
import {
  evidenceForRediscussion,
  type KnownDiscussion,
  planWatch,
  seenUpTo,
} from '../../../../src/core/orders/watch-plan.js';
import { newDiscussion, runToRest, testEnv } from '../env.js';

const points = (values: number[], from = 1) =>
  values.map((value, i) => ({ date: `2026-01-${String(from + i).padStart(2, '0')}`, value }));

// 12 on the 10th, then falls from the 11th to the 14th.
const DECLINE = declineOf(points([11, 9, 12, 10, 8, 6, 5], 8), 3, 0.3) as Decline;

function known(over: Partial<KnownDiscussion> = {}): KnownDiscussion {
  return {
    discussion_id: 'DISC-2026-01-14-001',
    status: 'DECIDED',
    trigger_type: 'kpi_decline',
    member: 'tanaka',
    context: { metric: 'contacts', last_date: '2026-01-13' },
    execution_status: 'PENDING',
    notes: [],
    ...over,
  };
}

const plan = (k: KnownDiscussion[], queued?: string, d: Decline = DECLINE) =>
  planWatch('kpi_decline', 'tanaka', 'contacts', d, '田中さんのcontactsが4日連続低下', queued, k);

describe('declineOf', () => {
  it('names the run by its first day of falling and its last day', () => {
    expect(DECLINE).toEqual({
      run: 4,
      change: { from: 12, to: 5, ratio: -7 / 12, days: 4 },
      start: '2026-01-11',
      last: '2026-01-14',
    });
    expect(declineOf(points([12, 10, 11]), 1, 0.3)).toBeNull();
    expect(declineOf(points([12, 11, 10, 9]), 3, 0.3)).toBeNull();
  });
});

describe('planWatch', () => {
  it('opens a discussion when nothing holds the decline, and leaves it to a request still queued', () => {
    expect(plan([])).toEqual({ kind: 'open' });
    expect(plan([known()], 'Q-7')).toEqual({ kind: 'queued', task_id: 'Q-7' });
  });

  it('adds a day the open discussion has not seen as evidence, for a re-discussion until the order is carried out', () => {
    const note =
      'evidence 2026-01-14 (watcher, for re-discussion): 田中さんのcontactsが4日連続低下 (12 → 5, since 2026-01-11)';
    expect(plan([known()])).toEqual({ kind: 'evidence', discussion_id: 'DISC-2026-01-14-001', note });
    for (const execution_status of ['', 'NOT_STARTED', 'PENDING', 'ACKNOWLEDGED'])
      expect(plan([known({ execution_status })])).toMatchObject({ note });
    for (const execution_status of ['IN_PROGRESS', 'DONE', 'FAILED', 'PROVISIONAL'])
      expect(plan([known({ execution_status })])).toMatchObject({
        note: note.replace('for re-discussion', 'after execution'),
      });
    // Any open status holds it; so does a context that names no metric (a person's request about the member).
    for (const status of ['OPEN', 'IN_PROGRESS', 'VOTING', 'ESCALATED'])
      expect(plan([known({ status })]).kind).toBe('evidence');
    expect(plan([known({ context: {} })]).kind).toBe('evidence');
  });

  it('adds nothing the discussion has seen: its trigger day, the day before it opened, an evidence line', () => {
    expect(plan([known({ context: { metric: 'contacts', last_date: '2026-01-14' } })])).toEqual({
      kind: 'seen',
      discussion_id: 'DISC-2026-01-14-001',
    });
    expect(plan([known({ discussion_id: 'DISC-2026-01-15-001', context: { metric: 'contacts' } })]).kind).toBe('seen');
    expect(plan([known({ discussion_id: 'DISC-2026-01-14-001', context: { metric: 'contacts' } })]).kind).toBe(
      'evidence',
    );
    const noted = known({ notes: ['usage: tokens=1', 'evidence 2026-01-14 (watcher, for re-discussion): …'] });
    expect(seenUpTo(noted)).toBe('2026-01-14');
    expect(plan([noted]).kind).toBe('seen');
  });

  it('never reopens a decline run a closed discussion answered; a new run, or a timed-out one, opens again', () => {
    // Closed, opened on or after the run's first day of falling: this run was discussed.
    for (const id of ['DISC-2026-01-11-001', 'DISC-2026-01-14-002', 'DISC-2026-01-30-001'])
      expect(plan([known({ discussion_id: id, status: 'CLOSED' })])).toEqual({ kind: 'discussed', discussion_id: id });
    // Closed before the run began: that was an earlier decline.
    expect(plan([known({ discussion_id: 'DISC-2026-01-10-001', status: 'CLOSED' })])).toEqual({ kind: 'open' });
    // A discussion that timed out never answered.
    expect(plan([known({ status: 'TIMEOUT' })])).toEqual({ kind: 'open' });
  });

  it('looks only at the same member, trigger type and metric, and gives evidence to the newest open discussion', () => {
    expect(plan([known({ member: 'sato' })]).kind).toBe('open');
    expect(plan([known({ trigger_type: 'api_request' })]).kind).toBe('open');
    expect(plan([known({ context: { metric: 'revenue' } })]).kind).toBe('open');
    const older = known({ discussion_id: 'DISC-2026-01-12-001' });
    const newer = known({ discussion_id: 'DISC-2026-01-13-001' });
    expect(plan([newer, older])).toMatchObject({ kind: 'evidence', discussion_id: 'DISC-2026-01-13-001' });
    expect(plan([older, newer])).toMatchObject({ kind: 'evidence', discussion_id: 'DISC-2026-01-13-001' });
  });
});

describe('evidence in a re-discussion', () => {
  it('gives every later prompt the evidence lines added for a re-discussion, not the ones after execution', () => {
    const env = testEnv();
    const run = runToRest(newDiscussion(), env);
    const forRe = 'evidence 2026-01-16 (watcher, for re-discussion): contacts fell 5 days in a row (12 → 3)';
    const after = 'evidence 2026-01-17 (watcher, after execution): contacts fell 6 days in a row (12 → 2)';
    const notes = ['usage: tokens=1', forRe, after];
    expect(evidenceForRediscussion(notes)).toEqual([forRe]);
    const [decider] = phaseRequests({ ...run.d, notes }, env, 5);
    expect(decider.context.dataNotes).toEqual([forRe]);
    expect(decider.shared).toContain(`<data name="data_notes">\n["${forRe}"]\n</data>`);
    expect(phaseRequests(run.d, env, 5)[0].shared).not.toContain('data_notes');
  });
});
