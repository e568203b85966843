// The retention plan: whole settled discussions past every member's period, orphans on their own, the Audit prefix,
// the oldest first over the cell threshold, a pending batch first, and the Overflow values that follow.
import { describe, expect, it } from 'vitest';
import {
  addYears,
  batches,
  blobsToMove,
  type DiscussionLine,
  type Line,
  planRetention,
  type RetentionInput,
} from '../../../../src/core/audit/retention-plan.js';

const Y = (n: number) => Date.UTC(2020 + n, 0, 1);
const YEARS = { discussions: 3, messages: 3, orders: 5, objections: 3, outcomes: 3, audit: 5 };
const WIDTHS = { discussions: 14, messages: 18, orders: 10, objections: 14, outcomes: 12, audit: 9 };

function discussion(row: number, id: string, at: number, status = 'CLOSED'): DiscussionLine {
  return { row, key: id, discussion: id, status, at };
}

function line(row: number, key: string, discussion: string, at: number | null): Line {
  return { row, key, discussion, at };
}

function input(o: Partial<RetentionInput>): RetentionInput {
  return {
    now: Y(0),
    years: YEARS,
    discussions: [],
    messages: [],
    orders: [],
    objections: [],
    outcomes: [],
    audit: [],
    cells: { used: 0, limit: 10_000_000, threshold: 0.8 },
    widths: WIDTHS,
    ...o,
  };
}

const ids = (p: ReturnType<typeof planRetention>) => p.units.map((u) => u.id);

describe('retention periods', () => {
  const base = {
    discussions: [discussion(2, 'D1', Y(0)), discussion(3, 'D2', Y(1)), discussion(4, 'D3', Y(0), 'DECIDED')],
    messages: [line(2, 'M1', 'D1', Y(0)), line(3, 'M1#1', 'D1', Y(0)), line(4, 'M2', 'D2', Y(1))],
    orders: [line(2, 'O1', 'D1', Y(0))],
    objections: [line(2, 'B1', 'D1', Y(0))],
    outcomes: [line(2, 'U1', 'D1', Y(0)), line(3, 'U2', 'D2', Y(1))],
  };

  it('keeps a closed discussion until every row of it is past its own period (orders: 5 years)', () => {
    expect(ids(planRetention(input({ ...base, now: Y(4) - 1 })))).toEqual([]);
    expect(ids(planRetention(input({ ...base, now: Y(4) })))).toEqual(['D2']);
    const p = planRetention(input({ ...base, now: Y(5) }));
    expect(ids(p)).toEqual(['D1', 'D2']);
    const d1 = p.units[0];
    expect(d1.reason).toBe('retention');
    expect(d1.rows.messages.map((l) => l.key)).toEqual(['M1', 'M1#1']);
    expect(d1.rows.orders.map((l) => l.key)).toEqual(['O1']);
    expect(d1.rows.objections.map((l) => l.key)).toEqual(['B1']);
    expect(d1.rows.outcomes.map((l) => l.key)).toEqual(['U1']);
  });

  it('never moves a discussion that is not settled, however old', () => {
    const p = planRetention(input({ ...base, now: Y(30) }));
    expect(ids(p)).toEqual(['D1', 'D2']);
  });

  it('moves a row whose discussion is no longer in the spreadsheet on its own period', () => {
    const p = planRetention(
      input({
        now: Y(4),
        orders: [line(5, 'O9', 'GONE', Y(0)), line(6, 'O8', 'GONE', null)],
        objections: [line(3, 'B9', 'GONE', Y(0))],
      }),
    );
    expect(ids(p)).toEqual(['objections:B9']);
    expect(ids(planRetention(input({ now: Y(5), orders: [line(5, 'O9', 'GONE', Y(0))] })))).toEqual(['orders:O9']);
  });

  it('retires the Audit rows past five years as a prefix, and always keeps the newest', () => {
    const audit = [1, 2, 3, 4].map((seq) => ({ row: seq + 1, seq, at: Y(seq - 1) }));
    expect(planRetention(input({ now: Y(6), audit })).audit).toBe(2);
    expect(planRetention(input({ now: Y(50), audit })).audit).toBe(3);
    // A row without a readable date stops the prefix.
    const broken = [audit[0], { row: 3, seq: 2, at: null }, audit[2], audit[3]];
    expect(planRetention(input({ now: Y(50), audit: broken })).audit).toBe(1);
  });

  it('says when the next row can come due', () => {
    const p = planRetention(input({ ...base, now: Y(4) - 1 }));
    expect(p.nextDue).toBe(addYears(Y(1), 3));
    const later = planRetention(input({ ...base, now: Y(4) }));
    expect(later.nextDue).toBe(addYears(Y(0), 5));
  });
});

describe('over the cell threshold', () => {
  it('moves the oldest settled units and Audit rows, merged by age, until the spreadsheet is under it', () => {
    const discussions = [
      discussion(2, 'D1', Y(0) + 10),
      discussion(3, 'D2', Y(0) + 20, 'ESCALATED'),
      discussion(4, 'D3', Y(0) + 30),
    ];
    const messages = [line(2, 'M1', 'D1', Y(0)), line(3, 'M3', 'D3', Y(0))];
    const audit = [
      { row: 2, seq: 1, at: Y(0) },
      { row: 3, seq: 2, at: Y(0) + 15 },
      { row: 4, seq: 3, at: Y(0) + 40 },
    ];
    // 1 cell over: the oldest thing, Audit seq 1, frees 9 cells.
    const limit = 1000;
    const one = planRetention(
      input({ now: Y(1), discussions, messages, audit, cells: { used: 801, limit, threshold: 0.8 } }),
    );
    expect([ids(one), one.audit, one.auditReason]).toEqual([[], 1, 'cells']);
    // 50 over: seq 1 (9 cells), D1 (14 + 18), seq 2 (9), by age; D2 is not settled and is passed over.
    const more = planRetention(
      input({ now: Y(1), discussions, messages, audit, cells: { used: 850, limit, threshold: 0.8 } }),
    );
    expect([ids(more), more.audit]).toEqual([['D1'], 2]);
    expect(more.units[0].reason).toBe('cells');
    expect(more.cells).toEqual({ before: 850, after: 800, over: 0 });
    // Everything movable is not enough: it says by how much it stays over, and the newest Audit row stays.
    const all = planRetention(
      input({ now: Y(1), discussions, messages, audit, cells: { used: 2000, limit, threshold: 0.8 } }),
    );
    expect([ids(all), all.audit]).toEqual([['D1', 'D3'], 2]);
    expect(all.cells.over).toBe(2000 - 18 - 64 - 800);
  });
});

describe('a batch copied but not removed', () => {
  it('moves first, whatever else the plan says', () => {
    const discussions = [discussion(2, 'D1', Y(0)), discussion(3, 'D2', Y(3))];
    const p = planRetention(input({ now: Y(3) + 1, discussions, pending: ['D2'] }));
    expect(ids(p)).toEqual(['D2', 'D1']);
  });
});

describe('what goes with the rows', () => {
  it('takes the Overflow values the rows point to and the ones a moving row wrote under its key', () => {
    const blobs = [
      { row: 2, id: 'OVF-1', owner: 'Queue:Q-1#6' },
      { row: 3, id: 'OVF-2', owner: 'Discussion Log:D1#6' },
      { row: 4, id: 'OVF-2', owner: 'Discussion Log:D1#6' },
      { row: 5, id: 'OVF-3', owner: 'orders:7#5' },
      { row: 6, id: 'OVF-4', owner: 'Discussion Log:D1#11' },
      { row: 7, id: 'OVF-5', owner: 'Discussion Log:D10#6' },
    ];
    expect(blobsToMove(blobs, ['OVF-3'], ['Discussion Log:D1'])).toEqual([3, 4, 5, 6]);
  });

  it('batches whole units by count and rows', () => {
    const u = (id: string, n: number) => ({
      id,
      discussion: id,
      reason: 'retention' as const,
      rows: {
        discussions: [line(2, id, id, 0)],
        messages: Array.from({ length: n }, (_, i) => line(3 + i, `${id}-${i}`, id, 0)),
        orders: [],
        objections: [],
        outcomes: [],
      },
    });
    const units = [u('A', 3), u('B', 3), u('C', 10), u('D', 0)];
    expect(batches(units, 8, 5).map((b) => b.map((x) => x.id))).toEqual([['A', 'B'], ['C'], ['D']]);
    expect(batches(units, 100, 2).map((b) => b.map((x) => x.id))).toEqual([
      ['A', 'B'],
      ['C', 'D'],
    ]);
  });

  it('adds years on the calendar', () => {
    expect(new Date(addYears(Date.UTC(2024, 1, 29, 5), 1)).toISOString()).toBe('2025-03-01T05:00:00.000Z');
    expect(addYears(Date.UTC(2020, 5, 1), 3)).toBe(Date.UTC(2023, 5, 1));
  });
});
