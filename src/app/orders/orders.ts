// Reports on orders (`kaigi report`, the sidebar, POST /tasks/{id}/result, POST /orders/{order_id}/report):
// the only way an order moves on.
import { rowsOf } from '../../../sheets-schema/index.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { executionStatusOf, moveOrder, type ExecutionStatus } from '../../core/orders/order-status.js';
import {
  planOrderReport,
  reportInput,
  type OrderReportInput,
  type ReportedOrder,
} from '../../core/orders/order-report.js';
import type { Council, Loaded } from '../sheet-council.js';
import { listClients } from '../api/clients.js';
import { refuseIfAhead } from '../discussions/discussion-status.js';
import { OrderRows } from '../../store/repositories/order-rows.js';

const orderCols = rowsOf('orders');

export interface OrderReportResult {
  discussion_id: string;
  decision_id: string;
  orders: { order_id: string; from: string; to: string; implied: string[] }[];
  execution_status: ExecutionStatus;
  message_id: string;
}

// In one commit under the lock: the order named (order_id), or every open order of the discussion's current decision,
// takes the reported status and the report, each with an audit event naming who reported it; the transcript gets an
// ACKNOWLEDGEMENT; and column L is derived again from the orders (src/core/orders/order-status.ts). `by` is who is
// acting (the person Apps Script names, or `api:NAME`); the input cannot name anyone.
// `executor`: the reporter is a worker client of that name. An order naming an API client as its executor is that
// client's to report (or a coordinator's, an admin's, a person's in the sidebar); an order for a person (buddy) may be
// reported by any worker, an integration acting for people. A report of the status an order already has is answered as
// it stands, with nothing written: a retried report is no new message.
export function reportOrder(
  council: Council,
  raw: Partial<Record<Exclude<keyof OrderReportInput, 'by'>, unknown>>,
  by = 'unknown',
  executor?: string,
): OrderReportResult {
  const input = reportInput(raw, by);
  return council.store.withLock((state) => {
    // Read under the lock: a tick may be writing this discussion, or another report these orders.
    const l = input.order_id ? loadOfOrder(council, input) : council.discussions.load(input.discussion_id);
    const decision = l.d.final_decision ? String(l.d.final_decision.decision_id ?? '') : '';
    if (!decision)
      throw new ConflictError(
        `${input.discussion_id} has no execution order to report on (it is ${l.d.status})`,
        'no_open_order',
      );
    const orders: (ReportedOrder & { values: unknown[] })[] = council.discussions.orderRows(decision).map((row) => {
      const values = council.store.readRows('orders', row, 1)[0];
      const o = orderCols.read(values);
      return {
        row,
        values,
        order_id: String(o.order_id),
        target_agent: String(o.target_agent),
        status: String(o.status),
      };
    });
    const clients = executor === undefined ? [] : listClients().map((x) => x.name);
    const mine = (o: ReportedOrder) =>
      executor === undefined || o.target_agent === executor || clients.indexOf(o.target_agent) < 0;
    const named = orders.filter((o) => (input.order_id ? o.order_id === input.order_id : o.status !== 'CANCELLED'));
    if (executor !== undefined && named.length && !named.some(mine))
      throw new ForbiddenError(
        `${input.order_id || `the orders of ${decision}`} ${named.length === 1 ? 'is' : 'are'} for ${named
          .map((o) => o.target_agent)
          .filter((x, i, all) => all.indexOf(x) === i)
          .join(', ')}: a worker reports only on its own orders`,
        'not_executor',
      );
    const reported = named.filter(mine);
    if (reported.length && reported.every((o) => o.status === input.status))
      return {
        discussion_id: input.discussion_id,
        decision_id: decision,
        orders: [],
        execution_status: executionStatusOf(orders.map((o) => o.status)),
        message_id: '',
      };
    const now = council.now();
    const stamps = [l.d.created_at, ...reported.map((o) => orderCols.read(o.values).updated_at)];
    refuseIfAhead(now, input.order_id || input.discussion_id, stamps);
    const plan = planOrderReport(
      l.d,
      decision,
      orders,
      input,
      new Date(now).toISOString(),
      council.settings().get('actions.allow_list'),
      mine,
    );
    const c = council.store.begin(state);
    council.discussions.commitStep(c, l, plan.step, (cc) => {
      for (const m of plan.moves) {
        const base = orders.find((o) => o.row === m.row)!.values;
        cc.update(
          'orders',
          m.row,
          orderCols.write({ status: m.to, last_report: input.report, updated_at: new Date(now) }, base),
        );
        cc.audit({
          actor: input.by,
          event: 'order_report',
          tab: 'Orders',
          row_key: m.order_id,
          payload: { from: m.from, to: m.to, implied: m.implied, message_id: plan.message.message_id },
        });
      }
    });
    return {
      discussion_id: input.discussion_id,
      decision_id: decision,
      orders: plan.moves.map((m) => ({ order_id: m.order_id, from: m.from, to: m.to, implied: m.implied })),
      execution_status: plan.execution_status,
      message_id: plan.message.message_id,
    };
  });
}

// The discussion an order belongs to, from its Orders row. An order of a decision since replaced is final (DONE,
// FAILED) or CANCELLED: the report answers 409 naming its status.
function loadOfOrder(council: Council, input: OrderReportInput): Loaded {
  const orderId = input.order_id;
  const row = new OrderRows(council.store).rowOf(orderId);
  if (!row) throw new NotFoundError(`order ${orderId} was not found in the Orders tab`, 'order_not_found');
  const o = orderCols.read(council.store.readRows('orders', row, 1)[0]);
  const discussion = String(o.discussion_id);
  if (input.discussion_id && input.discussion_id !== discussion)
    throw new ValidationError(`order ${orderId} belongs to ${discussion}, not ${input.discussion_id}`);
  input.discussion_id = discussion;
  const l = council.discussions.load(discussion);
  const current = l.d.final_decision ? String(l.d.final_decision.decision_id ?? '') : '';
  if (String(o.decision_id) !== current) {
    moveOrder(o.status, input.status, orderId);
    throw new ConflictError(`order ${orderId} was replaced by decision ${current || '(none)'}`, 'order_replaced');
  }
  return l;
}
