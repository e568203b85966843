// POST /tasks: start a discussion from a trigger; answers 202 with its task and discussion ids at once, or,
// with wait_seconds, runs it in this request and answers with the decided discussion as GET /tasks/{id} would.
import { TooLargeError } from '../../../core/errors.js';
import { sha256Text } from '../../../core/sha256.js';
import { startTaskInput } from '../../../core/api/api-schemas.js';
import { normalTrigger, type TriggerInput } from '../../../core/discussion/trigger-input.js';
import { forecastTokens, startBudget } from '../../api/api-budget.js';
import { apiCouncil } from '../../api/api-env.js';
import type { Priority } from '../../../core/types.js';
import { type Enqueued, enqueueOnce } from '../../api/api-tasks.js';
import { admitTrigger } from '../../discussions/trigger-door.js';
import type { ClaimStep } from '../../queue/work-queue.js';
import { discussionAnswer } from './get-discussion.js';
import { type CallContext, defineOperation } from '../route.js';
import { TASK_KINDS } from '../../../core/queue-tasks.js';

const CALL = 'POST /tasks';

// The queue's dedupe key: the client's idempotency key, or the MCP call's own key, namespaced by client so two
// clients' keys never meet. An MCP key may be anything the client sent, so it is kept as its hash.
function dedupeKeyOf(client: string, idempotencyKey: string | undefined, requestKey: string): string {
  if (idempotencyKey) return `api:${client}:key:${idempotencyKey}`;
  if (requestKey) return `api:${client}:call:${sha256Text(requestKey).slice(0, 32)}`;
  return '';
}

export type StartInput = TriggerInput & { priority?: Priority; idempotency_key?: string; wait_seconds?: number };

// Queues a discussion for a trigger the door admits, once per idempotency key (or re-sent call) of the client.
export function queueDiscussion(input: StartInput, ctx: CallContext, call: string): Enqueued {
  const client = ctx.caller.name;
  const priority = input.priority ?? 'MEDIUM';
  const council = apiCouncil();
  admitTrigger(council, input);
  const trigger = normalTrigger(input, 'api');
  // Held at its forecast against the client's daily budget (src/core/api/api-budget.ts). A discussion forecast past
  // limits.max_tokens_per_discussion is refused before it starts, not cut short after it has spent.
  const forecast = forecastTokens(council, trigger, priority);
  const limit = council.settings().number('limits.max_tokens_per_discussion');
  if (forecast > limit)
    throw new TooLargeError(
      `this discussion is forecast at ${forecast} tokens, over limits.max_tokens_per_discussion (${limit})`,
      'over_token_limit',
    );
  const waits = (input.wait_seconds ?? 0) > 0 && !!ctx.workOwnTask;
  // A caller that waits claims its task in the enqueue's own commit when nothing else is queued.
  const step = waits && ctx.ownTaskStep ? ctx.ownTaskStep(input.wait_seconds ?? 0) : null;
  const claimWith = step ? (step as ClaimStep) : undefined;
  return enqueueOnce(council, {
    task: TASK_KINDS.open,
    payload: { trigger, priority },
    priority,
    dedupeKey: dedupeKeyOf(client, input.idempotency_key, ctx.requestKey),
    actor: `api:${client}`,
    call,
    reserveDiscussion: true,
    dedupeWithinMs: input.idempotency_key ? undefined : council.settings().number('api.replay_seconds') * 1000,
    budget: startBudget(council, client, forecast),
    // A caller that waits runs the work itself: the one-shot trigger only for what it leaves.
    noNudge: waits,
    claimWith,
  });
}

export const startDiscussion = defineOperation({
  name: 'start_discussion',
  description:
    'Start a council discussion about a trigger { type, target_user_id, context?, priority? } (its source is recorded as api); an idempotency_key makes a repeated call return the first answer. With wait_seconds (up to Settings api.max_wait_seconds) the call runs the discussion itself and answers with it decided, or 202 when the wait ran out.',
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/tasks' },
  roles: ['coordinator', 'admin'],
  input: startTaskInput,
  example: {
    type: 'kpi_decline',
    target_user_id: 'tanaka',
    context: { metric: 'contacts', change: -0.3 },
    priority: 'HIGH',
    idempotency_key: 'crm-2026-11-26-0001',
  },
  handler: (input, ctx) => {
    const r = queueDiscussion(input, ctx, CALL);
    // A repeated call gets the first answer as it was.
    const queued = { status: 202, task_id: r.task_id, discussion_id: r.discussion_id };
    if (r.duplicate || !input.wait_seconds || !ctx.workOwnTask) return queued;
    const own = ctx.workOwnTask(r.task_id, input.wait_seconds, r.claimed);
    return own.finished ? discussionAnswer(apiCouncil(), r.task_id) : { ...queued, waited_up_to: own.waited_up_to };
  },
});
