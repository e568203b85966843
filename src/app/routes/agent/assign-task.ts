// POST /agent/tasks: an agent API task starts a discussion as POST /tasks does; the answer is that API's
// {status: accepted | rejected, message}.
import {
  type SeedTaskAnswer,
  seedKey,
  seedTaskAnswer,
  seedTaskInput,
  seedTrigger,
} from '../../../core/api/seed-api.js';
import { ValidationError } from '../../../core/errors.js';
import { queueDiscussion } from '../council/start-discussion.js';
import { defineOperation } from '../route.js';

const CALL = 'POST /agent/tasks';

// What the council's door refuses (a taskType that is no trigger type, a member not in Members) is the agent API's
// "rejected": the agent declines the task. A body that is not that API's is a 400 before this.
const DECLINED = ['unknown_trigger_type', 'unknown_member'];

export const seedAssignTask = defineOperation({
  name: 'seed_assign_task',
  description:
    'The agent API’s task assignment {taskId, taskType, prompt, context}: starts a discussion as POST /tasks (taskId is the idempotency key, taskType the trigger type, context.target_user_id the member) and answers {status: accepted | rejected, message}.',
  mutates: true,
  tool: false,
  http: { method: 'POST', path: '/agent/tasks' },
  // The agent API's body alone: its `status` is that API's (accepted, idle…) or absent, never Kaigi's HTTP status.
  bare: true,
  same_as: 'POST /tasks',
  roles: ['coordinator', 'admin'],
  input: seedTaskInput,
  output: seedTaskAnswer,
  example: {
    taskId: 'crm-task-0001',
    taskType: 'kpi_decline',
    prompt: 'Contacts fell 30% this week: what should tanaka do next?',
    context: { target_user_id: 'tanaka', metric: 'contacts' },
  },
  handler: (input, ctx): SeedTaskAnswer => {
    try {
      const r = queueDiscussion(
        { ...seedTrigger(input), idempotency_key: seedKey(input.taskId) },
        { ...ctx, requestKey: '' },
        CALL,
      );
      const again = r.duplicate ? ' (sent before: the first answer)' : '';
      return {
        status: 'accepted',
        message: `Accepted as task ${r.task_id}, discussion ${r.discussion_id}${again}; follow it at GET /tasks/${r.task_id}.`,
      };
    } catch (e) {
      const fields = e instanceof ValidationError ? e.fields : undefined;
      if (!fields?.length || !fields.every((f) => DECLINED.indexOf(f.code) >= 0)) throw e;
      return { status: 'rejected', message: fields.map((f) => `${f.field}: ${f.message}`).join('; ') };
    }
  },
});
