// The API Log in the audit chain: its rows are not audited one by one (that would double the
// writes of every call) but as batches — one `api_log_batch` Audit event holds the SHA-256 over a run of
// consecutive rows and where the run starts — so a row deleted, altered or inserted among them breaks the check.
// Rows written by a release before this one, and the newest rows not yet in a batch, are outside every batch.
import { columnTypesOf } from '../../../sheets-schema/index.js';
import { canonicalRow, rowDigest } from '../audit/audit-rows.js';
import type { AuditRecord, RowProblem } from '../audit/audit-check.js';

export const API_LOG_BATCH = 'api_log_batch';

// How a batch's digest is taken, recorded in its event as `batch_v` (none: 1).
// 1: each row's digest (as verifyAudit reads rows back, src/core/audit/audit-rows.ts), chained: a SHA-256 a row.
// 2: one SHA-256 over the rows' canonical texts, a line each (a row's text is JSON, so it holds no line break). The
//    same rows are covered; a day of one client at a tenth of the rate limit is 8,640 rows, which version 1 digested
//    in 8,641 calls when written and again at every verifyAudit (3 million a year).
export const BATCH_VERSION = 2;

interface BatchRecord {
  first_row: number;
  row_count: number;
  batch_sha256: string;
  batch_v: number;
}

type Sha256 = (s: string) => string;

// The digest of a batch in version `v` (this release's when not given).
export function batchDigest(rows: readonly (readonly unknown[])[], sha256: Sha256, v = BATCH_VERSION): string {
  const types = columnTypesOf('api_log');
  if (v === 1) return sha256(rows.map((r) => rowDigest(types, r, sha256)).join('\n'));
  return sha256(rows.map((r) => canonicalRow(types, r)).join('\n'));
}

// The payload of the api_log_batch event over `rows`, the log's rows from `firstRow` (as batches number them).
export function batchPayload(
  firstRow: number,
  rows: readonly (readonly unknown[])[],
  sha256: Sha256,
): { first_row: number; row_count: number; batch_sha256: string; batch_v: number } {
  return {
    first_row: firstRow,
    row_count: rows.length,
    batch_sha256: batchDigest(rows, sha256),
    batch_v: BATCH_VERSION,
  };
}

// The log's rows as its batches number them (row 2 is the first): read a run at a time, so verifyAudit never holds a
// year's log at once. Fewer rows than asked when the log ends first.
export interface LogRows {
  read(firstRow: number, count: number): readonly (readonly unknown[])[];
}

function batchOf(e: AuditRecord): BatchRecord | null {
  const p = e.payload;
  if (e.event !== API_LOG_BATCH) return null;
  if (typeof p.first_row !== 'number' || typeof p.row_count !== 'number' || typeof p.batch_sha256 !== 'string')
    return null;
  const v = p.batch_v === undefined ? 1 : Number(p.batch_v);
  return { first_row: p.first_row, row_count: p.row_count, batch_sha256: p.batch_sha256, batch_v: v };
}

// Every batch the chain records, checked against the log's rows as `rows` reads them; the first problem, naming the
// row where it starts. Batches follow each other without a gap, so a deleted or inserted row is caught by the
// batch it falls in, or by the next batch no longer starting where the chain says.
export function checkApiLog(
  events: readonly AuditRecord[],
  rows: LogRows,
  label: string,
  sha256: Sha256,
): RowProblem | null {
  const batches = events.map(batchOf).filter((b): b is BatchRecord => b !== null);
  let expected = batches.length ? batches[0].first_row : 0;
  for (const b of batches) {
    // A batch may start before the end of the one before it (an execution killed after its commit re-digests those
    // rows in the next one); never after it.
    if (b.first_row > expected)
      return {
        tab: label,
        row: expected,
        detail: `the API Log batch recorded at row ${b.first_row} does not follow the one before it (row ${expected}): rows were removed or inserted`,
      };
    if (b.batch_v !== 1 && b.batch_v !== BATCH_VERSION)
      return {
        tab: label,
        row: b.first_row,
        detail: `the API Log batch at row ${b.first_row} is digested in version ${b.batch_v}, which this release does not know: update Kaigi to verify it`,
      };
    const slice = rows.read(b.first_row, b.row_count);
    if (slice.length < b.row_count || batchDigest(slice, sha256, b.batch_v) !== b.batch_sha256)
      return {
        tab: label,
        row: b.first_row,
        detail: `API Log rows ${b.first_row}–${b.first_row + b.row_count - 1} differ from their batch in the audit: a row was altered, removed or inserted`,
      };
    expected = Math.max(expected, b.first_row + b.row_count);
  }
  return null;
}
