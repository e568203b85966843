// KPI rows in the audit chain. Verdicts are measured on them, but an import may hold thousands, so they are chained
// per write batch, not per row: the commit that appends a run of KPI rows records on its Audit event where the run
// starts, how many rows it has, one SHA-256 over the rows' canonical texts and a 16-bit hash per row (to name the
// row that changed, as the column hashes name a column); a commit that rewrites a KPI row (a replaced value) records
// the row's new SHA-256 and its text before. verifyAudit recomputes each batch with the rows as they are (a row
// replaced since counts as it was then) and each rewritten row, and names the first row that differs.
// Rows no Kaigi commit wrote (typed by a person, seeded by the demo, written before this release) are outside it.
import { columnTypesOf, tabByKey } from '../../../sheets-schema/index.js';
import type { AuditEvent } from './audit.js';
import type { AuditRecord, RowProblem } from './audit-check.js';
import type { RowWrite } from './audit-events.js';
import { canonicalRow, columnHashes, firstChangedColumn, fnv } from './audit-rows.js';

type Sha256 = (s: string) => string;

// Rows one batch record covers at most: its row hashes (4 characters each) stay far below a cell's 50,000.
const MAX_BATCH_ROWS = 2000;
const KPI = tabByKey('kpi');

// Recorded on the event that appends a run of rows (payload.kpi_batch).
interface KpiBatch {
  first_row: number;
  row_count: number;
  // SHA-256 of the rows' canonical texts joined by '\n'.
  sha256: string;
  // fnv() of each row's canonical text, concatenated.
  rows: string;
}

// Recorded on the event that rewrites one row (payload.kpi_row).
interface KpiRow {
  row: number;
  // The row's canonical text before the rewrite, as the sheet held it.
  was: string;
  sha256: string;
  cols: string;
}

const textOf = (values: readonly unknown[]) => canonicalRow(columnTypesOf('kpi'), values);

function batchOf(first: number, rows: readonly (readonly unknown[])[], sha256: Sha256): KpiBatch {
  const texts = rows.map(textOf);
  return { first_row: first, row_count: rows.length, sha256: sha256(texts.join('\n')), rows: texts.map(fnv).join('') };
}

// Attaches `record` under `field` to the latest event naming `key` that has none yet, or adds an event of its own.
function attach(out: AuditEvent[], extra: AuditEvent[], key: string, field: string, record: object, add: AuditEvent) {
  for (let i = out.length - 1; i >= 0; i--)
    if (out[i].tab === KPI.name && out[i].row_key === key && !(field in out[i].payload)) {
      out[i].payload[field] = record;
      return;
    }
  extra.push({ ...add, payload: { [field]: record } });
}

// A commit's events with its KPI writes recorded: each run of appended rows (in batches of at most MAX_BATCH_ROWS)
// on the event naming it (`KPI:FIRST-LAST`), each rewritten row on the one naming it (`KPI:ROW`); `before(row)` is
// the row as the sheet holds it before the commit (read only for a rewritten row).
export function withKpiDigests(
  events: readonly AuditEvent[],
  writes: readonly RowWrite[],
  before: (row: number) => readonly unknown[],
  actor: string,
  sha256: Sha256,
): AuditEvent[] {
  const last = new Map<number, { values: readonly unknown[]; appended: boolean }>();
  for (const w of writes)
    if (w.tab === 'kpi') last.set(w.row, { values: w.values, appended: w.appended || !!last.get(w.row)?.appended });
  if (!last.size) return events as AuditEvent[];
  const out = events.map((e) => ({ ...e, payload: { ...e.payload } }));
  const extra: AuditEvent[] = [];
  const appended = [...last.keys()].filter((r) => last.get(r)!.appended).sort((a, b) => a - b);
  for (let i = 0; i < appended.length; ) {
    let j = i + 1;
    while (j < appended.length && j - i < MAX_BATCH_ROWS && appended[j] === appended[j - 1] + 1) j++;
    const first = appended[i];
    const key = `${KPI.name}:${first}-${appended[j - 1]}`;
    const batch = batchOf(
      first,
      appended.slice(i, j).map((r) => last.get(r)!.values),
      sha256,
    );
    attach(out, extra, key, 'kpi_batch', batch, {
      actor,
      event: 'kpi_rows_added',
      tab: KPI.name,
      row_key: key,
      payload: {},
    });
    i = j;
  }
  for (const [row, w] of last) {
    if (w.appended) continue;
    const text = textOf(w.values);
    const record: KpiRow = {
      row,
      was: textOf(before(row)),
      sha256: sha256(text),
      cols: columnHashes(columnTypesOf('kpi'), w.values),
    };
    const key = `${KPI.name}:${row}`;
    attach(out, extra, key, 'kpi_row', record, {
      actor,
      event: 'kpi_row_changed',
      tab: KPI.name,
      row_key: key,
      payload: {},
    });
  }
  return out.concat(extra);
}

const isBatch = (b: unknown): b is KpiBatch => {
  const x = b as KpiBatch;
  return (
    !!x &&
    Number.isInteger(x.first_row) &&
    Number.isInteger(x.row_count) &&
    typeof x.sha256 === 'string' &&
    typeof x.rows === 'string'
  );
};

const isRow = (r: unknown): r is KpiRow => {
  const x = r as KpiRow;
  return (
    !!x &&
    Number.isInteger(x.row) &&
    typeof x.was === 'string' &&
    typeof x.sha256 === 'string' &&
    typeof x.cols === 'string'
  );
};

// The KPI tab (row 2 is rows[0]) against every batch and rewrite the chain records: the first problem, or null.
export function checkKpi(
  events: readonly AuditRecord[],
  rows: readonly (readonly unknown[])[],
  sha256: Sha256,
): RowProblem | null {
  const batches: (KpiBatch & { seq: number })[] = [];
  const rewrites = new Map<number, (KpiRow & { seq: number })[]>();
  for (const e of events) {
    if (e.tab !== KPI.name) continue;
    if (isBatch(e.payload.kpi_batch)) batches.push({ ...e.payload.kpi_batch, seq: e.seq });
    if (isRow(e.payload.kpi_row)) {
      const list = rewrites.get(e.payload.kpi_row.row) ?? [];
      list.push({ ...e.payload.kpi_row, seq: e.seq });
      rewrites.set(e.payload.kpi_row.row, list);
    }
  }
  const textAt = (row: number) => textOf(rows[row - 2] ?? []);
  const problem = (row: number, detail: string, column?: string): RowProblem =>
    column ? { tab: KPI.name, row, column, detail } : { tab: KPI.name, row, detail };
  for (const b of batches) {
    const texts: string[] = [];
    for (let row = b.first_row; row < b.first_row + b.row_count; row++) {
      // A row rewritten after the batch is checked as it was then: the rewrite recorded that text.
      const later = rewrites.get(row)?.find((r) => r.seq > b.seq);
      texts.push(later ? later.was : textAt(row));
    }
    if (sha256(texts.join('\n')) === b.sha256) continue;
    const i = texts.findIndex((t, k) => fnv(t) !== b.rows.slice(k * 4, k * 4 + 4));
    const row = b.first_row + Math.max(0, i);
    const end = b.first_row + b.row_count - 1;
    return problem(
      row,
      `row ${row} was altered, or rows were removed or inserted before it, after audit seq ${b.seq} (KPI rows ${b.first_row}–${end} were recorded together)`,
    );
  }
  const types = columnTypesOf('kpi');
  for (const [row, list] of [...rewrites].sort((a, b) => a[0] - b[0])) {
    for (let k = 1; k < list.length; k++)
      if (sha256(list[k].was) !== list[k - 1].sha256)
        return problem(row, `row ${row} was altered between audit seq ${list[k - 1].seq} and ${list[k].seq}`);
    const latest = list[list.length - 1];
    // A batch recorded later covers the row as it is now (checked above).
    if (batches.some((b) => b.seq > latest.seq && row >= b.first_row && row < b.first_row + b.row_count)) continue;
    if (sha256(textAt(row)) === latest.sha256) continue;
    const c = firstChangedColumn(types, rows[row - 2] ?? [], latest.cols);
    const column = c >= 0 ? KPI.columns[c].key : undefined;
    return problem(
      row,
      `row ${row}${column ? `, column ${column},` : ''} was altered after audit seq ${latest.seq}`,
      column,
    );
  }
  return null;
}
