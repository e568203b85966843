// A discussion's status as its log row holds it, for the doors that must refuse at once what its state cannot take
// (an objection to no decision, a resolution of a discussion that is not escalated) rather than queue a task that
// would fail later.
import { rowsOf } from '../../../sheets-schema/index.js';
import { ConflictError, NotFoundError } from '../../core/errors.js';
import { findRows } from './find-rows.js';
import type { Council } from '../sheet-council.js';

const logCols = rowsOf('discussions');

// The discussion must be in the log: a clear 404 now rather than a dead task later. Returns its status.
function statusOf(council: Council, id: string): string {
  const [row] = findRows(council, 'discussions', 'discussion_id', id);
  if (!row) throw new NotFoundError(`discussion ${id} was not found in the Discussion Log`, 'discussion_not_found');
  return String(logCols.read(council.store.readRows('discussions', row, 1)[0]).status);
}

// 409 not_escalated naming the status: only an ESCALATED discussion can be approved, returned or rejected.
export function refuseUnlessEscalated(council: Council, id: string): void {
  const status = statusOf(council, id);
  if (status !== 'ESCALATED')
    throw new ConflictError(`${id} is ${status}; only an ESCALATED discussion can be resolved`, 'not_escalated');
}

// 409 no_decision naming the status: an objection is to a decision, so the discussion must be DECIDED.
export function refuseUnlessDecided(council: Council, id: string): void {
  const status = statusOf(council, id);
  if (status !== 'DECIDED')
    throw new ConflictError(
      `${id} is ${status}; an objection is to a decision, so only a DECIDED discussion takes one`,
      'no_decision',
    );
}
