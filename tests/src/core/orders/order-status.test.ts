// Order statuses as pure functions: which reports move an order, column L derived from the orders, and the report plan.
import { describe, expect, it } from 'vitest';
import { ConflictError, StateError, ValidationError } from '../../../../src/core/errors.js';
import { planOrderReport, reportInput, type ReportedOrder } from '../../../../src/core/orders/order-report.js';
import {
  canMoveOrder,
  executionStatusOf,
  impliedStatuses,
  IllegalOrderTransitionError,
  moveOrder,
  ORDER_STATUSES,
  reportStatus,
} from '../../../../src/core/orders/order-status.js';
import { DISC, newDiscussion, runToRest, testEnv, TODAY } from '../env.js';

const DEC = `DEC-${TODAY}-001`;
const NOW = `${TODAY}T03:00:00.000Z`;
const ALLOW = ['GOAL_ADJUSTMENT'];

describe('moveOrder', () => {
  it('moves any step forward, fails from any open stage, and treats DONE, FAILED, CANCELLED as final', () => {
    const allowed = ORDER_STATUSES.map((from) => [from, ORDER_STATUSES.filter((to) => canMoveOrder(from, to))]);
    expect(allowed).toEqual([
      ['PENDING', ['ACKNOWLEDGED', 'IN_PROGRESS', 'DONE', 'FAILED', 'CANCELLED']],
      ['ACKNOWLEDGED', ['IN_PROGRESS', 'DONE', 'FAILED', 'CANCELLED']],
      ['IN_PROGRESS', ['IN_PROGRESS', 'DONE', 'FAILED', 'CANCELLED']],
      ['DONE', []],
      ['FAILED', []],
      ['CANCELLED', []],
    ]);
    expect(moveOrder('PENDING', 'ACKNOWLEDGED')).toBe('ACKNOWLEDGED');
    expect(moveOrder('IN_PROGRESS', 'DONE')).toBe('DONE');
    expect(moveOrder('PENDING', 'DONE')).toBe('DONE');
    // The stages a forward report skipped are implied; a failure implies none.
    expect(impliedStatuses('PENDING', 'DONE')).toEqual(['ACKNOWLEDGED', 'IN_PROGRESS']);
    expect(impliedStatuses('ACKNOWLEDGED', 'DONE')).toEqual(['IN_PROGRESS']);
    expect(impliedStatuses('PENDING', 'ACKNOWLEDGED')).toEqual([]);
    expect(impliedStatuses('IN_PROGRESS', 'IN_PROGRESS')).toEqual([]);
    expect(impliedStatuses('PENDING', 'FAILED')).toEqual([]);
  });

  it('names the current and the requested status when a move is not allowed', () => {
    const skip = (() => {
      try {
        moveOrder('IN_PROGRESS', 'ACKNOWLEDGED', `${DEC}-A1`);
      } catch (e) {
        return e;
      }
    })() as IllegalOrderTransitionError;
    expect(skip).toBeInstanceOf(IllegalOrderTransitionError);
    expect(skip).toBeInstanceOf(ConflictError);
    expect([skip.from, skip.to, skip.code]).toEqual(['IN_PROGRESS', 'ACKNOWLEDGED', 'illegal_order_transition']);
    expect(skip.message).toBe(
      `order ${DEC}-A1 is IN_PROGRESS and cannot become ACKNOWLEDGED (it can be reported IN_PROGRESS, DONE, FAILED)`,
    );
    expect(() => moveOrder('CANCELLED', 'DONE', 'X')).toThrow(
      'order X is CANCELLED and cannot become DONE (CANCELLED is final)',
    );
    expect(() => moveOrder('DONE', 'FAILED')).toThrow('order is DONE and cannot become FAILED (DONE is final)');
    expect(() => moveOrder('DONE', 'ACKNOWLEDGED')).toThrow(IllegalOrderTransitionError);
    // A status no code writes (a hand edit) is bad state, not a bad report.
    expect(() => moveOrder('done', 'DONE', 'X')).toThrow(StateError);
  });

  it('takes only the four reportable statuses from a report', () => {
    expect(reportStatus('FAILED')).toBe('FAILED');
    for (const bad of ['CANCELLED', 'PENDING', 'done', '', undefined])
      expect(() => reportStatus(bad)).toThrow(ValidationError);
    expect(() => reportStatus('CANCELLED')).toThrow(
      'status must be ACKNOWLEDGED, IN_PROGRESS, DONE, FAILED; got "CANCELLED"',
    );
  });
});

describe('executionStatusOf (column L)', () => {
  it('derives column L from the orders: cancelled ones drop out, then FAILED, all DONE, progress, acknowledged', () => {
    const cases: [string[], string][] = [
      [[], 'NOT_STARTED'],
      [['CANCELLED', 'CANCELLED'], 'CANCELLED'],
      [['PENDING'], 'PENDING'],
      [['PENDING', 'ACKNOWLEDGED'], 'ACKNOWLEDGED'],
      [['ACKNOWLEDGED', 'IN_PROGRESS'], 'IN_PROGRESS'],
      [['DONE', 'PENDING'], 'IN_PROGRESS'],
      [['DONE', 'DONE'], 'DONE'],
      [['DONE', 'CANCELLED'], 'DONE'],
      [['DONE', 'FAILED'], 'FAILED'],
      [['FAILED', 'IN_PROGRESS'], 'FAILED'],
    ];
    expect(cases.map(([s]) => [s, executionStatusOf(s)])).toEqual(cases);
  });
});

describe('planOrderReport', () => {
  const d = runToRest(newDiscussion(), testEnv({ lang: 'ja' })).d;
  const order = (row: number, status: string): ReportedOrder => ({
    row,
    order_id: `${DEC}-A${row}`,
    target_agent: 'buddy',
    status,
  });

  it('moves every open order, adds an ACKNOWLEDGEMENT, and derives column L', () => {
    expect(d.status).toBe('DECIDED');
    const input = reportInput({ discussion_id: DISC, status: 'ACKNOWLEDGED', report: '=started' }, 'someone');
    const plan = planOrderReport(
      d,
      DEC,
      [order(2, 'PENDING'), order(3, 'CANCELLED'), order(4, 'PENDING')],
      input,
      NOW,
      ALLOW,
    );
    expect(plan.moves).toEqual([
      { row: 2, order_id: `${DEC}-A2`, from: 'PENDING', to: 'ACKNOWLEDGED', implied: [] },
      { row: 4, order_id: `${DEC}-A4`, from: 'PENDING', to: 'ACKNOWLEDGED', implied: [] },
    ]);
    expect(plan.execution_status).toBe('ACKNOWLEDGED');
    expect(plan.message).toMatchObject({
      message_id: `MSG-${DISC}-${String(d.messages.length + 1).padStart(3, '0')}`,
      phase: 6,
      speaker: 'buddy',
      message_type: 'ACKNOWLEDGEMENT',
      timestamp: NOW,
      content: { status: 'ORDER_ACKNOWLEDGED', note: '=started' },
      metadata: {
        note: `reported by someone; ${DEC}-A2 PENDING → ACKNOWLEDGED; ${DEC}-A4 PENDING → ACKNOWLEDGED`,
        tokens_consumed: 0,
      },
    });
    // The discussion keeps its status; only column L and the transcript change.
    expect(plan.step).toMatchObject({ status: 'DECIDED', transitions: [], orders: [], messages: [plan.message] });
    expect(plan.step.executionStatus).toBe('ACKNOWLEDGED');
  });

  it('moves nothing when one order cannot take the report, and refuses a decision with no open order', () => {
    const input = reportInput({ discussion_id: DISC, status: 'DONE' }, 'x');
    const back = reportInput({ discussion_id: DISC, status: 'ACKNOWLEDGED' }, 'x');
    expect(() => planOrderReport(d, DEC, [order(2, 'PENDING'), order(3, 'IN_PROGRESS')], back, NOW, ALLOW)).toThrow(
      `order ${DEC}-A3 is IN_PROGRESS and cannot become ACKNOWLEDGED`,
    );
    // A discussion-level report leaves final orders as they are and moves the open ones.
    const mixed = planOrderReport(d, DEC, [order(2, 'DONE'), order(3, 'PENDING')], input, NOW, ALLOW);
    expect(mixed.moves.map((m) => [m.order_id, m.from, m.to, m.implied])).toEqual([
      [`${DEC}-A3`, 'PENDING', 'DONE', ['ACKNOWLEDGED', 'IN_PROGRESS']],
    ]);
    expect(mixed.execution_status).toBe('DONE');
    expect(() => planOrderReport(d, DEC, [order(2, 'DONE')], input, NOW, ALLOW)).toThrow(
      `order ${DEC}-A2 is DONE and cannot become DONE (DONE is final)`,
    );
    expect(() => planOrderReport(d, DEC, [order(2, 'CANCELLED')], input, NOW, ALLOW)).toThrow(
      `${DISC} has no order to report on: decision ${DEC} was cancelled`,
    );
    expect(() => planOrderReport(d, DEC, [], input, NOW, ALLOW)).toThrow(ConflictError);
  });

  it('checks the fields of a report and names the wrong one', () => {
    expect(reportInput({ discussion_id: ` ${DISC} `, status: 'DONE' }, 'me')).toEqual({
      discussion_id: DISC,
      order_id: '',
      status: 'DONE',
      report: '',
      by: 'me',
    });
    // A `by` in the input names nobody: the reporter is the caller's to say.
    const forged = { discussion_id: DISC, status: 'DONE', by: 'manager@example.com' } as Record<string, unknown>;
    expect(reportInput(forged, 'me').by).toBe('me');
    expect(() => reportInput({ status: 'DONE' }, 'me')).toThrow('discussion_id or order_id is required');
    expect(() => reportInput({ order_id: 'A1', status: 'DONE' }, 'me')).toThrow('order_id must look like');
    expect(() => reportInput({ discussion_id: DISC, status: 'FINISHED' }, 'me')).toThrow(/^status must be/);
    expect(() => reportInput({ discussion_id: DISC, status: 'DONE', report: 'x'.repeat(20001) }, 'me')).toThrow(
      'report is 20001 characters; at most 20000',
    );
  });

  it('moves that order alone, straight to DONE with the skipped stages implied; a cancelled one is 409', () => {
    const input = reportInput({ order_id: `${DEC}-A3`, status: 'DONE', report: 'sent' }, 'api:bot');
    const plan = planOrderReport(d, DEC, [order(2, 'PENDING'), order(3, 'PENDING')], input, NOW, ALLOW);
    expect(plan.moves).toEqual([
      { row: 3, order_id: `${DEC}-A3`, from: 'PENDING', to: 'DONE', implied: ['ACKNOWLEDGED', 'IN_PROGRESS'] },
    ]);
    expect(plan.execution_status).toBe('IN_PROGRESS');
    expect(plan.message.metadata.note).toBe(
      `reported by api:bot; ${DEC}-A3 PENDING → DONE (ACKNOWLEDGED, IN_PROGRESS implied)`,
    );
    const cancelled = reportInput({ order_id: `${DEC}-A2`, status: 'IN_PROGRESS' }, 'x');
    expect(() => planOrderReport(d, DEC, [order(2, 'CANCELLED')], cancelled, NOW, ALLOW)).toThrow(
      `order ${DEC}-A2 is CANCELLED and cannot become IN_PROGRESS (CANCELLED is final)`,
    );
    const other = reportInput({ order_id: `${DEC}-A9`, status: 'DONE' }, 'x');
    expect(() => planOrderReport(d, DEC, [order(2, 'PENDING')], other, NOW, ALLOW)).toThrow(ConflictError);
  });
});
