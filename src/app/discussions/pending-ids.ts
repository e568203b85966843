// Ids that only a commit can allocate (decision, objection): placeholders outside the lock, filled in inside it.
import { dayOf } from '../../store/records.js';
import type { Commit } from '../../store/store.js';
import type { StepResult } from '../../core/engine.js';
import { decisionId } from '../../core/discussion/ids.js';
import { ports } from '../../ports.js';

export const PENDING_DECISION = 'DEC-0000-00-00-000';
export const PENDING_OBJECTION = 'OBJ-PENDING';

export function replaceDeep<T>(v: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(v).split(from).join(to)) as T;
}

// A step's decision id comes from the day's counter, allocated in the same commit that stores it.
export function assignDecisionId<T>(
  c: Commit,
  tz: string,
  r: StepResult,
  alongside?: T,
): { r: StepResult; alongside?: T } {
  if (JSON.stringify(r).indexOf(PENDING_DECISION) < 0) return { r, alongside };
  const id = decisionId(c.nextDaily('dec', dayOf(ports().clock.now(), tz)));
  return {
    r: replaceDeep(r, PENDING_DECISION, id),
    alongside: alongside === undefined ? undefined : replaceDeep(alongside, PENDING_DECISION, id),
  };
}
