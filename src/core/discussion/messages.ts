// The 14 message types and their envelope as zod schemas: the single source for validation everywhere.
import { chars } from '../chars.js';
import { ConfigError, ValidationError } from '../errors.js';
import { criterion } from '../memory/criteria.js';
import { addDays, DISCUSSION_ID } from './ids.js';
import { REFLECTION_SCHEMA } from '../memory/reflection-schema.js';
import { CHECK_RESULTS, INTENSITIES, MESSAGE_TYPES, PRIORITIES } from './vocab.js';
import { z } from 'zod';

export { MESSAGE_TYPES };
export type MessageType = (typeof MESSAGE_TYPES)[number];

// The furthest a review may lie ahead and the longest window or action an order may set, in days: one constant for
// the schema a model is sent and the checks on its answer (SPEC §7.1).
export const MAX_DAYS = 90;

const name = chars(1, 80);
const priority = z.enum(PRIORITIES);
const ERROR_CODES = ['E001', 'E002', 'E003', 'E004', 'E005'] as const;
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
const days = z.number().int().min(1).max(MAX_DAYS);

const successCriterionSchema = criterion(name, days);
export type SuccessCriterion = z.infer<typeof successCriterionSchema>;

// Seed 000 §4 Phase 6: the fields an action of a type carries besides the common ones, one schema per action type
// (an executor needs the rate, the goal, the hour and the template, not only prose). Other types have the common
// fields only. Optional, so orders stored before these fields existed, and a person's order, still load.
export const ACTION_TYPE_FIELDS = {
  PRAISE_INCREASE: z.object({
    increase_rate: z.number().min(0).max(5).optional().describe('PRAISE_INCREASE only: 0.3 = 30% more praise'),
  }),
  GOAL_ADJUSTMENT: z.object({
    new_goal: z
      .object({ metric: name, value: z.number() })
      .optional()
      .describe('GOAL_ADJUSTMENT only: a KPI metric and its new goal'),
  }),
  MESSAGE_TIMING: z.object({
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM')
      .optional()
      .describe('MESSAGE_TIMING only: HH:MM to send'),
    message_template: chars(1, 80).optional().describe('MESSAGE_TIMING only: e.g. MORNING_ENCOURAGEMENT'),
  }),
};

// The longest text of each kind in a model's answer, in characters: what a real answer needs, and bounded, since
// OpenAI strict mode receives a length as a pattern repeat and llama.cpp or Ollama turn a schema into a grammar that
// refuses repeat counts above about 2,000. long: an analysis or a rationale; medium: a hypothesis, a description, a
// note; item: one element of a list (evidence, a concern, a point); id: an agent id.
const ANSWER_CHARS = { long: 1200, medium: 600, item: 400, tone: 200, id: 80 } as const;

// Every message schema, around one action-type schema (a pattern for stored records, the allow-list for answers).
// A model's answer gets ANSWER_CHARS; a stored record and a person's text (an order edit, an objection, guidance)
// keep the lengths they were accepted with, so nothing stored before these bounds stops loading.
function build(actionType: z.ZodType<string>, forAnswer: boolean, metrics: readonly string[] = []) {
  const A = ANSWER_CHARS;
  const text = (answer: number, stored = 20000, min = 1) => chars(min, forAnswer ? answer : stored);
  const id = forAnswer ? chars(1, A.id) : chars(1);
  const share = z.number().min(0).max(1);
  const count = z.number().min(0);
  const agentRef = forAnswer ? chars(0, A.id) : z.string();
  const action = z.object({
    action_type: actionType,
    target: chars(1, 200).describe('Who or what the action is about'),
    description: text(A.medium).describe('What to do, for a person to read'),
    intensity: z.enum(INTENSITIES),
    timing: chars(0, 200),
    duration_days: days,
    ...ACTION_TYPE_FIELDS.PRAISE_INCREASE.shape,
    ...ACTION_TYPE_FIELDS.GOAL_ADJUSTMENT.shape,
    ...ACTION_TYPE_FIELDS.MESSAGE_TIMING.shape,
  });
  const check = z.object({
    check_result: z.enum(CHECK_RESULTS),
    concerns: z.array(text(A.item)).max(20),
    notes: text(A.long, 5000, 0),
  });
  const order = {
    target_agents: z
      .array(id)
      .min(1)
      .max(5)
      .describe('Executors who carry the order out: buddy (whoever on the team does it) or an API client name'),
    actions: z.array(action).min(1).max(5),
  };
  const monitoring = {
    metrics: z
      .array(forAnswer ? name : chars(1))
      .min(1)
      .max(10),
    success_criteria: z
      .array(
        forAnswer && metrics.length
          ? criterion(z.enum(metrics as [string, ...string[]]).describe("One of the member's KPI series"), days)
          : successCriterionSchema,
      )
      .min(1)
      .max(10),
  };
  const content = {
    SITUATION_REPORT: z.object({
      summary: text(A.long),
      data_points: z
        .array(
          z.object({
            metric: name,
            value: z.union([z.number(), chars(0, 200)]),
            change: chars(0, 200),
            note: chars(0, 500),
          }),
        )
        .min(1)
        .max(40),
      severity: priority,
    }),
    SPECIALIST_OPINION: z.object({
      analysis: text(A.long),
      evidence: z.array(text(A.item)).min(1).max(20),
      hypothesis: text(A.medium),
      confidence: z.number().min(0).max(1),
      // A specialist recommends the kind and intensity; the executor's fields (rate, goal, hour) are the decider's to
      // set in the order, so a model is not asked for them here (a stored opinion may still carry them).
      recommendation: forAnswer
        ? action.omit({ increase_rate: true, new_goal: true, time: true, message_template: true })
        : action,
    }),
    PERSPECTIVE_POSITIVE: z.object({
      viewpoint: text(A.long),
      opportunity: text(A.medium),
      recommended_tone: text(A.tone, 500, 0).optional(),
    }),
    PERSPECTIVE_NEGATIVE: z.object({ risk: text(A.long), concern: text(A.medium), counter_proposal: text(A.medium) }),
    PERSPECTIVE_HUMAN: z.object({
      reality_check: text(A.long),
      human_insight: text(A.medium),
      practical_suggestion: text(A.medium, 2000, 0).optional(),
    }),
    GOVERNANCE_ETHICS: check,
    GOVERNANCE_LEGAL: check,
    DECISION_DELIBERATION: z.object({
      summary_of_opinions: z.object({
        consensus_points: z.array(text(A.item)).max(20),
        conflicting_points: z.array(text(A.item)).max(20),
      }),
      weight_assignment: z
        .array(
          z.object({
            agent_id: id,
            weight: share,
            band: z.enum(['heavy', 'reference', 'crosscheck', 'feedback', 'note']),
            // What the weight came from (learned trust, issue 26); absent in records written before Kaigi kept them.
            stated_confidence: share.optional(),
            computed_confidence: share.optional(),
            learned_reliability: share.optional(),
          }),
        )
        .max(20),
      // What was tried for the member and how it fared (learned trust), as the decision read it.
      member_record: z
        .array(z.object({ action_type: actionType, confirmed: count, rejected: count }))
        .max(50)
        .optional(),
      votes: z.array(z.object({ action_type: actionType, agents: z.array(agentRef), score: z.number() })).max(20),
      dissenting_opinions: z.array(z.object({ agent_id: id, opinion: text(A.item) })).max(20),
      selected_action_types: z.array(actionType).min(1).max(5),
      rationale: text(A.long),
    }),
    // review_in_days is what a model chose, when one did; older orders and a person's have only the date.
    EXECUTION_ORDER: z.object({
      decision_id: z.string().regex(/^DEC-\d{4}-\d{2}-\d{2}-\d{3,}$/, 'expected DEC-YYYY-MM-DD-SEQ'),
      ...order,
      monitoring: z.object({ ...monitoring, review_in_days: days.optional(), review_date: isoDate }),
    }),
    FEEDBACK_REQUEST: z.object({ question: text(A.medium), target_agent: id }),
    FEEDBACK_RESPONSE: z.object({ answer: text(A.long), source_data: z.array(text(A.item, 2000, 0)).max(20) }),
    OBJECTION: z.object({
      reason: text(A.long),
      alternative: text(A.medium),
      target_decision: chars(0, 80).optional(),
      evidence: z
        .array(text(A.item, 2000, 0))
        .max(20)
        .optional(),
      urgency: priority.optional(),
    }),
    ACKNOWLEDGEMENT: z.object({
      status: chars(1, 80),
      note: text(A.medium, 20000, 0).optional(),
      guidance: text(A.medium, 20000, 0).optional(),
    }),
    ERROR: z.object({ error_code: z.enum(ERROR_CODES), message: text(A.medium) }),
  };
  // What a model fills for an order. A date relative to today is no JSON Schema constraint, so it gives a bounded
  // number of days and Kaigi computes the date; the decision id is Kaigi's to give, so it is not asked for.
  const orderAnswer = z.object({
    ...order,
    monitoring: z.object({
      ...monitoring,
      review_in_days: days.describe(`Days from today to the review of the order's outcome, 1 to ${MAX_DAYS}`),
    }),
  });
  // The decider answers Phases 5 and 6 in one call: its deliberation and its order.
  // Kaigi computes the weights and votes (src/core/discussion/votes.ts) and records them; the model is not asked to count.
  const decision = z.object({
    deliberation: forAnswer
      ? content.DECISION_DELIBERATION.omit({ weight_assignment: true, votes: true, member_record: true })
      : content.DECISION_DELIBERATION,
    order: orderAnswer,
  });
  return { content, orderAnswer, decision };
}

// The schemas' types, whatever the allow-list. Built at load, the schemas took about 10 ms of every execution, which
// builds the ones it checks against (schemas below) when it first needs them.
type ContentSchemas = Built['content'];
let stored: ContentSchemas | null = null;

// Stored records name any well-formed action type: the allow-list of the day they were written may have changed since.
export function storedContentSchemas(): ContentSchemas {
  if (!stored)
    stored = build(z.string().regex(/^[A-Z][A-Z0-9_]{1,40}$/, 'action types are UPPER_SNAKE_CASE'), false).content;
  return stored;
}
export type Action = z.infer<ContentSchemas['EXECUTION_ORDER']>['actions'][number];
export type OrderAnswer = z.infer<Built['orderAnswer']>;

// What a model fills after an outcome: the learnings worth keeping (SPEC §8.5).
const LEARNING_SCHEMA = z.object({
  learnings: z
    .array(
      z.object({
        scope: z.enum(['individual', 'shared']),
        agent_id: chars(0, 40),
        category: name,
        content: chars(1, ANSWER_CHARS.medium),
        context: chars(0, ANSWER_CHARS.medium),
      }),
    )
    .max(20),
});
export type LearningContent = z.infer<typeof LEARNING_SCHEMA>;

// The longest answer a council agent gives in a room (seed 004), in characters.
export const ROOM_ANSWER_MAX_CHARS = 2000;
// What a council agent mentioned in a room answers: one message, plain text, for the room.
const ROOM_ANSWER_SCHEMA = z.object({
  message: chars(1, ROOM_ANSWER_MAX_CHARS).describe('Your answer to the room, as plain text'),
});
export type RoomAnswer = z.infer<typeof ROOM_ANSWER_SCHEMA>;

// The schemas with action types limited to the allow-list, for stored records and for answers; one council uses one
// list, so the last one is kept.
type Built = ReturnType<typeof build>;
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
  const built = build(allowed, forAnswer, forAnswer ? metrics : []);
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
  if (kind === 'LEARNING') return LEARNING_SCHEMA;
  if (kind === 'REFLECTION') return REFLECTION_SCHEMA;
  if (kind === 'ROOM_ANSWER') return ROOM_ANSWER_SCHEMA;
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

// An action with only its own type's fields of ACTION_TYPE_FIELDS: a model filling every field it was shown (strict
// modes ask for all) does not leave a rate on a ONE_ON_ONE for an executor to misread.
export function typedAction(a: Action): Action {
  const own = (ACTION_TYPE_FIELDS as Record<string, z.ZodObject>)[a.action_type];
  const out: Record<string, unknown> = { ...a };
  for (const [type, schema] of Object.entries(ACTION_TYPE_FIELDS))
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

const metadataSchema = z.object({
  processing_time_ms: z.number().int().min(0),
  model_used: z.string(),
  tokens_consumed: z.number().int().min(0),
  fallback_level: z.number().int().min(0).max(5),
  error_code: z.enum(ERROR_CODES).optional(),
  step_key: z.string(),
  stated_confidence: z.number().min(0).max(1).optional(),
  computed_confidence: z.number().min(0).max(1).optional(),
  default_opinion: z.boolean().optional(),
  cost_usd: z.number().min(0).optional(),
  learnings: z.array(z.string()).optional(),
  directives: z.array(z.string()).optional(),
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
});

const envelopeSchema = z.object({
  message_id: z.string().regex(/^MSG-DISC-\d{4}-\d{2}-\d{2}-\d{3,}-\d{3,}$/),
  discussion_id: z.string().regex(DISCUSSION_ID),
  phase: z.number().int().min(1).max(6),
  speaker: z.string().min(1),
  message_type: z.enum(MESSAGE_TYPES),
  timestamp: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/),
  content: z.record(z.string(), z.unknown()),
  metadata: metadataSchema,
});

export type Message = z.infer<typeof envelopeSchema>;
export type Metadata = z.infer<typeof metadataSchema>;

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
  const parsed = envelopeSchema.safeParse(m);
  if (!parsed.success) throw new MessageValidationError(issues(parsed.error));
  return parsed.data;
}
