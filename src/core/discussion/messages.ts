// The 14 message types and their envelope as zod schemas: the single source for validation everywhere.
import { chars } from '../chars.js';
import { ConfigError, ValidationError } from '../errors.js';
import { addDays, DISCUSSION_ID } from './ids.js';
import { reflectionSchema } from '../memory/reflection-schema.js';
import { lazy } from '../lazy.js';
import { actionTypeFields, ANSWER_CHARS, buildSchemas, common, ERROR_CODES } from './message-schemas.js';
import { MESSAGE_TYPES } from './vocab.js';
import { z } from '../zod.js';

export { MESSAGE_TYPES };
export type MessageType = (typeof MESSAGE_TYPES)[number];

export { actionTypeFields, MAX_DAYS, type SuccessCriterion } from './message-schemas.js';

// The schemas' types, whatever the allow-list. Built at load, the schemas took about 10 ms of every execution, which
// builds the ones it checks against (schemas below) when it first needs them.
type ContentSchemas = Built['content'];
let stored: ContentSchemas | null = null;

// Stored records name any well-formed action type: the allow-list of the day they were written may have changed since.
export function storedContentSchemas(): ContentSchemas {
  if (!stored)
    stored = buildSchemas(
      z.string().regex(/^[A-Z][A-Z0-9_]{1,40}$/, 'action types are UPPER_SNAKE_CASE'),
      false,
    ).content;
  return stored;
}
export type Action = z.infer<ContentSchemas['EXECUTION_ORDER']>['actions'][number];
export type OrderAnswer = z.infer<Built['orderAnswer']>;

// What a model fills after an outcome: the learnings worth keeping.
const learningSchema = lazy(() =>
  z.object({
    learnings: z
      .array(
        z.object({
          scope: z.enum(['individual', 'shared']),
          agent_id: chars(0, 40),
          category: common().name,
          content: chars(1, ANSWER_CHARS.medium),
          context: chars(0, ANSWER_CHARS.medium),
        }),
      )
      .max(20),
  }),
);
export type LearningContent = z.infer<ReturnType<typeof learningSchema>>;

// The longest answer a council agent gives in a room, in characters.
export const ROOM_ANSWER_MAX_CHARS = 2000;
// What a council agent mentioned in a room answers: one message, plain text, for the room.
const roomAnswerSchema = lazy(() =>
  z.object({
    message: chars(1, ROOM_ANSWER_MAX_CHARS).describe('Your answer to the room, as plain text'),
  }),
);
export type RoomAnswer = z.infer<ReturnType<typeof roomAnswerSchema>>;

// The schemas with action types limited to the allow-list, for stored records and for answers; one council uses one
// list, so the last one is kept.
type Built = ReturnType<typeof buildSchemas>;
// One slot each: stored records by allow-list; answers by allow-list and the member's KPI series.
const cached: Record<'stored' | 'answer', { key: string; built: Built } | null> = { stored: null, answer: null };
function schemas(allowList: readonly string[], forAnswer = false, metrics: readonly string[] = []): Built {
  const slot = forAnswer ? 'answer' : 'stored';
  const key = forAnswer ? `${allowList.join('\n')}\n|${metrics.join('\n')}` : allowList.join('\n');
  const hit = cached[slot];
  if (hit?.key === key) return hit.built;
  if (!allowList.length)
    throw new ConfigError('Settings actions.allow_list is empty: no action can be ordered', 'actions.allow_list');
  const allowed = z.enum(allowList as [string, ...string[]], {
    error: (issue) => `action type ${String(issue.input)} is not in the allow-list`,
  });
  const built = buildSchemas(allowed, forAnswer, forAnswer ? metrics : []);
  cached[slot] = { key, built };
  return built;
}

// What a model is asked for: a message's content, the decider's deliberation and order in one, learnings, an agent's
// reflection, or an answer in a room.
type AnswerKind = MessageType | 'DECISION' | 'LEARNING' | 'REFLECTION' | 'ROOM_ANSWER';

// The one schema an answer is checked against and its JSON Schema generated from (src/core/providers/schema.ts).
// `metrics` are the member's KPI series: an order's success criteria must name one of them (none known: any name).
export function answerSchema(
  kind: AnswerKind,
  allowList: readonly string[],
  metrics: readonly string[] = [],
): z.ZodType {
  if (kind === 'LEARNING') return learningSchema();
  if (kind === 'REFLECTION') return reflectionSchema();
  if (kind === 'ROOM_ANSWER') return roomAnswerSchema();
  const s = schemas(allowList, true, metrics);
  if (kind === 'DECISION') return s.decision;
  if (kind === 'EXECUTION_ORDER') return s.orderAnswer;
  return s.content[kind];
}

// Why an answer is unusable, or null when every check passes: the schema is all there is to check.
export function answerErrors(
  kind: AnswerKind,
  answer: unknown,
  allowList: readonly string[],
  metrics: readonly string[] = [],
): string | null {
  const parsed = answerSchema(kind, allowList, metrics).safeParse(answer);
  return parsed.success ? null : `invalid answer: ${issues(parsed.error).join('; ')}`;
}

// An action with only its own type's fields of actionTypeFields(): a model filling every field it was shown (strict
// modes ask for all) does not leave a rate on a ONE_ON_ONE for an executor to misread.
export function typedAction(a: Action): Action {
  const fields = actionTypeFields();
  const own = (fields as Record<string, z.ZodObject>)[a.action_type];
  const out: Record<string, unknown> = { ...a };
  for (const [type, schema] of Object.entries(fields))
    if (type !== a.action_type) for (const k of Object.keys(schema.shape)) if (!own || !(k in own.shape)) delete out[k];
  return out as Action;
}

// The order to store from a model's: Kaigi's decision id, and the review date the days lead to from today.
export function orderFromAnswer(answer: OrderAnswer, decisionId: string, today: string): ContentOf<'EXECUTION_ORDER'> {
  const { review_in_days, metrics, success_criteria } = answer.monitoring;
  return {
    decision_id: decisionId,
    target_agents: answer.target_agents,
    actions: answer.actions.map(typedAction),
    monitoring: { metrics, review_in_days, review_date: addDays(today, review_in_days), success_criteria },
  };
}

export type ContentOf<T extends MessageType> = z.infer<ContentSchemas[T]>;

const metadataSchema = lazy(() =>
  z.object({
    processing_time_ms: z.number().int().min(0),
    model_used: z.string(),
    tokens_consumed: z.number().int().min(0),
    fallback_level: z.number().int().min(0).max(5),
    error_code: z.enum(ERROR_CODES).optional(),
    step_key: z.string(),
    stated_confidence: z.number().min(0).max(1).optional(),
    computed_confidence: z.number().min(0).max(1).optional(),
    // The factor formula's figure where the computed confidence reads even odds in its place (memory on, no verdict
    // yet): why a feedback round ran (src/core/engine/learned.ts).
    formula_confidence: z.number().min(0).max(1).optional(),
    default_opinion: z.boolean().optional(),
    // The prompt version the agent answered with, so a prompt change can be judged by the verdicts after it.
    prompt_version: z.number().int().min(1).optional(),
    // The agent who answered in the speaker's place (a substitute): its view, not the speaker's.
    substitute: z.string().optional(),
    cost_usd: z.number().min(0).optional(),
    learnings: z.array(z.string()).optional(),
    directives: z.array(z.string()).optional(),
    // Claims of the answer that the KPI data contradicts, recomputed by Kaigi (src/core/orders/claims.ts).
    contradicted: z
      .array(
        z.object({
          metric: z.string(),
          claimed: z.string(),
          actual: z.string(),
          from: z.number(),
          to: z.number(),
        }),
      )
      .optional(),
    note: z.string().optional(),
    // On a DECISION_DELIBERATION: the specialists' first-answer majority and whether the order left it out (a flip),
    // computed by Kaigi from the record (src/core/memory/first-answers.ts), never taken from the model.
    first_answers: z
      .object({
        majority: z.string(),
        votes: z.number().int().min(0),
        of: z.number().int().min(0),
        flip: z.boolean(),
      })
      .optional(),
  }),
);

const envelopeSchema = lazy(() =>
  z.object({
    message_id: z.string().regex(/^MSG-DISC-\d{4}-\d{2}-\d{2}-\d{3,}-\d{3,}$/),
    discussion_id: z.string().regex(DISCUSSION_ID),
    phase: z.number().int().min(1).max(6),
    speaker: z.string().min(1),
    message_type: z.enum(MESSAGE_TYPES),
    timestamp: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/),
    content: z.record(z.string(), z.unknown()),
    metadata: metadataSchema(),
  }),
);

export type Message = z.infer<ReturnType<typeof envelopeSchema>>;
export type Metadata = z.infer<ReturnType<typeof metadataSchema>>;

class MessageValidationError extends ValidationError {
  constructor(readonly issues: string[]) {
    super(`invalid message: ${issues.join('; ')}`);
  }
}

function issues(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

// Validates content against its type's schema, action types against the allow-list; returns the parsed content.
export function validateContent<T extends MessageType>(
  type: T,
  content: unknown,
  allowList: readonly string[],
): ContentOf<T> {
  const parsed = schemas(allowList).content[type].safeParse(content);
  if (!parsed.success) throw new MessageValidationError(issues(parsed.error));
  return parsed.data as ContentOf<T>;
}

// Validates a whole message before it is stored; the envelope alone for content validateContent has just returned
// (the engine's builder, where parsing that content again was a third of a discussion's schema checks).
export function validateMessage(m: unknown, allowList: readonly string[]): Message {
  const message = validateEnvelope(m);
  validateContent(message.message_type, message.content, allowList);
  return message;
}
export function validateEnvelope(m: unknown): Message {
  const parsed = envelopeSchema().safeParse(m);
  if (!parsed.success) throw new MessageValidationError(issues(parsed.error));
  return parsed.data;
}
