// More of a Kaigi in-process (beside inproc.ts): messages as stored, a configuration cell changed the way a person's
// edit is seen (onConfigEdit's work), a state several tests of a file start from (made once and copied), REST calls
// in call order, and the audit chain's check.
import { afterEach, vi } from 'vitest';
import { type TabKey, tabByKey } from '../../../sheets-schema/index.js';
import { bumpConfigVersion, Store } from '../../../src/store/store.js';
import { type MemoryPorts, memoryPorts } from '../../../src/adapters/memory/memory-ports.js';
import { usePorts } from '../../../src/ports.js';
import { verifyAudit } from '../../../src/app/audit/audit.js';
import { auditConfigEdit } from '../../../src/app/audit/config-audit.js';
import { Council } from '../../../src/app/sheet-council.js';
import { api, type Kaigi, kaigi, readRecords, ZONE } from './inproc.js';
import { type Message, messagesOf } from '../../messages-of.js';

export type { Message };

// Messages as stored (tests/council-helpers.ts's messages(), over the in-memory workbook).
export function messages(k: Kaigi, discussion?: string): Message[] {
  return messagesOf(k.records('messages'), discussion);
}

// Writes one cell of a configuration tab's row (found by its first column) as a person's edit would, then does what
// the on-edit trigger does with it: the configuration moves on, and the edit is audited.
export function editConfig(k: Kaigi, tab: TabKey, rowKey: string, columnKey: string, value: unknown): void {
  const spec = tabByKey(tab);
  const sheet = k.ports.spreadsheet.getSheetByName(spec.name)!;
  const keys = sheet
    .getRange(1, 1, sheet.getLastRow(), 1)
    .getValues()
    .map((r) => String(r[0]));
  const row = keys.indexOf(rowKey) + 1;
  const col = spec.columns.findIndex((c) => c.key === columnKey) + 1;
  if (row < 2 || col < 1) throw new Error(`no ${tab} row ${rowKey} or column ${columnKey}`);
  const cell = sheet.getRange(row, col);
  const oldValue = cell.getValues()[0][0];
  cell.setValues([[value]]);
  bumpConfigVersion();
  const edit = { tab, row, rows: 1, column: col, columns: 1, by: 'lead@example.com' };
  auditConfigEdit(
    new Store(k.ports.spreadsheet, ZONE),
    { ...edit, oldValue: String(oldValue), value: String(value) },
    new Date(),
  );
}

// A Kaigi in a state `make` brings a set-up one to (a DECIDED discussion, say), made once per worker and name, and
// copied for each test (cells, properties, cache), its clock where the first one's ended; with `make`'s value.
const made: Record<string, { ports: MemoryPorts; at: number; value: unknown }> = {};
let back: (() => void) | null = null;
afterEach(() => {
  back?.();
  back = null;
});

export function preparedKaigi<T>(name: string, make: (k: Kaigi) => T): { k: Kaigi; value: T } {
  const m = made[name];
  if (!m) {
    const k = kaigi();
    const value = make(k);
    made[name] = { ports: memoryPorts({ from: k.ports }), at: Date.now(), value: structuredClone(value) };
    return { k, value };
  }
  // kaigi() installs the fake clock and the afterEach that undoes it; its own copy is then set aside for this one.
  kaigi();
  vi.setSystemTime(m.at);
  const ports = memoryPorts({ from: m.ports });
  back = usePorts(ports);
  const k: Kaigi = {
    ports,
    council: () => new Council(ports.spreadsheets.active()!, ZONE),
    records: (key) => readRecords(ports, key),
    advance: (ms) => vi.setSystemTime(Date.now() + ms),
  };
  return { k, value: structuredClone(m.value) as T };
}

// One REST call answered as doGet/doPost answer it (the token in the query or the body), a moment after the last
// one as calls through the web app are (rows and messages keep the calls' order).
export function rest(token: string, method: 'GET' | 'POST', path: string, body: Record<string, unknown> = {}): any {
  vi.setSystemTime(Date.now() + 200);
  return api(token, method, path, body);
}

// The audit chain verified over the workbook, as verifyAudit does (no archive).
export function auditOk(k: Kaigi): boolean {
  return verifyAudit(new Store(k.ports.spreadsheet, ZONE)).ok;
}
