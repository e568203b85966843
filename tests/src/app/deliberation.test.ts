// Flips through the built file: the decision records the first answers, the review writes them to Outcomes (also in
// a workbook whose Outcomes tab predates the columns) and keeps the stats that GET /status, MCP and the sidebar show.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../src/core/discussion/ids.js';
import { deliberationOf, firstAnswersRecord } from '../../../src/core/memory/first-answers.js';
import type { Message as CoreMessage } from '../../../src/core/discussion/messages.js';
import { council, decline, messages, ok, settle, start, statuses } from '../../council-helpers.js';
import { gas, records } from '../../helpers.js';
import { call, mcp, token } from './rooms-helpers.js';

// With nothing recorded (every field pinned in tests/src/core/memory/first-answers.test.ts).
const NONE = deliberationOf(null);

describe('first answers and flips, end to end', () => {
  it('records them at the decision and the review, and shows the stats in GET /status, MCP and the sidebar', async () => {
    const rt = await council();
    const viewer = await token(rt, 'watcher', 'viewer');
    expect((await call(rt, viewer, 'GET', '/status')).deliberation).toEqual(NONE);
    expect((await rt.callServer('getSidebarData')) as Record<string, unknown>).toMatchObject({ deliberation: NONE });

    await start(rt, decline('tanaka'));
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('DECIDED');
    // As stored in the Messages tab: the deliberation carries what the record gives.
    const stored = messages(rt, id);
    const delib = stored.find((m) => m.message_type === 'DECISION_DELIBERATION')!;
    const order = stored.find((m) => m.message_type === 'EXECUTION_ORDER')!.content;
    const actions = order.actions.map((a: { action_type: string }) => a.action_type);
    const first = firstAnswersRecord(stored as CoreMessage[], actions)!;
    expect(first.of).toBe(8);
    expect(delib.metadata.first_answers).toEqual(first);

    // A workbook from before the columns: Outcomes ends at order_status, and the state names an older layout.
    await gas(rt, "SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Outcomes').deleteColumns(13, 2);");
    const state = JSON.parse(rt.scriptProperties.get('KAIGI_STATE')!);
    rt.scriptProperties.set({ KAIGI_STATE: JSON.stringify({ ...state, layout: 'L0' }) });
    // Nothing of the monitored metrics after the decision but zeros: the review rejects it.
    const decided = String(order.decision_id).slice(4, 14);
    const review = String(order.monitoring.review_date);
    const kpi = [];
    for (let day = addDays(decided, 1); day <= review; day = addDays(day, 1))
      for (const c of order.monitoring.success_criteria) kpi.push([`${day}T00:00:00+09:00`, 'tanaka', c.metric, 0, '']);
    await gas(
      rt,
      `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('KPI'); var rows = ${JSON.stringify(kpi)};
      sh.getRange(sh.getLastRow() + 1, 1, rows.length, 5).setValues(rows.map(function (r) { r[0] = new Date(r[0]); return r; }));`,
    );
    rt.clock.advanceTo(Date.parse(`${review}T09:00:00+09:00`));
    const evaluated = ok(await rt.run('dailyReview', [], { kind: 'trigger' })).evaluated;
    expect(evaluated.map((e: { verdict: string }) => e.verdict)).toEqual(['rejected']);

    const [outcome] = records(rt, 'outcomes');
    expect([outcome.first_majority, outcome.flip, outcome.verdict]).toEqual([first.majority, first.flip, 'rejected']);
    const expected = {
      decisions: 1,
      flips: first.flip ? 1 : 0,
      flip_rate: first.flip ? 1 : 0,
      flips_confirmed: 0,
      flips_rejected: first.flip ? 1 : 0,
      flip_success: first.flip ? 0 : null,
      kept_confirmed: 0,
      kept_rejected: first.flip ? 0 : 1,
      kept_success: first.flip ? null : 0,
    };
    expect(JSON.parse(rt.scriptProperties.get('KAIGI_FLIP_STATS')!)).toEqual({
      decisions: 1,
      flips: expected.flips,
      flips_confirmed: 0,
      flips_rejected: expected.flips_rejected,
      kept_confirmed: 0,
      kept_rejected: expected.kept_rejected,
    });
    expect((await call(rt, viewer, 'GET', '/status')).deliberation).toEqual(expected);
    const tool = await mcp(rt, viewer, 1, 'get_status', {});
    const sc = tool.result.structuredContent ?? JSON.parse(tool.result.content[0].text);
    expect(sc.deliberation).toEqual(expected);
    expect(((await rt.callServer('getSidebarData')) as { deliberation: unknown }).deliberation).toEqual(expected);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('reads GET /status’s deliberation from one property, with no Sheets read for it', async () => {
    const rt = await council({ demo: false });
    const viewer = await token(rt, 'watcher', 'viewer');
    const stats = {
      decisions: 8,
      flips: 2,
      flips_confirmed: 1,
      flips_rejected: 1,
      kept_confirmed: 3,
      kept_rejected: 1,
    };
    const status = async () => {
      const r = await rt.doGet({ path: '/status', token: viewer });
      return { body: JSON.parse(r.body), counts: r.result.counts };
    };
    const before = await status();
    rt.scriptProperties.set({ KAIGI_FLIP_STATS: JSON.stringify(stats) });
    // Written from outside Kaigi (the review writes it through Kaigi, which moves the change stamp): the status's
    // cached copy shows it once api.status_max_age_seconds have passed.
    rt.clock.advance(31_000);
    const after = await status();
    expect(after.body.deliberation).toEqual({
      ...stats,
      flip_rate: 0.25,
      flip_success: 0.5,
      kept_success: 0.75,
    });
    // The same Sheets round trips with the stats as without them (an idle council's status reads no range at all).
    expect([after.counts.reads, after.counts.byOp]).toEqual([before.counts.reads, before.counts.byOp]);
  });
});
