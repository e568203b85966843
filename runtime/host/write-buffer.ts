// An execution's held spreadsheet writes, in every spreadsheet it opened: sent on a read of their sheet,
// flush() or a normal end; lost on a kill.
import type { ServiceOp } from '../service-calls.js';
import type { JournalSink } from './journal.js';
import { shareRows } from './row-sharing.js';
import { shareValidations, type SheetModel } from './sheet-model.js';
import { sheetEntry } from './sheet-entry.js';
import type { Workbook } from './workbook.js';

// Apps Script queues these and sends them to the spreadsheet later, in order. They all return nothing, so the
// script cannot tell from the answer that a write has not happened yet.
export const HELD_WRITES: ReadonlySet<ServiceOp> = new Set<ServiceOp>([
  'rg.setValues',
  'rg.setFormulas',
  'rg.setNumberFormats',
  'rg.setValidation',
  'rg.clear',
  'rg.setStyle',
  'sh.appendRow',
  'sh.insertRows',
  'sh.deleteRows',
  'sh.insertColumns',
  'sh.deleteColumns',
  'sh.setFrozen',
  'sh.setColumnWidths',
  'sh.clear',
]);

// Calls about a sheet that change it at once, without sending its held writes first. Google does not document
// whether these are queued; they carry no rows, and they return objects (a protection, a chart id) the script
// uses straight away, so they apply immediately. Not sending the held rows first is the harsher reading: the rows
// stay exposed to a kill. Spreadsheet-level structure (insertSheet, deleteSheet, rename, time zone) is immediate
// for the same reason and names no sheet, so it sends nothing either.
export const IMMEDIATE_SHEET_CALLS: ReadonlySet<ServiceOp> = new Set<ServiceOp>([
  'sh.setName',
  'sh.setHidden',
  'sh.setTabColor',
  'sh.protect',
  'rg.protect',
  'pr.update',
  'pr.remove',
  'sh.chartUpsert',
  'sh.chartRemove',
  'ss.setActive',
  'ss.deleteSheet',
]);

// What the buffer needs of the host's state (HostState, handler.ts, which holds a WriteBuffer in each execution): the
// workbook a call is about and the journal. The rest of the state passes through untouched to the writes' handlers.
interface WriteState {
  workbook: Workbook;
  journal?: JournalSink;
}

// One held write: the spreadsheet and sheet it is on and how to carry it out against a state.
interface HeldWrite<S extends WriteState> {
  wb: Workbook;
  sheet: number;
  op: ServiceOp;
  // The call's arguments and who made it, for the journal when the write is sent.
  args: unknown;
  who: { user: string; owner: string };
  apply: (st: S) => void;
}

// A sheet copy the execution's held writes are tried on, so a write that Apps Script would reject at once
// (a wrong grid size, a range off the sheet, a cell over 50,000 characters) is rejected at once here too.
// Styles are copied because the workbook's edits change them in place. The cells themselves and the rows of formats
// are replaced on every edit, never changed, so they are shared. The rows of cells and the map of validations
// (thousands of keys on a set-up tab) are shared until either side first changes one (row-sharing.ts writableRow,
// sheet-model.ts writableValidations): a commit's copy of a long tab no longer copies every row and rule of it.
function privateCopy(s: SheetModel): SheetModel {
  const styles: SheetModel['styles'] = {};
  for (const k of Object.keys(s.styles)) styles[k] = { ...s.styles[k] };
  return {
    ...s,
    cells: shareRows(s),
    formats: s.formats.slice(),
    styles,
    validations: shareValidations(s),
    columnWidths: { ...s.columnWidths },
  };
}

export class WriteBuffer<S extends WriteState = WriteState> {
  private held: HeldWrite<S>[] = [];

  // Whose writes these are: the execution's user and effective user (ExecContext).
  constructor(private readonly who: { user: string; owner: string }) {}

  // Per workbook and sheet id: the copy this execution's held writes have been tried on since that sheet was last
  // sent. Sheet ids are only unique within a spreadsheet (every new one starts with sheet 0).
  private readonly copies = new Map<Workbook, Map<number, SheetModel>>();

  get size(): number {
    return this.held.length;
  }

  private copiesOf(wb: Workbook): Map<number, SheetModel> {
    let m = this.copies.get(wb);
    if (!m) this.copies.set(wb, (m = new Map()));
    return m;
  }

  // The workbook as this execution sees it while writing: the shared one, with its own copies in place of the
  // sheets it holds writes for. Everything else (time zone, cell limit, other sheets) reads through to the shared one.
  private view(st: S, sheet: number): S {
    const shared = st.workbook;
    const copies = this.copiesOf(shared);
    if (!copies.has(sheet)) {
      const s = shared.sheets.find((x) => x.id === sheet);
      if (s) copies.set(sheet, privateCopy(s));
    }
    const wb = Object.create(shared) as Workbook;
    wb.sheets = shared.sheets.map((s) => copies.get(s.id) ?? s);
    return { ...st, workbook: wb };
  }

  // Tries the write on the execution's copy (its errors reach the script now), then holds it. `st.workbook` is the
  // spreadsheet the write is for.
  hold(st: S, sheet: number, op: ServiceOp, args: unknown, apply: (st: S) => void): void {
    apply(this.view(st, sheet));
    this.held.push({ wb: st.workbook, sheet, op, args, who: this.who, apply });
  }

  // A read of a sheet sees this execution's earlier writes to it: send them first, in order. Returns how many sheets'
  // writes were sent (0 or 1): each is priced as one Sheets write (time-model.ts).
  sendSheet(st: S, sheet: number): number {
    const wb = st.workbook;
    const mine = (w: HeldWrite<S>) => w.wb === wb && w.sheet === sheet;
    if (!this.held.some(mine)) return 0;
    const sent = this.held.filter(mine);
    this.held = this.held.filter((w) => !mine(w));
    this.copies.get(wb)?.delete(sheet);
    send(st, sent);
    return 1;
  }

  // SpreadsheetApp.flush() and a normal end: every held write of every spreadsheet, in the order the script made them.
  // Returns how many sheets had writes sent.
  sendAll(st: S): number {
    const all = this.held;
    this.held = [];
    this.copies.clear();
    const sheets = new Set(all.map((w) => `${w.wb.id}\u0000${w.sheet}`)).size;
    send(st, all);
    return sheets;
  }

  // A deleted sheet's held writes have nowhere to go.
  discardSheet(st: S, sheet: number): void {
    const wb = st.workbook;
    this.held = this.held.filter((w) => w.wb !== wb || w.sheet !== sheet);
    this.copies.get(wb)?.delete(sheet);
  }

  // A killed or timed-out execution: what it had not sent is lost.
  drop(): number {
    const n = this.held.length;
    this.held = [];
    this.copies.clear();
    return n;
  }
}

// Carries out held writes on the shared workbook. A write can still fail here when another execution changed the
// sheet in between (rows deleted, the cell limit reached); Apps Script then reports the error at the call that sent
// the batch, and the batch's later writes do not happen. Both are the harsher reading, taken here.
// Each write is journaled once it has been carried out on the shared workbook.
function send<S extends WriteState>(st: S, writes: HeldWrite<S>[]): void {
  for (const w of writes) {
    const entry = st.journal ? sheetEntry(w.wb, w.who, w.op, w.args) : null;
    w.apply(w.wb === st.workbook ? st : { ...st, workbook: w.wb });
    if (entry) st.journal!.append(entry(null));
  }
}
