// A trigger as it arrives (CLI file, sidebar, API, watcher): one zod schema checks it, then it is normalised.
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import { ValidationError } from '../errors.js';
import { checkJsonValue } from '../json-guard.js';
import { quoteInput } from '../api/input-echo.js';
import type { Trigger } from '../types.js';

// The fields of a trigger {type, source, target_user_id, context}. The context is kept exactly as sent, however long: a
// prompt carries it bounded to limits.input_tokens (src/core/prompts/bounded.ts) and the Discussion Log keeps the whole
// value (Overflow when long), so the only size limit is the API's body limit. `source` is taken and ignored: where a
// trigger came from is the server's to say (normalTrigger), so a caller cannot pass for the watcher; it stays in the
// schema so clients that send it (the agent API's trigger shape has it, and the documented examples send one) are not
// refused. Strict: a misspelt key ("prority", "contxt") is refused by name, never dropped.
export const triggerSchema = lazy(() =>
  z.strictObject({
    type: z.string().min(1, 'must be a non-empty string'),
    source: z
      .string()
      .nullish()
      .describe('Ignored: Kaigi records where a trigger came from itself (api for an API client)'),
    target_user_id: z.string().min(1, 'must be a non-empty string'),
    context: z.record(z.string(), z.unknown()).optional(),
  }),
);

export interface TriggerType {
  type: string;
  label_ja: string;
  label_en: string;
  // What the type is for, told to API clients (list_trigger_types); optional, per language.
  description_ja?: string;
  description_en?: string;
}

// Settings triggers.types as stored: a list of {type, label_ja, label_en, description_ja?, description_en?}; a row of
// another shape is a setting problem (the default is used and a person told), never a door left open.
export const triggerTypesSchema = lazy(() =>
  z.array(
    z.object({
      type: z.string().min(1),
      label_ja: z.string(),
      label_en: z.string(),
      description_ja: z.string().optional(),
      description_en: z.string().optional(),
    }),
  ),
);

// What the door refuses of a trigger the schema accepted: a type Settings do not name, a member not in Members.
// Each as a field issue, so the form marks the field and the API's 400 names it.
export function triggerIssues(
  t: { type: string; target_user_id: string },
  known: { types: readonly TriggerType[]; members: readonly string[] },
): { field: string; code: string; message: string }[] {
  const issues: { field: string; code: string; message: string }[] = [];
  if (!known.types.some((k) => k.type === t.type))
    issues.push({
      field: 'type',
      code: 'unknown_trigger_type',
      message: `${quoteInput(t.type, 'that type')} is not a trigger type (Settings triggers.types: ${known.types.map((k) => k.type).join(', ')})`,
    });
  if (known.members.indexOf(t.target_user_id) < 0)
    issues.push({
      field: 'target_user_id',
      code: 'unknown_member',
      message: known.members.length
        ? `${quoteInput(t.target_user_id, 'that id')} is not a member (Members tab)`
        : `${quoteInput(t.target_user_id, 'that id')} is not a member: the Members tab is empty (add your team there, or load the demo team with kaigi run --demo)`,
    });
  return issues;
}

export type TriggerInput = z.infer<ReturnType<typeof triggerSchema>>;

// The trigger as stored, from input the schema accepted: `source` is the caller as the server knows it ('api' for an
// API client, 'sheets' for a person in Sheets, 'watcher' for the watcher), never the input's.
export function normalTrigger(x: TriggerInput, source: string): Trigger {
  return {
    type: x.type,
    source,
    target_user_id: x.target_user_id,
    context: (x.context ?? {}) as Record<string, unknown>,
  };
}

// For callers outside the API router: the same schema, its first problem named as trigger.FIELD.
export function validateTrigger(t: unknown): Trigger {
  if (!t || typeof t !== 'object' || Array.isArray(t)) throw new ValidationError('trigger must be an object');
  checkJsonValue(t, 'The trigger', 'trigger');
  const parsed = triggerSchema().safeParse(t);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(`trigger.${issue.path.map(String).join('.')} ${issue.message}`);
  }
  // A trigger Kaigi's own code built (the watcher's request, a queued payload): its source was set by the server.
  return normalTrigger(parsed.data, parsed.data.source || 'human');
}
