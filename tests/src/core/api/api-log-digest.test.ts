// API Log batches: version 2 (one digest over the rows' texts) and version 1 (a digest a row, chained) both verify,
// an altered or missing row fails either, and a version this release does not know is named, not passed.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../../sheets-schema/index.js';
import {
  API_LOG_BATCH,
  BATCH_VERSION,
  batchDigest,
  batchPayload,
  checkApiLog,
  type LogRows,
} from '../../../../src/core/api/api-log-digest.js';
import type { AuditRecord } from '../../../../src/core/audit/audit-check.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const cols = rowsOf('api_log');

function logRows(n: number, from = 0): unknown[][] {
  return Array.from({ length: n }, (_, i) =>
    cols.write({
      time: new Date(Date.UTC(2026, 0, 1, 0, from + i)),
      client: 'crm',
      call: 'GET /status',
      status: 200,
      code: '',
      duration_ms: 100 + i,
    }),
  );
}

// The log as an array (row 2 is rows[0]), read as verifyAudit reads its pages.
function source(rows: unknown[][]): LogRows & { reads: number } {
  return {
    reads: 0,
    read(first, count) {
      this.reads++;
      return rows.slice(first - 2, first - 2 + count);
    },
  };
}

function event(payload: Record<string, unknown>, seq = 1): AuditRecord {
  return { seq, event: API_LOG_BATCH, tab: '', row_key: `API Log:${payload.first_row}`, payload } as AuditRecord;
}

describe('API Log batch digests', () => {
  const rows = logRows(6);

  it('writes version 2: one digest over the rows, which verifies', () => {
    const calls: string[] = [];
    const counted = (s: string) => {
      calls.push(s);
      return sha(s);
    };
    const p = batchPayload(2, rows, counted);
    expect(p).toMatchObject({ first_row: 2, row_count: 6, batch_v: BATCH_VERSION });
    expect(BATCH_VERSION).toBe(2);
    // One SHA-256 for the batch, not one a row.
    expect(calls).toHaveLength(1);
    expect(checkApiLog([event(p)], source(rows), 'API Log', sha)).toBeNull();
  });

  it('still verifies a version 1 batch (no batch_v), and tells the two apart', () => {
    const v1 = { first_row: 2, row_count: 6, batch_sha256: batchDigest(rows, sha, 1) };
    expect(v1.batch_sha256).not.toBe(batchDigest(rows, sha));
    expect(checkApiLog([event(v1)], source(rows), 'API Log', sha)).toBeNull();
    // A version 1 digest claimed as version 2 does not pass.
    expect(checkApiLog([event({ ...v1, batch_v: 2 })], source(rows), 'API Log', sha)).not.toBeNull();
  });

  it('fails an altered or missing row in either version, naming where the batch starts', () => {
    const altered = rows.map((r) => r.slice());
    altered[3][cols.index('status')] = 500;
    for (const v of [1, 2]) {
      const p = { first_row: 2, row_count: 6, batch_sha256: batchDigest(rows, sha, v), batch_v: v };
      expect(checkApiLog([event(p)], source(altered), 'API Log', sha)).toMatchObject({ row: 2 });
      expect(checkApiLog([event(p)], source(rows.slice(0, 5)), 'API Log', sha)?.detail).toMatch(
        /differ from their batch/,
      );
    }
  });

  it('names a batch of a version it does not know instead of passing it', () => {
    const p = { ...batchPayload(2, rows, sha), batch_v: 3 };
    expect(checkApiLog([event(p)], source(rows), 'API Log', sha)?.detail).toMatch(/version 3/);
  });

  it('checks consecutive batches in order, reading each once', () => {
    const all = logRows(10);
    const events = [event(batchPayload(2, all.slice(0, 4), sha), 1), event(batchPayload(6, all.slice(4), sha), 2)];
    const src = source(all);
    expect(checkApiLog(events, src, 'API Log', sha)).toBeNull();
    expect(src.reads).toBe(2);
    // A row removed between them: the second batch no longer matches.
    const gone = all.filter((_, i) => i !== 5);
    expect(checkApiLog(events, source(gone), 'API Log', sha)).toMatchObject({ row: 6 });
  });
});
