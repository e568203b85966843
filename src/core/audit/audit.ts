// The audit trail as a hash chain: each row's hash covers its own fields and the previous hash.
import { canonical } from '../cells.js';

export interface AuditEvent {
  actor: string;
  event: string;
  tab: string;
  row_key: string;
  payload: Record<string, unknown>;
}

export interface ChainHead {
  seq: number;
  hash: string;
}

export const GENESIS = '0'.repeat(64);

export function auditRows(
  head: ChainHead,
  events: AuditEvent[],
  timestamp: string,
  sha256: (s: string) => string,
): { rows: unknown[][]; head: ChainHead } {
  let { seq, hash } = head;
  const rows: unknown[][] = [];
  for (const e of events) {
    seq++;
    const fields = [seq, timestamp, e.actor, e.event, e.tab, e.row_key, JSON.stringify(e.payload)];
    const next = sha256(`${hash}|${canonical(fields)}`);
    rows.push(fields.concat([hash, next]));
    hash = next;
  }
  return { rows, head: { seq, hash } };
}

export interface ChainProblem {
  row: number;
  seq: number | string;
  problem: string;
}

// Recomputes the chain over the Audit tab's data rows (sheet row numbers start at 2).
export function verifyChain(rows: unknown[][], sha256: (s: string) => string): ChainProblem | null {
  let prev = GENESIS;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const sheetRow = i + 2;
    if (Number(r[0]) !== i + 1)
      return {
        row: sheetRow,
        seq: r[0] as number,
        problem: `sequence ${r[0]} where ${i + 1} was expected (a row was inserted or deleted)`,
      };
    if (r[7] !== prev)
      return {
        row: sheetRow,
        seq: i + 1,
        problem: 'prev_hash does not match the previous row (a row was inserted, deleted or altered)',
      };
    const expect = sha256(`${prev}|${canonical(r.slice(0, 7))}`);
    if (r[8] !== expect)
      return { row: sheetRow, seq: i + 1, problem: 'hash does not match the row (the row was altered)' };
    prev = expect;
  }
  return null;
}
