// Order statuses: the changes a report may make, and column L derived from a decision's orders.
import { ConflictError, StateError, ValidationError } from '../errors.js';

export const ORDER_STATUSES = ['PENDING', 'ACKNOWLEDGED', 'IN_PROGRESS', 'DONE', 'FAILED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

// What an executor may report (`kaigi report`, POST /tasks/{id}/result, the sidebar). CANCELLED is not among them:
// only a replacing decision cancels an order.
export const REPORT_STATUSES = ['ACKNOWLEDGED', 'IN_PROGRESS', 'DONE', 'FAILED'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

// Forward along PENDING → ACKNOWLEDGED → IN_PROGRESS → DONE. An executor may skip stages (a chat bot that sends the
// message reports DONE straight from PENDING); the stages it skipped are recorded as implied (impliedStatuses). An
// order can fail at any open stage, and IN_PROGRESS may be reported again (a progress note). DONE, FAILED and
// CANCELLED are final: what was carried out or failed stays so, and a new decision is a new order.
const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  PENDING: ['ACKNOWLEDGED', 'IN_PROGRESS', 'DONE', 'FAILED', 'CANCELLED'],
  ACKNOWLEDGED: ['IN_PROGRESS', 'DONE', 'FAILED', 'CANCELLED'],
  IN_PROGRESS: ['IN_PROGRESS', 'DONE', 'FAILED', 'CANCELLED'],
  DONE: [],
  FAILED: [],
  CANCELLED: [],
};

const LADDER: readonly OrderStatus[] = ['PENDING', 'ACKNOWLEDGED', 'IN_PROGRESS', 'DONE'];

// The stages a forward report skipped: PENDING → DONE implies ACKNOWLEDGED and IN_PROGRESS. A failure implies none.
export function impliedStatuses(from: OrderStatus, to: OrderStatus): OrderStatus[] {
  const a = LADDER.indexOf(from);
  const b = LADDER.indexOf(to);
  return a < 0 || b < 0 || b <= a ? [] : LADDER.slice(a + 1, b);
}

// An order still waiting for reports: a discussion-level report moves these and leaves final ones as they are.
export function isOpenOrder(status: string): boolean {
  return status === 'PENDING' || status === 'ACKNOWLEDGED' || status === 'IN_PROGRESS';
}

// An order being carried out or carried out: objections apply before execution, so these refuse one.
export function isInExecution(status: string): boolean {
  return status === 'IN_PROGRESS' || status === 'DONE';
}

// A report the order's current status does not allow; names both, and what it could be reported as instead.
export class IllegalOrderTransitionError extends ConflictError {
  constructor(
    readonly from: OrderStatus,
    readonly to: OrderStatus,
    readonly orderId = '',
  ) {
    const allowed = NEXT[from].filter((s) => s !== 'CANCELLED');
    super(
      `order ${orderId ? `${orderId} ` : ''}is ${from} and cannot become ${to}` +
        (allowed.length ? ` (it can be reported ${allowed.join(', ')})` : ` (${from} is final)`),
      'illegal_order_transition',
    );
  }
}

export function isOrderStatus(v: unknown): v is OrderStatus {
  return (ORDER_STATUSES as readonly unknown[]).indexOf(v) >= 0;
}

// The `status` field of a report, checked: one of REPORT_STATUSES.
export function reportStatus(v: unknown): ReportStatus {
  if ((REPORT_STATUSES as readonly unknown[]).indexOf(v) < 0)
    throw new ValidationError(`status must be ${REPORT_STATUSES.join(', ')}; got ${JSON.stringify(v ?? null)}`);
  return v as ReportStatus;
}

export function canMoveOrder(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].indexOf(to) >= 0;
}

// The status an order moves to; `from` is what its Orders row holds, so a value no code writes is bad state.
export function moveOrder(from: unknown, to: OrderStatus, orderId = ''): OrderStatus {
  if (!isOrderStatus(from))
    throw new StateError(`order ${orderId} has status ${JSON.stringify(from)}, which is not an order status`);
  if (!canMoveOrder(from, to)) throw new IllegalOrderTransitionError(from, to, orderId);
  return to;
}

// Column L values this derivation gives (the engine also writes NOT_STARTED before a decision and PROVISIONAL).
export type ExecutionStatus = Exclude<(typeof EXECUTION_STATUSES)[number], 'PROVISIONAL'>;
// Every value column L may hold: before a decision, an order's statuses, and an order awaiting an objection's outcome.
export const EXECUTION_STATUSES = ['NOT_STARTED', ...ORDER_STATUSES, 'PROVISIONAL'] as const;

// Column L (execution_status) from the statuses of a decision's orders. Cancelled orders no longer count; then,
// in this order: any FAILED → FAILED (a failed action needs a person whatever the others did); all DONE → DONE;
// any IN_PROGRESS, or some DONE and some not → IN_PROGRESS; any ACKNOWLEDGED → ACKNOWLEDGED; else PENDING.
// No orders → NOT_STARTED; only cancelled ones → CANCELLED.
export function executionStatusOf(statuses: readonly string[]): ExecutionStatus {
  const live = statuses.filter((s) => s !== 'CANCELLED');
  if (!live.length) return statuses.length ? 'CANCELLED' : 'NOT_STARTED';
  const any = (s: OrderStatus) => live.indexOf(s) >= 0;
  if (any('FAILED')) return 'FAILED';
  if (live.every((s) => s === 'DONE')) return 'DONE';
  if (any('IN_PROGRESS') || any('DONE')) return 'IN_PROGRESS';
  if (any('ACKNOWLEDGED')) return 'ACKNOWLEDGED';
  return 'PENDING';
}
