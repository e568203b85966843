// The message schemas built around one action-type schema: the parts, the phases' contents, the decider's answer.
import { chars } from '../chars.js';
import { criterion } from '../memory/criteria.js';
import {
  CHECK_RESULTS,
  EXCHANGE_MESSAGE_TYPES as EXCHANGE_KINDS,
  INTENSITIES,
  PHASE_MESSAGE_TYPES as PHASE_KINDS,
  PRIORITIES,
} from './vocab.js';
import { lazy } from '../lazy.js';
import { z } from '../zod.js';

// The furthest a review may lie ahead and the longest window or action an order may set, in days: one constant for
// the schema a model is sent and the checks on its answer.
export const MAX_DAYS = 90;

export const ERROR_CODES = ['E001', 'E002', 'E003', 'E004', 'E005'] as const;

// The small schemas the message schemas share, built with the first of them (src/core/lazy.ts says why).
export const common = lazy(() => {
  const name = chars(1, 80);
  const days = z.number().int().min(1).max(MAX_DAYS);
  return {
    name,
    priority: z.enum(PRIORITIES),
    isoDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
    days,
    successCriterion: criterion(name, days),
  };
});
export type SuccessCriterion = z.infer<ReturnType<typeof common>['successCriterion']>;

// Phase 6: the fields an action of a type carries besides the common ones, one schema per action type
// (an executor needs the rate, the goal, the hour and the template, not only prose). Other types have the common
// fields only. Optional, so orders stored before these fields existed, and a person's order, still load.
export const actionTypeFields = lazy(() => ({
  PRAISE_INCREASE: z.object({
    increase_rate: z.number().min(0).max(5).optional().describe('PRAISE_INCREASE only: 0.3 = 30% more praise'),
  }),
  GOAL_ADJUSTMENT: z.object({
    new_goal: z
      .object({ metric: common().name, value: z.number() })
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
}));

// The longest text of each kind in a model's answer, in characters: what a real answer needs, and bounded, since
// OpenAI strict mode receives a length as a pattern repeat and llama.cpp or Ollama turn a schema into a grammar that
// refuses repeat counts above about 2,000. long: an analysis or a rationale; medium: a hypothesis, a description, a
// note; item: one element of a list (evidence, a concern, a point); id: an agent id.
export const ANSWER_CHARS = { long: 1200, medium: 600, item: 400, tone: 200, id: 80 } as const;

// The pieces several schemas share, for answers (ANSWER_CHARS) or stored records (the lengths they were accepted with).
function parts(actionType: z.ZodType<string>, forAnswer: boolean, metrics: readonly string[]) {
  const A = ANSWER_CHARS;
  const { name, days, successCriterion } = common();
  const fields = actionTypeFields();
  const text = (answer: number, stored = 20000, min = 1) => chars(min, forAnswer ? answer : stored);
  const id = forAnswer ? chars(1, A.id) : chars(1);
  const action = z.object({
    action_type: actionType,
    target: chars(1, 200).describe('Who or what the action is about'),
    description: text(A.medium).describe('What to do, for a person to read'),
    intensity: z.enum(INTENSITIES),
    timing: chars(0, 200),
    duration_days: days,
    ...fields.PRAISE_INCREASE.shape,
    ...fields.GOAL_ADJUSTMENT.shape,
    ...fields.MESSAGE_TIMING.shape,
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
          : successCriterion,
      )
      .min(1)
      .max(10),
  };
  const share = z.number().min(0).max(1);
  const agentRef = forAnswer ? chars(0, A.id) : z.string();
  return {
    A,
    text,
    id,
    share,
    count: z.number().min(0),
    agentRef,
    actionType,
    forAnswer,
    action,
    check,
    order,
    monitoring,
  };
}
type Parts = ReturnType<typeof parts>;

// Phases 1 to 4: the situation, the specialists' opinions, the perspectives and the governance checks.
function phaseSchemas({ A, text, action, check, forAnswer }: Parts) {
  const { name, priority } = common();
  return {
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
    // In the order a model should think: the analysis and evidence before the hypothesis, the recommendation, and
    // last the confidence in it (a model writes fields in schema order, and a figure written first is a guess).
    SPECIALIST_OPINION: z.object({
      analysis: text(A.long),
      evidence: z.array(text(A.item)).min(1).max(20),
      hypothesis: text(A.medium),
      // A specialist recommends the kind and intensity; the executor's fields (rate, goal, hour) are the decider's to
      // set in the order, so a model is not asked for them here (a stored opinion may still carry them).
      recommendation: forAnswer
        ? action.omit({ increase_rate: true, new_goal: true, time: true, message_template: true })
        : action,
      confidence: z.number().min(0).max(1),
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
  };
}

// Phase 5: the decider's deliberation, with the weights, votes and member record Kaigi computes.
function deliberationSchema({ A, text, id, share, count, agentRef, actionType }: Parts) {
  return z.object({
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
          // What the weight came from (learned trust); absent in records written before Kaigi kept them.
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
    // The reasons before the choice: a model writes in schema order, and a choice written first is argued after.
    rationale: text(A.long),
    selected_action_types: z.array(actionType).min(1).max(5),
  });
}

// Phase 6's order and the messages around a discussion: feedback, objections, acknowledgements, errors.
function exchangeSchemas({ A, text, id, order, monitoring }: Parts) {
  const { days, isoDate, priority } = common();
  return {
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
}

// Every kind a group builds is listed (a kind left out would read as undefined): checked by the compiler.
type Unlisted =
  | Exclude<keyof ReturnType<typeof phaseSchemas>, (typeof PHASE_KINDS)[number]>
  | Exclude<keyof ReturnType<typeof exchangeSchemas>, (typeof EXCHANGE_KINDS)[number]>;
const everyKindListed: [Unlisted] extends [never] ? true : never = true;
void everyKindListed;

type Content = ReturnType<typeof phaseSchemas> & {
  DECISION_DELIBERATION: ReturnType<typeof deliberationSchema>;
} & ReturnType<typeof exchangeSchemas>;

// Content schemas by kind, each group built on its first kind's use: an execution checks a few kinds (a discussion's
// answers and records never need the exchange group), and building all of them took about 10 ms of a tick.
function contentSchemas(p: Parts): Content {
  const phases = lazy(() => phaseSchemas(p));
  const exchange = lazy(() => exchangeSchemas(p));
  const deliberation = lazy(() => deliberationSchema(p));
  const content = {} as Content;
  const define = (kind: string, get: () => unknown) =>
    Object.defineProperty(content, kind, { get, enumerable: true, configurable: false });
  for (const k of PHASE_KINDS) define(k, () => phases()[k]);
  define('DECISION_DELIBERATION', deliberation);
  for (const k of EXCHANGE_KINDS) define(k, () => exchange()[k]);
  return content;
}

// Every message schema, around one action-type schema (a pattern for stored records, the allow-list for answers).
// A model's answer gets ANSWER_CHARS; a stored record and a person's text (an order edit, an objection, guidance)
// keep the lengths they were accepted with, so nothing stored before these bounds stops loading.
export function buildSchemas(actionType: z.ZodType<string>, forAnswer: boolean, metrics: readonly string[] = []) {
  const p = parts(actionType, forAnswer, metrics);
  const { days } = common();
  const content = contentSchemas(p);
  // What a model fills for an order. A date relative to today is no JSON Schema constraint, so it gives a bounded
  // number of days and Kaigi computes the date; the decision id is Kaigi's to give, so it is not asked for.
  const orderAnswer = lazy(() =>
    z.object({
      ...p.order,
      monitoring: z.object({
        ...p.monitoring,
        review_in_days: days.describe(`Days from today to the review of the order's outcome, 1 to ${MAX_DAYS}`),
      }),
    }),
  );
  // The decider answers Phases 5 and 6 in one call: its deliberation and its order. Kaigi computes the weights and
  // votes (src/core/discussion/votes.ts) and records them; the model is not asked to count.
  const decision = lazy(() =>
    z.object({
      deliberation: forAnswer
        ? content.DECISION_DELIBERATION.omit({ weight_assignment: true, votes: true, member_record: true })
        : content.DECISION_DELIBERATION,
      order: orderAnswer(),
    }),
  );
  return {
    content,
    get orderAnswer() {
      return orderAnswer();
    },
    get decision() {
      return decision();
    },
  };
}
