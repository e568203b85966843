// An inconclusive decision (its window's KPI missing) is re-reviewed once when the KPI comes within
// outcome.recheck_days: a second Outcomes row with a real verdict, its learnings moved, never a third row.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, freshKpi, ok, settle, start, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';

const DAY = 86_400_000;

const review = async (rt: Runtime) => ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
const outcomes = (rt: Runtime) => records(rt, 'outcomes');

// A decision reviewed on its review date with no KPI after the day it was taken: inconclusive, CLOSED.
async function inconclusive(): Promise<{ rt: Runtime; id: string }> {
  const rt = await council();
  await start(rt);
  await settle(rt);
  rt.clock.advance(8 * DAY);
  await review(rt);
  const [id] = Object.keys(statuses(rt));
  expect(statuses(rt)[id]).toBe('CLOSED');
  expect(outcomes(rt).map((o) => [o.discussion_id, o.verdict])).toEqual([[id, 'inconclusive']]);
  expect(String(outcomes(rt)[0].notes)).toMatch(/^no data: /);
  return { rt, id };
}

describe('the recheck of an inconclusive decision', () => {
  it('is re-reviewed once when its KPI comes two days later, and not again the day after', async () => {
    const { rt, id } = await inconclusive();
    const [first] = outcomes(rt);
    const caseVerdict = () =>
      records(rt, 'learnings')
        .filter((l) => l.scope === 'case')
        .map((l) => JSON.parse(String(l.context)).verdict);
    expect(caseVerdict()).toEqual(['inconclusive']);
    // The next day the KPI is still missing: the decision waits.
    rt.clock.advance(DAY);
    await review(rt);
    expect(outcomes(rt)).toHaveLength(1);
    // Two days after the first review the team's KPI comes in, the decision's window with it.
    rt.clock.advance(DAY);
    expect(freshKpi(rt)).toBeGreaterThan(0);
    await review(rt);
    const rows = outcomes(rt);
    expect(rows.map((o) => [o.decision_id, o.discussion_id])).toEqual([
      [first.decision_id, id],
      [first.decision_id, id],
    ]);
    const again = rows[1];
    expect(again.notes).toBe(`recheck of ${first.outcome_id} (${dayOfCell(rt, first.evaluated_at)})`);
    expect(['confirmed', 'rejected']).toContain(again.verdict);
    expect(Number(again.data_points)).toBeGreaterThan(0);
    // The discussion stays CLOSED; column M and the decision's case follow the later verdict.
    const log = records(rt, 'discussions').find((r) => r.discussion_id === id)!;
    expect([log.status, log.outcome_evaluated]).toEqual(['CLOSED', again.verdict]);
    expect(caseVerdict()).not.toEqual(['inconclusive']);
    // Audited like any Outcomes row, naming the row it looks at again.
    const audited = records(rt, 'audit').filter((a) => a.event === 'outcome' && a.row_key === again.outcome_id);
    expect(audited).toHaveLength(1);
    expect(JSON.parse(String(audited[0].payload_json)).recheck_of).toBe(first.outcome_id);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
    // A third review day, with more KPI: never a second recheck.
    rt.clock.advance(DAY);
    freshKpi(rt);
    await review(rt);
    expect(outcomes(rt)).toHaveLength(2);
  });

  it('is not rechecked once outcome.recheck_days have passed', async () => {
    const { rt } = await inconclusive();
    rt.clock.advance(8 * DAY);
    expect(freshKpi(rt)).toBeGreaterThan(0);
    await review(rt);
    expect(outcomes(rt)).toHaveLength(1);
  });
});

// The Outcomes row's evaluated_at as the day the sheet shows.
function dayOfCell(rt: Runtime, v: unknown): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: rt.workbook.timeZone }).format(v as Date);
}
