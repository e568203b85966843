// kaigi export: one tab's logical rows as JSON or CSV (headers as keys, overflowed values reassembled).
import { type Command, InputError, need, print, UsageError, withExisting } from '../shared.js';

function csv(columns: string[], rows: Record<string, unknown>[]): string {
  const cell = (v: unknown) => {
    const s = v === undefined || v === null ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.map(cell).join(',')].concat(rows.map((r) => columns.map((c) => cell(r[c])).join(','))).join('\n');
}

export const exportCommand: Command = {
  name: 'export',
  options: ['workbook', 'tab', 'format'],
  run: ({ opts }) => {
    const format = String(opts.format ?? 'json');
    if (format !== 'json' && format !== 'csv') throw new UsageError('--format must be json or csv');
    return withExisting(opts, async (rt) => {
      const r = await rt.run('exportTab', [need(opts, 'tab')], { kind: 'editor' });
      if (!r.ok) throw new InputError(r.error!.message);
      const out = r.value as { columns: string[]; rows: Record<string, unknown>[] };
      await print(format === 'json' ? JSON.stringify(out.rows, null, 1) : csv(out.columns, out.rows));
      return 0;
    });
  },
};
