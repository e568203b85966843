// The journal entry of a spreadsheet change: made for direct calls (journal-ops.ts), held writes as they are sent
// (write-buffer.ts) and a person's edits (person-edits.ts).
import { encode } from '../gas/bridge.js';
import type { ServiceOp } from '../service-calls.js';
import type { JournalEntry } from './journal-records.js';
import type { Workbook } from './workbook.js';

// Calls whose answer is an id the call made; replay gives the new object that id again.
const MADE_ID: ReadonlySet<string> = new Set(['ss.insertSheet', 'sh.protect', 'rg.protect', 'sh.chartUpsert']);

function madeId(op: string, result: unknown): number | undefined {
  if (!MADE_ID.has(op)) return undefined;
  if (typeof result === 'number') return result;
  const id = (result as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : undefined;
}

// A spreadsheet change: the arguments are encoded before the call runs (a handler may fill them in), the entry is
// finished with what the call answered.
export function sheetEntry(
  wb: Workbook,
  ex: { user: string; owner: string },
  op: ServiceOp,
  args: unknown,
): (result: unknown) => JournalEntry {
  const encoded = encode(args);
  return (result) => {
    const id = madeId(op, result);
    return {
      k: 'op',
      ss: wb.id,
      op,
      args: encoded,
      user: ex.user,
      owner: ex.owner,
      ...(id === undefined ? {} : { result: id }),
    };
  };
}
