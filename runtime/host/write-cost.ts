// The price of held writes reaching the spreadsheet: one Sheets write per sheet sent, on the execution's clock and
// its trigger runtime, whichever call sent them (a read of the sheet, flush() or the execution's end).
import type { ExecContext, HostState } from './handler.js';

// Draws for sends are numbered apart from the calls' own, so a send never repeats a call's draw.
const SEND_DRAWS = 1_000_000;

export function chargeSentWrites(st: HostState, ex: ExecContext, sheets: number): void {
  for (let i = 0; i < sheets; i++) {
    const ms = st.timeModel.draw('sheets_write', ex.id, SEND_DRAWS + ex.counts.sentBatches++);
    st.quota.chargeWait(ex, ms / 1000);
    ex.clock.spend(ms);
    ex.counts.msByKind.sheets_write = (ex.counts.msByKind.sheets_write ?? 0) + ms;
  }
}
