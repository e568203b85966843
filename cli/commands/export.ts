// kaigi export: one tab's logical rows as JSON or CSV (headers as keys, overflowed values reassembled).
import { csvText } from '../csv.js';
import { type Command, need, print, refusedAs, UsageError, withExisting } from '../shared.js';

export const exportCommand: Command = {
  name: 'export',
  options: ['workbook', 'tab', 'format'],
  run: ({ opts }) => {
    const format = String(opts.format ?? 'json');
    if (format !== 'json' && format !== 'csv') throw new UsageError('--format must be json or csv');
    return withExisting(opts, async (rt) => {
      const tab = need(opts, 'tab');
      const r = await rt.run('exportTab', [tab], { kind: 'editor' });
      if (!r.ok) throw refusedAs(r.error!.message, {}, `--tab ${tab}`);
      const out = r.value as { columns: string[]; rows: Record<string, unknown>[] };
      await print(format === 'json' ? JSON.stringify(out.rows, null, 1) : csvText(out.columns, out.rows));
      return 0;
    });
  },
};
