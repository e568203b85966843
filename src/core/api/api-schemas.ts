// The inputs of the council's web API operations: one zod schema each, for REST bodies and MCP tools alike.
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import { DISCUSSION_ID } from '../discussion/ids.js';
import { REPORT_STATUSES, type ReportStatus } from '../orders/order-status.js';
import { triggerSchema } from '../discussion/trigger-input.js';
import { PRIORITIES } from '../discussion/vocab.js';

export { DISCUSSION_ID };
export const TASK_ID = /^Q-\d+$/;

// The longest free text a report, objection or guidance keeps (what the Orders row and the transcript hold whole).
const MAX_TEXT = 20000;

// Letters, digits and . _ : - only: a key is stored in a cell and searched for as a whole cell, never a formula.
const idempotencyKey = () =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits, dot, underscore, colon and hyphen only');

const discussionIdInput = () => z.string().regex(DISCUSSION_ID, 'must look like DISC-YYYY-MM-DD-SEQ');

// A task id (Q-n, as POST /tasks answers) or a discussion id (DISC-YYYY-MM-DD-SEQ).
const taskOrDiscussionId = () =>
  z
    .string()
    .refine((s) => TASK_ID.test(s) || DISCUSSION_ID.test(s), 'must be a task id (Q-n) or a discussion id (DISC-…)');

export const startDiscussionInput = lazy(() =>
  triggerSchema().extend({
    priority: z.enum(PRIORITIES).optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
);

// POST /tasks (start_discussion) alone: how long the caller will wait for the decision. The request's own execution
// then carries the discussion instead of leaving it to a trigger that Apps Script fires late
// (src/app/queue/work-now.ts).
export const startTaskInput = lazy(() =>
  startDiscussionInput().extend({
    wait_seconds: z.number().int().min(0).max(300).optional(),
  }),
);

export const getDiscussionInput = lazy(() => z.object({ id: taskOrDiscussionId() }));

// The agent API reports completed, failed and in_progress; they are accepted for DONE, FAILED and IN_PROGRESS.
const SEED_STATUSES = { completed: 'DONE', failed: 'FAILED', in_progress: 'IN_PROGRESS' } as const;
type SeedStatus = keyof typeof SEED_STATUSES;

export const reportResultInput = lazy(() =>
  z.object({
    id: taskOrDiscussionId(),
    status: z.enum([...REPORT_STATUSES, 'completed', 'failed', 'in_progress']),
    report: z.string().max(MAX_TEXT).optional(),
    // The agent API's fields: a result object and an error message, kept in the report's text.
    result: z.record(z.string(), z.unknown()).optional(),
    errorMessage: z.string().max(MAX_TEXT).optional(),
  }),
);
export type ReportResultInput = z.infer<ReturnType<typeof reportResultInput>>;

export function reportStatusOf(s: ReportResultInput['status']): ReportStatus {
  return s in SEED_STATUSES ? SEED_STATUSES[s as SeedStatus] : (s as ReportStatus);
}

// The report's text as the Orders row and the ACKNOWLEDGEMENT keep it: the report, then the agent API's fields.
export function reportTextOf(i: ReportResultInput): string {
  const parts: string[] = [];
  if (i.report !== undefined) parts.push(i.report);
  if (i.errorMessage !== undefined) parts.push(`error: ${i.errorMessage}`);
  if (i.result !== undefined) parts.push(`result: ${JSON.stringify(i.result)}`);
  return parts.join('\n');
}

export const fileObjectionInput = lazy(() =>
  z.object({
    discussion_id: discussionIdInput(),
    reason: z.string().trim().min(1, 'an objection needs a reason').max(MAX_TEXT),
    alternative: z.string().max(MAX_TEXT).optional(),
    evidence: z.array(z.string().max(2000)).max(20).optional(),
    urgency: z.enum(PRIORITIES).optional(),
    kind: z.enum(['risk', 'ethics', 'legal', 'data_error', 'general']).optional(),
  }),
);

export const resolveEscalationInput = lazy(() =>
  z
    .object({
      id: discussionIdInput(),
      action: z.enum(['approve', 'return', 'reject']),
      guidance: z.string().max(MAX_TEXT).optional(),
      // An EXECUTION_ORDER replacing the decider's (approve, edited): validated as one by the resolution task.
      order: z.record(z.string(), z.unknown()).optional(),
    })
    .refine((i) => i.action !== 'return' || !!i.guidance?.trim(), {
      message: 'returning a discussion to Phase 5 needs guidance',
      path: ['guidance'],
    }),
);

export const getStatusInput = lazy(() => z.object({ roomName: z.string().max(200).optional() }));
