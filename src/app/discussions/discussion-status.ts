// A discussion's status as its log row holds it, for the doors that must refuse at once what its state cannot take
// (an objection to no decision, a resolution of a discussion that is not escalated) rather than queue a task that
// would fail later.
import { ConflictError, NotFoundError } from '../../core/errors.js';
import { DiscussionRows } from '../../store/repositories/discussion-rows.js';
import type { Council } from '../sheet-council.js';
import { parseInstant } from '../../core/instant.js';

// The discussion must be in the log: a clear 404 now rather than a dead task later. Returns its status.
function statusOf(council: Council, id: string): string {
  const d = new DiscussionRows(council.store).logRow(id);
  if (!d) throw new NotFoundError(`discussion ${id} was not found in the Discussion Log`, 'discussion_not_found');
  refuseIfAhead(council.now(), id, [d.created_at, d.closed_at]);
  return String(d.status);
}

const timeOf = (v: unknown): number => (v instanceof Date ? v.getTime() : v ? parseInstant(String(v)) : Number.NaN);

// How far ahead of now a record may be and still take an answer on real time: a run's own executions move its
// clock by minutes of modelled Apps Script time (a report right after `kaigi run` is the usual next step), while
// `--until closed` moves it days ahead to a review date.
const FAST_FORWARD_MS = 3_600_000;

// 409 ahead_of_now: no event is stamped before its cause. `kaigi run --until closed` stamps on a simulated clock
// days ahead of real time, and a command or `kaigi serve` on real time that acted on what it made would write an
// objection, a resolution or a report dated days before the discussion or order it answers; stamping it at the
// cause's time instead would write a time that has not come. So such a record is refused until real time reaches
// it, with nothing written; a deployed Kaigi has one clock and never meets this.
export function refuseIfAhead(now: number, what: string, stamps: readonly unknown[]): void {
  const latest = Math.max(...stamps.map(timeOf).filter((t) => !Number.isNaN(t)));
  if (latest > now + FAST_FORWARD_MS)
    throw new ConflictError(
      `${what} was stamped ${new Date(latest).toISOString()} on kaigi run's simulated clock, after now ` +
        `(${new Date(now).toISOString()}): nothing is stamped before what it answers, so it takes this from then on`,
      'ahead_of_now',
    );
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
