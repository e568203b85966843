// An executor's report on one order, or on every open order of a discussion, as a pure plan: which Orders rows move, the ACKNOWLEDGEMENT
// message the transcript gets, and column L derived from the orders after the move.
import type { StepResult } from '../engine/types.js';
import { ConflictError, ValidationError } from '../errors.js';
import { messageId } from '../discussion/ids.js';
import { validateMessage, type Message } from '../discussion/messages.js';
import {
  executionStatusOf,
  impliedStatuses,
  isOpenOrder,
  moveOrder,
  reportStatus,
  type ExecutionStatus,
  type OrderStatus,
  type ReportStatus,
} from './order-status.js';
import type { Discussion } from '../types.js';

// The longest report kept: the ACKNOWLEDGEMENT note's limit, so the message carries it whole.
const MAX_REPORT_CHARS = 20000;

// An order's id: its decision's id and the action's place in the order (src/core/engine/decide.ts).
export const ORDER_ID = /^DEC-\d{4}-\d{2}-\d{2}-\d{3,}-A\d+$/;

export interface OrderReportInput {
  discussion_id: string;
  // Set when one order is reported on; empty when the report is on every open order of the discussion.
  order_id: string;
  status: ReportStatus;
  report: string;
  by: string;
}

// An Orders row of the discussion's current decision, as the report reads it.
export interface ReportedOrder {
  row: number;
  order_id: string;
  target_agent: string;
  status: string;
}

export interface OrderReportPlan {
  decision_id: string;
  moves: { row: number; order_id: string; from: string; to: ReportStatus; implied: OrderStatus[] }[];
  execution_status: ExecutionStatus;
  message: Message;
  step: StepResult;
}

// Checks a report's fields as they come from the CLI, the sidebar or the API; names the field that is wrong. A report
// names an order (order_id) or a discussion (discussion_id); with an order id the discussion is the order's.
export function reportInput(
  input: Partial<Record<Exclude<keyof OrderReportInput, 'by'>, unknown>> | null | undefined,
  by: string,
) {
  const order = String(input?.order_id ?? '').trim();
  if (order && !ORDER_ID.test(order)) throw new ValidationError(`order_id must look like DEC-YYYY-MM-DD-SEQ-An`);
  const discussion = String(input?.discussion_id ?? '').trim();
  if (!discussion && !order) throw new ValidationError('discussion_id or order_id is required');
  const status = reportStatus(input?.status);
  const report = input?.report === undefined || input?.report === null ? '' : String(input.report);
  if (report.length > MAX_REPORT_CHARS)
    throw new ValidationError(`report is ${report.length} characters; at most ${MAX_REPORT_CHARS}`);
  // Who reports is the caller's code's to say (the acting person, or `api:NAME`), never a field of the input.
  return { discussion_id: discussion, order_id: order, status, report, by } as OrderReportInput;
}

// The orders a report moves. One order: that order, whatever its status (a final one answers 409 naming it).
// A discussion: every open order of its current decision; when none is open, the first one not cancelled answers
// 409 with its status. If any of them cannot move, nothing moves.
function chosen(
  d: Discussion,
  decisionId: string,
  all: readonly ReportedOrder[],
  input: OrderReportInput,
  mine: (o: ReportedOrder) => boolean,
) {
  const orders = all.filter(mine);
  if (input.order_id) {
    const one = orders.find((o) => o.order_id === input.order_id);
    if (!one)
      throw new ConflictError(
        `order ${input.order_id} is not an order of ${d.discussion_id}'s current decision ${decisionId}`,
        'order_replaced',
      );
    return [one];
  }
  const live = orders.filter((o) => o.status !== 'CANCELLED');
  if (!live.length)
    throw new ConflictError(
      `${d.discussion_id} has no order to report on: decision ${decisionId} ${orders.length ? 'was cancelled' : 'has no Orders rows'}`,
      'no_open_order',
    );
  const open = live.filter((o) => isOpenOrder(o.status));
  return open.length ? open : [live[0]];
}

// `allowList` is Settings actions.allow_list, which every stored message is validated with.
export function planOrderReport(
  d: Discussion,
  decisionId: string,
  orders: readonly ReportedOrder[],
  input: OrderReportInput,
  nowIso: string,
  allowList: readonly string[],
  // The orders the reporter may report on (a worker: its own); the status is derived from them all.
  mine: (o: ReportedOrder) => boolean = () => true,
): OrderReportPlan {
  const live = chosen(d, decisionId, orders, input, mine);
  const moves = live.map((o) => {
    const to = moveOrder(o.status, input.status, o.order_id) as ReportStatus;
    return {
      row: o.row,
      order_id: o.order_id,
      from: o.status,
      to,
      implied: impliedStatuses(o.status as OrderStatus, to),
    };
  });
  const moved = (o: ReportedOrder) => moves.some((m) => m.row === o.row);
  const after = orders.map((o) => (moved(o) ? input.status : o.status));
  const execution = executionStatusOf(after);
  // The executor the order names speaks in the transcript; who sent the report is in the note and the audit.
  const speaker = live[0].target_agent || 'buddy';
  const seq = d.messages.length + 1;
  const message = validateMessage(
    {
      message_id: messageId(d.discussion_id, seq),
      discussion_id: d.discussion_id,
      phase: 6,
      speaker,
      message_type: 'ACKNOWLEDGEMENT',
      timestamp: nowIso,
      content: { status: `ORDER_${input.status}`, ...(input.report ? { note: input.report } : {}) },
      metadata: {
        processing_time_ms: 0,
        model_used: 'kaigi',
        tokens_consumed: 0,
        fallback_level: 0,
        step_key: `${d.discussion_id}/6/${speaker}/report-${seq}`,
        // Which orders moved, and the stages a forward report skipped, so the transcript shows them as implied.
        note: `reported by ${input.by}; ${moves.map(moveText).join('; ')}`,
      },
    },
    allowList,
  );
  return {
    decision_id: decisionId,
    moves,
    execution_status: execution,
    message,
    step: {
      messages: [message],
      status: d.status,
      transitions: [],
      orders: [],
      executionStatus: execution,
      inbox: [],
      notes: [],
    },
  };
}

function moveText(m: { order_id: string; from: string; to: string; implied: readonly string[] }): string {
  return `${m.order_id} ${m.from} → ${m.to}${m.implied.length ? ` (${m.implied.join(', ')} implied)` : ''}`;
}
