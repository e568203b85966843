// The 14 message types and their envelope as zod schemas: the single source for validation everywhere.
import { ValidationError } from './errors.js';
import { z } from 'zod';

export const MESSAGE_TYPES = [
  'SITUATION_REPORT',
  'SPECIALIST_OPINION',
  'PERSPECTIVE_POSITIVE',
  'PERSPECTIVE_NEGATIVE',
  'PERSPECTIVE_HUMAN',
  'GOVERNANCE_ETHICS',
  'GOVERNANCE_LEGAL',
  'DECISION_DELIBERATION',
  'EXECUTION_ORDER',
  'FEEDBACK_REQUEST',
  'FEEDBACK_RESPONSE',
  'OBJECTION',
  'ACKNOWLEDGEMENT',
  'ERROR',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

const text = z.string().min(1).max(20000);
const priority = z.enum(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']);
const ERROR_CODES = ['E001', 'E002', 'E003', 'E004', 'E005'] as const;
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

const actionSchema = z.object({
  action_type: z.string().regex(/^[A-Z][A-Z0-9_]{1,40}$/, 'action types are UPPER_SNAKE_CASE'),
  target: z.string().min(1).max(200),
  description: text,
  intensity: z.enum(['low', 'medium', 'high']),
  timing: z.string().max(200),
  duration_days: z.number().int().min(1).max(90),
});
export type Action = z.infer<typeof actionSchema>;

const successCriterionSchema = z.object({
  metric: z.string().min(1).max(80),
  direction: z.enum(['increase', 'decrease']),
  target_change: z.number().min(0).max(10),
  window_days: z.number().int().min(1).max(90),
});
export type SuccessCriterion = z.infer<typeof successCriterionSchema>;

export const CONTENT_SCHEMAS = {
  SITUATION_REPORT: z.object({
    summary: text,
    data_points: z
      .array(
        z.object({
          metric: z.string().min(1).max(80),
          value: z.union([z.number(), z.string().max(200)]),
          change: z.string().max(200),
          note: z.string().max(500),
        }),
      )
      .min(1)
      .max(40),
    severity: priority,
  }),
  SPECIALIST_OPINION: z.object({
    analysis: text,
    evidence: z.array(text).min(1).max(20),
    hypothesis: text,
    confidence: z.number().min(0).max(1),
    recommendation: actionSchema,
  }),
  PERSPECTIVE_POSITIVE: z.object({
    viewpoint: text,
    opportunity: text,
    recommended_tone: z.string().max(500).optional(),
  }),
  PERSPECTIVE_NEGATIVE: z.object({ risk: text, concern: text, counter_proposal: text }),
  PERSPECTIVE_HUMAN: z.object({
    reality_check: text,
    human_insight: text,
    practical_suggestion: z.string().max(2000).optional(),
  }),
  GOVERNANCE_ETHICS: z.object({
    check_result: z.enum(['PASS', 'FAIL']),
    concerns: z.array(text).max(20),
    notes: z.string().max(5000),
  }),
  GOVERNANCE_LEGAL: z.object({
    check_result: z.enum(['PASS', 'FAIL']),
    concerns: z.array(text).max(20),
    notes: z.string().max(5000),
  }),
  DECISION_DELIBERATION: z.object({
    summary_of_opinions: z.object({
      consensus_points: z.array(text).max(20),
      conflicting_points: z.array(text).max(20),
    }),
    weight_assignment: z
      .array(
        z.object({
          agent_id: z.string().min(1),
          weight: z.number().min(0).max(1),
          band: z.enum(['heavy', 'reference', 'crosscheck', 'feedback', 'note']),
        }),
      )
      .max(20),
    votes: z
      .array(z.object({ action_type: z.string().min(1), agents: z.array(z.string()), score: z.number() }))
      .max(20),
    dissenting_opinions: z.array(z.object({ agent_id: z.string().min(1), opinion: text })).max(20),
    selected_action_types: z.array(z.string().min(1)).min(1).max(5),
    rationale: text,
  }),
  EXECUTION_ORDER: z.object({
    decision_id: z.string().regex(/^DEC-\d{4}-\d{2}-\d{2}-\d{3,}$/, 'expected DEC-YYYY-MM-DD-SEQ'),
    target_agents: z.array(z.string().min(1)).min(1).max(5),
    actions: z.array(actionSchema).min(1).max(5),
    monitoring: z.object({
      metrics: z.array(z.string().min(1)).min(1).max(10),
      review_date: isoDate,
      success_criteria: z.array(successCriterionSchema).min(1).max(10),
    }),
  }),
  FEEDBACK_REQUEST: z.object({ question: text, target_agent: z.string().min(1) }),
  FEEDBACK_RESPONSE: z.object({ answer: text, source_data: z.array(z.string().max(2000)).max(20) }),
  OBJECTION: z.object({
    reason: text,
    alternative: text,
    target_decision: z.string().max(80).optional(),
    evidence: z.array(z.string().max(2000)).max(20).optional(),
    urgency: priority.optional(),
  }),
  ACKNOWLEDGEMENT: z.object({
    status: z.string().min(1).max(80),
    note: z.string().max(20000).optional(),
    guidance: z.string().max(20000).optional(),
  }),
  ERROR: z.object({ error_code: z.enum(ERROR_CODES), message: text }),
} as const;

// What a model fills after an outcome: the learnings worth keeping (SPEC §8.5).
export const LEARNING_SCHEMA = z.object({
  learnings: z
    .array(
      z.object({
        scope: z.enum(['individual', 'shared']),
        agent_id: z.string().max(40),
        category: z.string().min(1).max(80),
        content: text,
        context: z.string().max(2000),
      }),
    )
    .max(20),
});
export type LearningContent = z.infer<typeof LEARNING_SCHEMA>;

export type ContentOf<T extends MessageType> = z.infer<(typeof CONTENT_SCHEMAS)[T]>;

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
});

const envelopeSchema = z.object({
  message_id: z.string().regex(/^MSG-DISC-\d{4}-\d{2}-\d{2}-\d{3,}-\d{3,}$/),
  discussion_id: z.string().regex(/^DISC-\d{4}-\d{2}-\d{2}-\d{3,}$/),
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

// Validates content against its type's schema and the action allow-list; returns the parsed content.
export function validateContent<T extends MessageType>(
  type: T,
  content: unknown,
  allowList: readonly string[],
): ContentOf<T> {
  const parsed = CONTENT_SCHEMAS[type].safeParse(content);
  if (!parsed.success) throw new MessageValidationError(issues(parsed.error));
  const value = parsed.data as ContentOf<T>;
  const actionTypes: string[] = [];
  if (type === 'SPECIALIST_OPINION')
    actionTypes.push((value as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type);
  if (type === 'EXECUTION_ORDER')
    for (const a of (value as ContentOf<'EXECUTION_ORDER'>).actions) actionTypes.push(a.action_type);
  if (type === 'DECISION_DELIBERATION')
    actionTypes.push(...(value as ContentOf<'DECISION_DELIBERATION'>).selected_action_types);
  const outside = actionTypes.filter((a) => allowList.indexOf(a) < 0);
  if (outside.length) throw new MessageValidationError(outside.map((a) => `action type ${a} is not in the allow-list`));
  return value;
}

// Validates a whole message before it is stored.
export function validateMessage(m: unknown, allowList: readonly string[]): Message {
  const parsed = envelopeSchema.safeParse(m);
  if (!parsed.success) throw new MessageValidationError(issues(parsed.error));
  validateContent(parsed.data.message_type, parsed.data.content, allowList);
  return parsed.data;
}
