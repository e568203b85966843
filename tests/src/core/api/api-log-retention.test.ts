// The API Log's move plan (issue 22, finding 6): a prefix of whole batches whose last row is past retention.
import { describe, expect, it } from 'vitest';
import { archivedRows, DAY_MS, planApiLogMove } from '../../../../src/core/api/api-log-retention.js';

const NOW = Date.UTC(2026, 5, 1);
// Rows 2–6 and 7–11 are 100 days old, 12–16 end with a row 10 days old; row 17 is in no batch.
const times: Record<number, number> = {};
for (let r = 2; r <= 17; r++) times[r] = NOW - (r < 16 ? 100 : 10) * DAY_MS;
const base = {
  now: NOW,
  days: 90,
  archived: 0,
  through: 16,
  batches: [
    { first: 2, count: 5 },
    { first: 7, count: 5 },
    { first: 12, count: 5 },
  ],
  timeOf: (row: number) => times[row] ?? null,
  maxRows: 5000,
};

describe('planApiLogMove', () => {
  it('moves the batches whose last row is past retention, as a prefix, and says when the next is due', () => {
    expect(planApiLogMove(base)).toEqual({ rows: 10, batches: [2, 7], nextDue: NOW + 80 * DAY_MS });
  });

  it('numbers batches as if no row had left: after 5 rows moved, spreadsheet row r is row r + 5', () => {
    const plan = planApiLogMove({ ...base, archived: 5, through: 11, timeOf: (row) => times[row + 5] ?? null });
    expect(plan).toEqual({ rows: 5, batches: [7], nextDue: NOW + 80 * DAY_MS });
  });

  it('moves nothing when the setting is 0, or when no batch is recorded', () => {
    expect(planApiLogMove({ ...base, days: 0 }).rows).toBe(0);
    expect(planApiLogMove({ ...base, batches: [] }).rows).toBe(0);
  });

  it('moves at most maxRows rows at once (whole batches), the rest due now', () => {
    expect(planApiLogMove({ ...base, maxRows: 7 })).toEqual({ rows: 5, batches: [2], nextDue: NOW });
  });

  it('never moves a batch whose last row has no readable time', () => {
    expect(planApiLogMove({ ...base, timeOf: (row) => (row === 6 ? null : (times[row] ?? null)) }).rows).toBe(0);
  });

  it('moves young batches too while the tab holds more rows than maxKept, as few as bring it to the limit', () => {
    const young = { ...base, timeOf: () => NOW - DAY_MS, held: 16 };
    // 16 rows, at most 11 kept: the first batch (5 rows) is enough; at most 6 kept: two.
    expect(planApiLogMove({ ...young, maxKept: 11 })).toEqual({ rows: 5, batches: [2], nextDue: NOW + 89 * DAY_MS });
    expect(planApiLogMove({ ...young, maxKept: 6 })).toMatchObject({ rows: 10, batches: [2, 7] });
    // Whole batches only: the rows in no batch stay, even over the limit.
    expect(planApiLogMove({ ...young, maxKept: 1 })).toMatchObject({ rows: 15, batches: [2, 7, 12] });
    // With retention off (0 days) the row limit still holds; with neither, nothing moves.
    expect(planApiLogMove({ ...young, days: 0, maxKept: 11 })).toEqual({ rows: 5, batches: [2], nextDue: null });
    expect(planApiLogMove({ ...young, days: 0, maxKept: 0 }).rows).toBe(0);
    expect(planApiLogMove({ ...young, maxKept: 16 }).rows).toBe(0);
  });

  it('counts the rows the chain records as archived', () => {
    const e = (event: string, rows: unknown) => ({ event, payload: { rows } });
    expect(archivedRows([e('api_log_archived', 10), e('archived', 3), e('api_log_archived', 5)])).toBe(15);
  });
});
