// Reports on orders through the reportOrder entry point: column L follows the orders, a failure is final, and an
// objection comes too late once an order is being carried out.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, decline, messages, ok, settle, start, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { decided as decidedOnce } from '../prepared.js';

// A DECIDED discussion about tanaka, made once for the file and restored for each test that starts from it.
const decided = () => decidedOnce(decline('tanaka'));

const report = (rt: Runtime, input: object) => rt.run('reportOrder', [input], { kind: 'server' });
const columnL = (rt: Runtime, id: string) =>
  records(rt, 'discussions').find((r) => r.discussion_id === id)!.execution_status;

describe('reportOrder', () => {
  it('fails an order at once, after which it takes no other report', async () => {
    const { rt, id } = await decided();
    expect(columnL(rt, id)).toBe('PENDING');
    const r = ok(await report(rt, { discussion_id: id, status: 'FAILED', report: 'member on leave' }));
    expect(r.execution_status).toBe('FAILED');
    expect(columnL(rt, id)).toBe('FAILED');
    // Tanaka's first order holds three actions (filled by the vote with memory on): each row takes the report.
    expect(records(rt, 'orders').map((o) => [o.status, o.last_report])).toEqual(
      Array.from({ length: 3 }, () => ['FAILED', 'member on leave']),
    );
    const again = await report(rt, { discussion_id: id, status: 'ACKNOWLEDGED' });
    expect(again.ok).toBe(false);
    expect(again.error?.name).toBe('IllegalOrderTransitionError');
    expect(again.error?.message).toMatch(/is FAILED and cannot become ACKNOWLEDGED \(FAILED is final\)$/);
    // Who reported is the acting user when the report names no one.
    const event = records(rt, 'audit').find((a) => a.event === 'order_report')!;
    expect(String(event.actor)).not.toBe('');
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('refuses an objection once an order is DONE, at the door the sidebar and the CLI use, and writes nothing', async () => {
    const { rt, id } = await decided();
    ok(await report(rt, { discussion_id: id, status: 'DONE' }));
    expect(columnL(rt, id)).toBe('DONE');
    const queued = records(rt, 'queue').length;
    const r = await rt.run('fileObjection', [{ discussion_id: id, reason: 'too late', urgency: 'HIGH' }], {
      kind: 'server',
    });
    expect([r.ok, r.error?.name]).toEqual([false, 'ConflictError']);
    expect(r.error?.message).toMatch(new RegExp(`^${id} takes no objection: its order DEC-\\S+-A1 is DONE`));
    expect([records(rt, 'queue').length, records(rt, 'objections').length]).toEqual([queued, 0]);
    expect(records(rt, 'orders').map((o) => o.status)).toEqual(['DONE', 'DONE', 'DONE']);
  });

  it('rejects an objection queued before a report moved the order on, leaving the order as reported', async () => {
    const { rt, id } = await decided();
    ok(
      await rt.run(
        'fileAgentObjection_',
        [
          'legal',
          {
            discussion_id: id,
            reason: 'GOAL_ADJUSTMENT の運用で残業が増える恐れ',
            alternative: 'PRAISE_INCREASE と ONE_ON_ONE に切り替える',
            urgency: 'MEDIUM',
          },
        ],
        { kind: 'server' },
      ),
    );
    // The report comes in before the queue takes the objection up.
    ok(await report(rt, { discussion_id: id, status: 'IN_PROGRESS' }));
    await settle(rt);
    expect(messages(rt, id).filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
    expect(records(rt, 'orders').map((o) => o.status)).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS']);
    const [objection] = records(rt, 'objections');
    expect(objection.status).toBe('REJECTED');
    expect(String(objection.resolution)).toMatch(/is IN_PROGRESS \(objections apply before execution\)$/);
    expect(statuses(rt)[id]).toBe('DECIDED');
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('evaluates an unreported order once on its review date, and takes a report after the discussion closed', async () => {
    const { rt, id } = await decided();
    const [order] = records(rt, 'orders');
    // 09:00 on the review date in the script's zone (the cell holds that day's midnight there).
    rt.clock.advanceTo((order.review_date as Date).getTime() + 9 * 3600_000);
    const first = ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect(first.evaluated.map((e: { discussion_id: string }) => e.discussion_id)).toEqual([id]);
    expect(statuses(rt)[id]).toBe('CLOSED');
    expect(records(rt, 'outcomes').map((o) => o.order_status)).toEqual(['PENDING']);
    expect([records(rt, 'orders')[0].status, columnL(rt, id)]).toEqual(['PENDING', 'PENDING']);
    // The order is still open, but its decision has its Outcomes row: the next day's review leaves it without
    // looking the discussion up (a text finder over the Discussion Log), unless its verdict was inconclusive, which
    // the recheck looks at once a day while its KPI may still come.
    rt.clock.advance(24 * 3600_000);
    const next = await rt.run('dailyReview', [], { kind: 'trigger' });
    expect(ok(next).evaluated).toEqual([]);
    const inconclusive = records(rt, 'outcomes')[0].verdict === 'inconclusive';
    expect(next.counts.byOp['rg.find'] ?? 0).toBe(inconclusive ? 1 : 0);
    ok(await report(rt, { discussion_id: id, status: 'ACKNOWLEDGED' }));
    expect(columnL(rt, id)).toBe('ACKNOWLEDGED');
    expect(statuses(rt)[id]).toBe('CLOSED');
    expect(records(rt, 'outcomes').length).toBe(1);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('refuses a discussion with no order, and a report with a bad field, naming it', async () => {
    const rt = await council();
    // A request the governance agents refuse escalates to a person before any order is given.
    await start(rt, {
      type: 'manual',
      source: 'human',
      target_user_id: 'tanaka',
      context: { request: '位置情報を監視したい' },
      priority: 'HIGH',
    });
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('ESCALATED');
    const early = await report(rt, { discussion_id: id, status: 'ACKNOWLEDGED' });
    expect(early.error?.message).toMatch(new RegExp(`^${id} has no execution order to report on`));
    const bad = await report(rt, { discussion_id: id, status: 'CANCELLED' });
    expect([bad.error?.name, bad.error?.message]).toEqual([
      'ValidationError',
      'status must be ACKNOWLEDGED, IN_PROGRESS, DONE, FAILED; got "CANCELLED"',
    ]);
  });
});
