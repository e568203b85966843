// The rows and audit events a review plan asks for, by tab and column name, in the order they are written.
import type { RowOf, TabKey } from '../../../sheets-schema/index.js';
import type { AuditEvent } from '../audit/audit.js';

// The counters the review draws ids from (OUT-, LRN-, REF-, INB-).
export type SeqName = 'outcome' | 'learning' | 'reflection' | 'inbox';

// An audit event as planned; the commit adds the stored row's number and digest.
export type PlannedAudit = AuditEvent;

// One row to write. Columns left out of `values` keep what the stored row holds.
// `append` adds a row at the tail; `after` updates a row once the commit point is in the sheet, so a replay
// never applies it twice; `marker` is the commit point itself.
interface WriteOf<K extends TabKey> {
  tab: K;
  at: 'append' | 'after' | 'marker';
  row: number;
  values: Partial<RowOf<K>>;
  owner?: string;
  audit: PlannedAudit;
}

type PlannedWrite = { [K in TabKey]: WriteOf<K> }[TabKey];
export type ReviewOp = ({ kind: 'write' } & PlannedWrite) | ({ kind: 'audit' } & PlannedAudit);

export function write<K extends TabKey>(
  tab: K,
  at: WriteOf<K>['at'],
  row: number,
  values: Partial<RowOf<K>>,
  audit: PlannedAudit,
  owner?: string,
): ReviewOp {
  const w: WriteOf<K> = owner ? { tab, at, row, values, owner, audit } : { tab, at, row, values, audit };
  return { kind: 'write', ...(w as unknown as PlannedWrite) };
}
