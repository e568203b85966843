// The council objects to its own order in the agent review, through the built file: a trigger on a metric with a
// single KPI row ends in an order whose success criterion cannot be measured, so the analyst files a data_error
// objection.
import { describe, expect, it } from 'vitest';
import { council, messages, ok, setSetting, settle, start, statuses } from '../../council-helpers.js';
import { DEFAULT_METRICS } from '../../../src/core/orders/metric-table.js';
import { records } from '../../helpers.js';

describe('an agent objection after Phase 6', () => {
  it('is filed with source agent, re-decides, and leaves the audit chain intact', async () => {
    const rt = await council();
    // The metric joins the table and one day of it is made enough for grounding, so the discussion is not refused at
    // the door (by default it would be: src/core/orders/grounding.ts) and reaches the order and the review.
    await setSetting(
      rt,
      'kpi.metrics',
      JSON.stringify([...DEFAULT_METRICS, { ...DEFAULT_METRICS[0], name: 'deals_closed' }]),
    );
    await setSetting(rt, 'grounding.min_baseline_days', '1');
    // One row of the metric: a series the order may name (its criteria name one of the member's), too short to measure.
    const kpi = rt.workbook.sheetByName('KPI')!;
    const at = rt.workbook.lastRow(kpi) + 1;
    rt.workbook.setValues(kpi, at, 1, 1, 5, [[new Date(rt.clock.now()), 'tanaka', 'deals_closed', 2, '']]);
    await start(rt, {
      type: 'kpi_decline',
      source: 'human',
      target_user_id: 'tanaka',
      context: { metric: 'deals_closed' },
      priority: 'HIGH',
    });
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('DECIDED');
    const objections = records(rt, 'objections');
    expect(objections).toHaveLength(1);
    expect(objections[0]).toMatchObject({ discussion_id: id, source: 'agent', objector: 'analyst' });
    // The metric by its label (a metric with no label of its own reads as its words).
    expect(String(objections[0].reason)).toMatch(/deals closed/);
    // The analyst's data error reopens after re-analysis, then the decider decides again.
    expect(String(objections[0].resolution)).toMatch(/^データの誤りのため再分析して再議論; /);
    expect(objections[0].status).toBe('ACCEPTED');
    // Re-analysis cannot find the data either: the decider keeps the original order and says why.
    expect(String(objections[0].resolution)).toMatch(/再検討の結果、原案（DEC-\S+）を維持：/);
    const ms = messages(rt, id);
    expect(ms.filter((m) => m.message_type === 'SITUATION_REPORT')).toHaveLength(2);
    expect(ms.filter((m) => m.message_type === 'DECISION_DELIBERATION')).toHaveLength(2);
    expect(ms.find((m) => m.message_type === 'OBJECTION')).toMatchObject({ speaker: 'analyst', phase: 5 });
    const row = records(rt, 'discussions').find((r) => r.discussion_id === id)!;
    expect(String(row.notes)).toMatch(/agent review DEC-\S+: objection by analyst \(data_error\)/);
    // Only one agent objection per discussion: the queue holds one objection.process, done.
    const queued = records(rt, 'queue').filter((r) => r.type === 'objection.process');
    expect(queued.map((r) => [r.status, r.from])).toEqual([['done', 'analyst']]);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });
});
