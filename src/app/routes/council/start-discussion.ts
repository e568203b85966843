// POST /tasks: start a discussion from a trigger (SPEC §12); answers 202 with its task and discussion ids at once.
import { sha256Text } from '../../../core/sha256.js';
import { startDiscussionInput } from '../../../core/api-schemas.js';
import { normalTrigger } from '../../../core/trigger-input.js';
import { forecastTokens, startBudget } from '../../api-budget.js';
import { apiCouncil } from '../../api-env.js';
import { enqueueOnce } from '../../api-tasks.js';
import { admitTrigger } from '../../trigger-door.js';
import { defineOperation } from '../route.js';

const CALL = 'POST /tasks';

// The queue's dedupe key: the client's idempotency key, or the MCP call's own key, namespaced by client so two
// clients' keys never meet. An MCP key may be anything the client sent, so it is kept as its hash.
function dedupeKeyOf(client: string, idempotencyKey: string | undefined, requestKey: string): string {
  if (idempotencyKey) return `api:${client}:key:${idempotencyKey}`;
  if (requestKey) return `api:${client}:call:${sha256Text(requestKey).slice(0, 32)}`;
  return '';
}

export const startDiscussion = defineOperation({
  name: 'start_discussion',
  description:
    'Start a council discussion about a trigger { type, source?, target_user_id, context?, priority? }; an idempotency_key makes a repeated call return the first answer.',
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/tasks' },
  roles: ['coordinator', 'admin'],
  input: startDiscussionInput,
  handler: (input, ctx) => {
    const client = ctx.caller.name;
    const priority = input.priority ?? 'MEDIUM';
    const council = apiCouncil();
    admitTrigger(council, input);
    const trigger = normalTrigger(input, 'api');
    // Held at its forecast against the client's daily budget (src/core/api-budget.ts).
    const forecast = forecastTokens(council, trigger, priority);
    const r = enqueueOnce(council, {
      type: 'discussion.open',
      payload: { trigger, priority },
      priority,
      dedupeKey: dedupeKeyOf(client, input.idempotency_key, ctx.requestKey),
      actor: `api:${client}`,
      call: CALL,
      reserveDiscussion: true,
      dedupeWithinMs: input.idempotency_key ? undefined : council.settings().number('api.replay_seconds') * 1000,
      budget: startBudget(council, client, forecast),
    });
    // A repeated call gets the first answer as it was.
    return { status: 202, task_id: r.task_id, discussion_id: r.discussion_id };
  },
});
