// A trigger as it arrives (CLI file, sidebar, API, watcher): checked and normalised before it opens a discussion.
import { ValidationError } from './errors.js';
import type { Trigger } from './types.js';

export function validateTrigger(t: unknown): Trigger {
  const x = t as Trigger;
  if (!x || typeof x !== 'object') throw new ValidationError('trigger must be an object');
  if (typeof x.type !== 'string' || !x.type) throw new ValidationError('trigger.type must be a non-empty string');
  if (typeof x.target_user_id !== 'string' || !x.target_user_id)
    throw new ValidationError('trigger.target_user_id must be a non-empty string');
  if (x.context !== undefined && (typeof x.context !== 'object' || x.context === null || Array.isArray(x.context)))
    throw new ValidationError('trigger.context must be an object');
  return {
    type: x.type,
    source: typeof x.source === 'string' && x.source ? x.source : 'human',
    target_user_id: x.target_user_id,
    context: (x.context ?? {}) as Record<string, unknown>,
  };
}
