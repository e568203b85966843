// kaigi verify-audit: recompute the audit hash chain; exit 1 at the first broken row, naming tab and row.
import { call, type Command, print, withExisting } from '../shared.js';

export const verifyAuditCommand: Command = {
  name: 'verify-audit',
  options: ['workbook'],
  run: ({ opts }) =>
    withExisting(opts, async (rt) => {
      const report = (await call(rt, 'verifyAudit')) as {
        ok: boolean;
        rows: number;
        problem?: { tab: string; row: number; detail: string };
      };
      await print(
        report.ok
          ? `audit chain intact: ${report.rows} rows`
          : `audit broken at ${report.problem!.tab} row ${report.problem!.row}: ${report.problem!.detail}`,
      );
      return report.ok ? 0 : 1;
    }),
};
