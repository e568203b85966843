// An executor's report on a discussion's orders as a pure plan: which Orders rows move, the ACKNOWLEDGEMENT
// message the transcript gets, and column L derived from the orders after the move.
import type { StepResult } from './engine/types.js';
import { ConflictError, ValidationError } from './errors.js';
import { messageId } from './ids.js';
import { validateMessage, type Message } from './messages.js';
import { executionStatusOf, moveOrder, reportStatus, type ExecutionStatus, type ReportStatus } from './order-status.js';
import type { Discussion } from './types.js';

// The longest report kept: the ACKNOWLEDGEMENT note's limit, so the message carries it whole.
const MAX_REPORT_CHARS = 20000;

export interface OrderReportInput {
  discussion_id: string;
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
  moves: { row: number; order_id: string; from: string; to: ReportStatus }[];
  execution_status: ExecutionStatus;
  message: Message;
  step: StepResult;
}

// Checks a report's fields as they come from the CLI, the sidebar or the API; names the field that is wrong.
export function reportInput(
  input: Partial<Record<Exclude<keyof OrderReportInput, 'by'>, unknown>> | null | undefined,
  by: string,
) {
  const discussion = String(input?.discussion_id ?? '').trim();
  if (!discussion) throw new ValidationError('discussion_id is required');
  const status = reportStatus(input?.status);
  const report = input?.report === undefined || input?.report === null ? '' : String(input.report);
  if (report.length > MAX_REPORT_CHARS)
    throw new ValidationError(`report is ${report.length} characters; at most ${MAX_REPORT_CHARS}`);
  // Who reports is the caller's code's to say (the acting person, or `api:NAME`), never a field of the input.
  return { discussion_id: discussion, status, report, by } as OrderReportInput;
}

// Every order of the current decision that a replacing decision has not cancelled moves to the reported status;
// if any of them cannot, nothing moves (the error names that order, its status and the one asked for).
// `allowList` is Settings actions.allow_list, which every stored message is validated with.
export function planOrderReport(
  d: Discussion,
  decisionId: string,
  orders: readonly ReportedOrder[],
  input: OrderReportInput,
  nowIso: string,
  allowList: readonly string[],
): OrderReportPlan {
  const live = orders.filter((o) => o.status !== 'CANCELLED');
  if (!live.length)
    throw new ConflictError(
      `${d.discussion_id} has no order to report on: decision ${decisionId} ${orders.length ? 'was cancelled' : 'has no Orders rows'}`,
      'no_open_order',
    );
  const moves = live.map((o) => ({
    row: o.row,
    order_id: o.order_id,
    from: o.status,
    to: moveOrder(o.status, input.status, o.order_id) as ReportStatus,
  }));
  const after = orders.map((o) => (o.status === 'CANCELLED' ? o.status : input.status));
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
        note: `reported by ${input.by}`,
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
