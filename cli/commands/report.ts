// kaigi report: an executor's report on one order (--order, as POST /orders/{order_id}/report) or on a discussion's
// open orders (--discussion, as POST /tasks/{id}/result).
import { REPORT_STATUSES } from '../../src/core/orders/order-status.js';
import { type Command, need, print, refusedAs, UsageError, withExisting } from '../shared.js';

export const reportCommand: Command = {
  name: 'report',
  options: ['workbook', 'order', 'discussion', 'status', 'report', 'by'],
  run: ({ opts }) => {
    const status = need(opts, 'status');
    if ((REPORT_STATUSES as readonly string[]).indexOf(status) < 0)
      throw new UsageError(`--status must be ${REPORT_STATUSES.join(', ')}; got ${status}`);
    // One order by its id, or every open order of a discussion: exactly one of the two.
    if ((opts.order === undefined) === (opts.discussion === undefined))
      throw new UsageError('kaigi report takes --order ORDER_ID (one order) or --discussion ID (its open orders)');
    const input: Record<string, unknown> = { status };
    if (opts.order !== undefined) input.order_id = need(opts, 'order');
    else input.discussion_id = need(opts, 'discussion');
    if (opts.report !== undefined) input.report = String(opts.report);
    // The workbook's owner reports, as Apps Script would say; a report cannot name someone else.
    if (opts.by !== undefined)
      throw new UsageError("kaigi report reports as the workbook's owner; --by is not accepted");
    return withExisting(
      opts,
      async (rt, file) => {
        const r = await rt.run('reportOrder', [input], { kind: 'server' });
        // An unknown discussion, a report its orders' status does not allow, a bad field: bad input (exit 2).
        if (!r.ok)
          throw refusedAs(
            r.error!.message,
            { order_id: 'order', discussion_id: 'discussion', report: 'report' },
            input.order_id === undefined ? `--discussion ${input.discussion_id}` : `--order ${input.order_id}`,
          );
        await rt.save(file);
        await print(JSON.stringify(r.value));
        return 0;
      },
      true,
    );
  },
};
