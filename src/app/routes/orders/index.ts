// The operations an outside executor uses: list its orders, report on each by id.
import type { Operation } from '../route.js';
import { listOrdersOp } from './list-orders.js';
import { reportOrderOp } from './report-order.js';

export const ORDER_OPERATIONS: readonly Operation[] = [listOrdersOp, reportOrderOp];
