// kaigi report: an executor's report on a discussion's orders, as POST /tasks/{id}/result.
import { REPORT_STATUSES } from '../../src/core/order-status.js';
import { type Command, InputError, need, print, UsageError, withExisting } from '../shared.js';

export const reportCommand: Command = {
  name: 'report',
  options: ['workbook', 'discussion', 'status', 'report', 'by'],
  run: ({ opts }) => {
    const status = need(opts, 'status');
    if ((REPORT_STATUSES as readonly string[]).indexOf(status) < 0)
      throw new UsageError(`--status must be ${REPORT_STATUSES.join(', ')}; got ${status}`);
    const input: Record<string, unknown> = { discussion_id: need(opts, 'discussion'), status };
    if (opts.report !== undefined) input.report = String(opts.report);
    // The workbook's owner reports, as Apps Script would say; a report cannot name someone else (SPEC §10).
    if (opts.by !== undefined)
      throw new UsageError("kaigi report reports as the workbook's owner; --by is not accepted");
    return withExisting(
      opts,
      async (rt, file) => {
        const r = await rt.run('reportOrder', [input], { kind: 'server' });
        // An unknown discussion, a report its orders' status does not allow, a bad field: bad input (exit 2).
        if (!r.ok) throw new InputError(r.error!.message);
        await rt.save(file);
        await print(JSON.stringify(r.value));
        return 0;
      },
      true,
    );
  },
};
