// A trigger as it arrives (CLI file, sidebar, API, watcher): one zod schema checks it, then it is normalised.
import { z } from 'zod';
import { ValidationError } from './errors.js';
import { checkJsonValue } from './json-guard.js';
import type { Trigger } from './types.js';

// The fields of SPEC §12's trigger. The context is kept exactly as sent, however long: a prompt carries it bounded
// to limits.input_tokens (src/core/bounded.ts) and the Discussion Log keeps the whole value (Overflow when long),
// so the only size limit is the API's body limit. An absent or empty source means a person.
export const triggerSchema = z.object({
  type: z.string().min(1, 'must be a non-empty string'),
  source: z.string().nullish(),
  target_user_id: z.string().min(1, 'must be a non-empty string'),
  context: z.record(z.string(), z.unknown()).optional(),
});

export type TriggerInput = z.infer<typeof triggerSchema>;

// The trigger as stored, from input the schema accepted.
export function normalTrigger(x: TriggerInput, defaultSource = 'human'): Trigger {
  return {
    type: x.type,
    source: x.source ? x.source : defaultSource,
    target_user_id: x.target_user_id,
    context: (x.context ?? {}) as Record<string, unknown>,
  };
}

// For callers outside the API router: the same schema, its first problem named as trigger.FIELD.
export function validateTrigger(t: unknown): Trigger {
  if (!t || typeof t !== 'object' || Array.isArray(t)) throw new ValidationError('trigger must be an object');
  checkJsonValue(t, 'The trigger', 'trigger');
  const parsed = triggerSchema.safeParse(t);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(`trigger.${issue.path.map(String).join('.')} ${issue.message}`);
  }
  return normalTrigger(parsed.data);
}
