// A journal's records carried out again on the snapshot they follow, as they were first applied: the same handlers,
// with the ids the first run made, so the state is the one the acknowledged answers saw.
import { decode } from '../gas/bridge.js';
import { newCounts, replayOp } from './dispatch.js';
import type { ExecContext, HostState } from './handler.js';
import type { JournalRecord } from './journal-records.js';
import type { PropertyStore } from './properties-store.js';
import { SheetsError } from './sheet-model.js';
import { ExecClock } from './time-model.js';
import { WriteBuffer } from './write-buffer.js';
import { Workbook } from './workbook.js';

function workbookOf(st: HostState, id: string | undefined): Workbook {
  if (id === undefined || id === st.workbook.id) return st.workbook;
  const made = st.spreadsheets.all().find(([x]) => x === id);
  if (!made) throw new SheetsError(`the journal names spreadsheet ${id}, which the project does not have`);
  return made[1].workbook;
}

function storeOf(st: HostState, store: string, user: string | undefined): PropertyStore {
  if (store === 'script') return st.scriptProperties;
  if (store === 'user') return st.userProperties(user ?? '');
  return st.documentProperties;
}

// The object a replayed call made gets the id the first run gave it, which later records name.
function sameId(wb: Workbook, op: string, args: Record<string, unknown>, made: unknown, want: number): void {
  const got = typeof made === 'number' ? made : (made as { id: number }).id;
  if (op === 'ss.insertSheet') {
    if (got !== want) {
      if (wb.sheets.some((s) => s.id === want)) throw new SheetsError(`sheet id ${want} is taken on replay`);
      wb.sheetById(got).id = want;
    }
    wb.noteSheetId(want);
    return;
  }
  if (op === 'sh.protect' || op === 'rg.protect') {
    const p = wb.sheetById(args.sheet as number).protections.find((x) => x.id === got);
    if (p) p.id = want;
  }
  wb.noteObjectId(want);
}

function replayOne(st: HostState, r: JournalRecord, onClock: (offset: number) => void): void {
  switch (r.k) {
    case 'op': {
      const wb = workbookOf(st, r.ss);
      const args = decode(r.args) as Record<string, unknown>;
      const chart = args.chart as { id?: number } | undefined;
      if (r.op === 'sh.chartUpsert' && chart && !chart.id && r.result !== undefined) chart.id = r.result;
      const ex: ExecContext = {
        id: 0,
        user: r.user,
        owner: r.owner,
        kind: 'replay',
        counts: newCounts(),
        clock: new ExecClock(st.clock),
        writes: new WriteBuffer({ user: r.user, owner: r.owner }),
      };
      const made = replayOp(wb === st.workbook ? st : { ...st, workbook: wb }, ex, r.op, args);
      if (r.result !== undefined) sameId(wb, r.op, args, made, r.result);
      return;
    }
    case 'create':
      st.spreadsheets.adopt(
        Workbook.create({ id: r.id, name: r.name, timeZone: r.timeZone, locale: r.locale }),
        r.owner,
      );
      return;
    case 'props':
      storeOf(st, r.store, r.user).set(r.entries, r.deleteAllOthers);
      return;
    case 'props-delete':
      storeOf(st, r.store, r.user).delete(r.key);
      return;
    case 'props-clear':
      storeOf(st, r.store, r.user).clear();
      return;
    case 'triggers':
      st.triggers.restore(structuredClone(r.list));
      return;
    case 'clock':
      onClock(r.offset);
      return;
  }
}

// Carries out the records after `after` in order; returns the number of the last one carried out (or `after`).
// A clock record names the saved clock's offset, which `onClock` takes on (saved-clock.ts): the running clock's only
// when the runtime runs on the simulated one.
export function replayJournal(
  st: HostState,
  records: JournalRecord[],
  after: number,
  onClock: (offset: number) => void,
): number {
  let last = after;
  for (const r of records) {
    if (r.n <= after) continue;
    try {
      replayOne(st, r, onClock);
    } catch (e) {
      throw new Error(
        `record ${r.n} (${r.k === 'op' ? r.op : r.k}) cannot be carried out again: ${(e as Error).message}`,
      );
    }
    last = r.n;
  }
  return last;
}
