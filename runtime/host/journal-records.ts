// The records of the workbook's journal (journal.ts) and how they sit in the file: one line each, checksummed, so a
// line torn by a kill is recognised and only ever at the end.
import crypto from 'node:crypto';
import type { StoreName } from '../service-calls.js';
import { FormatError, isRecord } from './format-errors.js';
import type { TriggerModel } from './triggers.js';

export const JOURNAL_VERSION = 1;
const WHAT = 'the journal';

// The first line: which workbook the journal belongs to, so one left beside another workbook is never replayed on it,
// and the record the last compaction kept the journal after (a reader holding an older snapshot must read again).
export interface JournalHeader {
  journal: typeof JOURNAL_VERSION;
  workbook: string;
  after: number;
}

// A change to the shared state, as it was applied, with everything replay needs to apply it the same way again:
// `n` numbers records across the workbook's life (the sidecar keeps the last one its snapshot holds).
export type JournalEntry =
  // A spreadsheet service call that changed a workbook: the bound one, or the created one `ss` names. `args` is the
  // call's arguments in the bridge's encoding (dates kept); `result` is the id it made (a sheet, a protection, a
  // chart), which replay gives the object again, as a snapshot's loaded counters may differ from the live ones.
  | { k: 'op'; ss?: string; op: string; args: string; user: string; owner: string; result?: number }
  // SpreadsheetApp.create: the new spreadsheet's id (drawn at random) and everything it was made with.
  | { k: 'create'; id: string; name: string; owner: string; timeZone: string; locale: string }
  // A property store written: `user` names whose store for 'user'.
  | { k: 'props'; store: StoreName; user?: string; entries: Record<string, string>; deleteAllOthers: boolean }
  | { k: 'props-delete'; store: StoreName; user?: string; key: string }
  | { k: 'props-clear'; store: StoreName; user?: string }
  // The installable triggers after a change (created, deleted, fired and rescheduled): few, so all of them.
  | { k: 'triggers'; list: TriggerModel[] }
  // The saved (simulated) clock's offset, whenever it changed since the last record; trigger times are on that clock.
  | { k: 'clock'; offset: number };

export type JournalRecord = JournalEntry & { n: number };

function checksum(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

// JSON never holds a raw tab or newline, so the line is the JSON, a tab, and its checksum.
export function frame(value: JournalHeader | JournalRecord): string {
  const json = JSON.stringify(value);
  return `${json}\t${checksum(json)}\n`;
}

function unframe(line: string): unknown {
  const tab = line.lastIndexOf('\t');
  if (tab < 0) return undefined;
  const json = line.slice(0, tab);
  if (checksum(json) !== line.slice(tab + 1)) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

export interface ParsedJournal {
  header: JournalHeader;
  records: JournalRecord[];
  // Bytes of whole, valid lines: what follows (a line a kill tore) is cut off before appending again.
  validBytes: number;
}

// A journal's records in order. A bad line is a write a kill interrupted only when nothing valid follows it; a bad
// line before a good one is damage, which stops the load rather than dropping changes that were acknowledged.
export function parseJournal(bytes: Buffer, file: string): ParsedJournal | null {
  const lines: { value: unknown; end: number }[] = [];
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? bytes.length : nl + 1;
    lines.push({ value: nl < 0 ? undefined : unframe(bytes.toString('utf8', start, nl)), end });
    start = end;
  }
  const firstBad = lines.findIndex((l) => l.value === undefined);
  const valid = firstBad < 0 ? lines : lines.slice(0, firstBad);
  if (firstBad >= 0 && lines.slice(firstBad).some((l) => l.value !== undefined))
    throw new FormatError(file, WHAT, `line ${firstBad + 1} is damaged and valid records follow it`);
  if (valid.length === 0) return null;
  const header = valid[0].value;
  if (
    !isRecord(header) ||
    header.journal !== JOURNAL_VERSION ||
    typeof header.workbook !== 'string' ||
    typeof header.after !== 'number'
  )
    throw new FormatError(file, WHAT, `its first line is not a version ${JOURNAL_VERSION} journal header`);
  const records: JournalRecord[] = [];
  for (const { value } of valid.slice(1)) {
    const last = records.length ? records[records.length - 1].n : 0;
    if (!isRecord(value) || typeof value.k !== 'string' || typeof value.n !== 'number' || !(value.n > last))
      throw new FormatError(file, WHAT, `record ${records.length + 1} is not a record numbered after ${last}`);
    records.push(value as JournalRecord);
  }
  return { header: header as unknown as JournalHeader, records, validBytes: valid[valid.length - 1].end };
}
