// kaigi kpi import: KPI rows from a CSV file (the KPI tab's columns as its header) into the workbook, through the
// script's importKpiCsv, the same check and commit as POST /kpi; a bad row is exit 2 naming its line and column.
import fs from 'node:fs';
import path from 'node:path';
import { type Args, type Command, InputError, need, print, UsageError, withExisting } from '../shared.js';

// A refusal of the rows (a bad row, a conflict with the stored value) is bad input; anything else is a failure.
const REFUSALS = ['ValidationError', 'ConflictError'];

function importCsv({ positionals, opts }: Args): Promise<number> {
  const csv = positionals[1];
  if (!csv) throw new UsageError('give the CSV file: kaigi kpi import --workbook F FILE.csv');
  const file = path.resolve(csv);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new InputError(`no CSV file at ${file}`);
  const text = fs.readFileSync(file, 'utf8');
  need(opts, 'workbook');
  return withExisting(
    opts,
    async (rt, workbook) => {
      const r = await rt.run('importKpiCsv', [{ text, replace: opts.replace === true }], { kind: 'editor' });
      if (!r.ok) {
        // The flag the command line takes, not the API's field: `--replace`, not `replace: true`.
        const message = `${path.basename(file)}: ${r.error!.message.split('send replace: true').join('pass --replace')}`;
        if (REFUSALS.indexOf(r.error!.name) >= 0) throw new InputError(message);
        throw new Error(message);
      }
      await rt.save(workbook);
      const { accepted, duplicates } = r.value as { accepted: number; duplicates: number };
      await print(JSON.stringify({ accepted, duplicates }));
      return 0;
    },
    true,
  );
}

export const kpiCommand: Command = {
  name: 'kpi',
  options: ['workbook'],
  flags: ['replace'],
  positionals: 2,
  run: (args) => {
    const sub = args.positionals[0];
    if (sub === 'import') return importCsv(args);
    throw new UsageError(sub ? `unknown kpi command "${sub}"` : 'give import');
  },
};
