// The agent API (/agent/tasks, /agent/tasks/{taskId}/result, /agent/status): its bodies as zod schemas,
// and how an agent API task becomes a Kaigi trigger. Kept apart from api-schemas.ts, whose bodies are Kaigi's own.
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import { sha256Text } from '../sha256.js';
import type { TriggerInput } from '../discussion/trigger-input.js';

// The longest prompt kept: as long as the longest free text a report keeps (what a cell holds whole).
const MAX_PROMPT = 20000;

// The agent API's task request {taskId, taskType, prompt, context}. Strict, as Kaigi's own trigger is: a misspelt key
// is refused by name, never dropped.
export const seedTaskInput = lazy(() =>
  z.strictObject({
    taskId: z
      .string()
      .min(1)
      .max(200)
      .describe('The task’s unique id: the idempotency key (a repeat answers as the first)'),
    taskType: z.string().min(1).max(200).describe('The kind of task: a trigger type of Settings triggers.types'),
    prompt: z.string().max(MAX_PROMPT).describe('The instruction: kept as context.prompt of the discussion’s trigger'),
    context: z
      .object({ target_user_id: z.string().min(1).describe('The member the task is about (Members tab)') })
      .catchall(z.unknown())
      .describe('Anything else the task needs: kept whole as the trigger’s context'),
  }),
);
export type SeedTaskInput = z.infer<ReturnType<typeof seedTaskInput>>;

// The agent API's result report; {taskId} is the id the task was sent with, or Kaigi's task or discussion id.
export const seedResultInput = lazy(() =>
  z.strictObject({
    taskId: z.string().min(1).max(200),
    status: z.enum(['completed', 'failed', 'in_progress']),
    result: z.record(z.string(), z.unknown()).optional(),
    errorMessage: z.string().max(MAX_PROMPT).optional(),
  }),
);

export const seedStatusInput = lazy(() => z.strictObject({}));

// The answers, exactly the agent API's: what the OpenAPI document shows and the tests check the handlers against.
export const seedTaskAnswer = lazy(() =>
  z.object({
    status: z.enum(['accepted', 'rejected']),
    message: z.string().optional(),
  }),
);
export type SeedTaskAnswer = z.infer<ReturnType<typeof seedTaskAnswer>>;

export const seedResultAnswer = lazy(() => z.object({ success: z.boolean() }));

export const seedStatusAnswer = lazy(() =>
  z.object({
    agentName: z.string(),
    role: z.string(),
    status: z.enum(['idle', 'busy', 'error']),
    currentTask: z.string().optional(),
    availableTools: z.array(z.string()).optional(),
  }),
);
export type SeedStatusAnswer = z.infer<ReturnType<typeof seedStatusAnswer>>;

// Letters, digits and . _ : - as Kaigi's idempotency keys are: a key is stored in a cell and searched for whole.
const SAFE_KEY = /^[A-Za-z0-9._:-]{1,200}$/;

// The taskId as the queue's idempotency key: as sent when it is a safe cell value, else its hash (a taskId such as
// "=SUM(A1)" must never reach a cell as a formula).
export function seedKey(taskId: string): string {
  return SAFE_KEY.test(taskId) ? taskId : `sha256.${sha256Text(taskId).slice(0, 40)}`;
}

// The trigger an agent API task starts: taskType is its type, prompt and context its context, the member
// context.target_user_id.
export function seedTrigger(t: SeedTaskInput): TriggerInput {
  const { target_user_id, ...rest } = t.context;
  return {
    type: t.taskType,
    source: 'api',
    target_user_id,
    context: { ...rest, prompt: t.prompt, task_id: t.taskId },
  };
}

// An agent API status from Kaigi's GET /status: busy while a discussion runs or work is queued, in error while
// an active agent cannot reach its model (it answers with rules meanwhile).
export function seedStatusOf(
  status: { state?: unknown; currentTask?: unknown; agents?: unknown },
  tools: readonly string[],
): SeedStatusAnswer {
  const agents = Array.isArray(status.agents) ? (status.agents as { status?: unknown }[]) : [];
  const state = agents.some((a) => a.status === 'error') ? 'error' : status.state === 'busy' ? 'busy' : 'idle';
  const out: SeedStatusAnswer = { agentName: 'kaigi', role: 'council', status: state };
  if (typeof status.currentTask === 'string' && status.currentTask) out.currentTask = status.currentTask;
  out.availableTools = tools.slice();
  return out;
}
