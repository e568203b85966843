// The sidebar's view of a measured decision: the verdict with its numbers and what memory learned lead the view of a
// closed discussion; a discussion not yet measured has none.
import { describe, expect, it } from 'vitest';
import { council, ok, settle, start, statuses } from '../../council-helpers.js';
import { records, rowValues } from '../../helpers.js';

describe('the outcome in the discussion view', () => {
  it('shows the verdict, its numbers and the learnings the review wrote', async () => {
    const rt = await council();
    await start(rt);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    const before = ok(await rt.run('getDiscussion', [id], { kind: 'server' }));
    expect(before.outcome).toBeNull();
    // 田中さん's contacts back at 12 every day after the decision: the forecast of +20 % is met.
    const order = records(rt, 'orders')[0];
    const review = order.review_date as Date;
    const kpi = rt.workbook.sheetByName('KPI')!;
    const rows = [];
    for (let d = 1; d <= 7; d++) {
      const day = new Date(review.getTime() - (7 - d) * 86_400_000 + 12 * 3600_000).toISOString().slice(0, 10);
      rows.push(rowValues('kpi', { date: day, member_id: 'tanaka', metric: 'contacts', value: 12 }));
    }
    const last = rt.workbook.lastRow(kpi);
    rt.workbook.setValues(kpi, last + 1, 1, rows.length, rows[0].length, rows);
    rt.clock.advanceTo(review.getTime() + 9 * 3600_000);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    const v = ok(await rt.run('getDiscussion', [id], { kind: 'server' }));
    const [outcome] = records(rt, 'outcomes');
    expect(v.outcome).toMatchObject({
      outcome_id: outcome.outcome_id,
      verdict: outcome.verdict,
      data_points: outcome.data_points,
    });
    expect(['confirmed', 'rejected', 'inconclusive']).toContain(v.outcome.verdict);
    expect(v.outcome.observed[0]).toMatchObject({ metric: 'contacts', actual: 12 });
    // Every learning the review wrote from this outcome, and no other.
    const written = records(rt, 'learnings').filter((l) => String(l.source).startsWith(`${outcome.outcome_id} `));
    expect(written.length).toBeGreaterThan(0);
    expect(v.outcome.learned.map((l: { learning_id: string }) => l.learning_id)).toEqual(
      written.map((l) => l.learning_id),
    );
    // Plain data only: google.script.run carries no Date.
    expect(JSON.parse(JSON.stringify(v.outcome))).toEqual(v.outcome);
  });
});
