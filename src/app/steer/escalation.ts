// Resolving an escalated discussion from the sidebar: an edited order is checked field by field before it is queued.
import { ValidationError } from '../../core/errors.js';
import type { ResolutionInput } from '../../core/orders/objections.js';
import { checkEditedOrder } from '../../core/orders/order-edit.js';
import type { Council } from '../sheet-council.js';
import { requestResolution } from '../discussions/requests.js';
import { orderNames } from './order-choices.js';

// Checks the edited order now, so a person hears about a bad field at the form, not later in a failed task: it passes
// the schema and allow-list the decider's order passes. The task (src/app/tasks/escalation-resolve.ts) records the
// order it is given, so it gets the checked one; whether the discussion is still ESCALATED is the task's to check,
// under the lock, since a tick may change it between this call and the task.
export function resolveFromSidebar(council: Council, input: Partial<ResolutionInput>): { task_id: string } {
  if (!input || typeof input !== 'object') throw new ValidationError('a resolution needs discussion_id and action');
  if (!input.discussion_id) throw new ValidationError('discussion_id is required');
  return requestResolution(
    withCheckedOrder(council, { ...input, discussion_id: String(input.discussion_id) }),
    council,
  );
}

// The resolution with its edited order (if any) checked and normalised; the sidebar and POST /escalations/{id} both
// use it, so a bad field is refused at the door whichever way the person or client came. It names only the executors
// and metrics the sidebar's form offers, and its review date counts from the day the form counts from.
export function withCheckedOrder(council: Council, input: Partial<ResolutionInput>): Partial<ResolutionInput> {
  const hasOrder = input.order !== undefined && input.order !== null;
  if (hasOrder && input.action !== 'approve')
    throw new ValidationError('an edited order goes with approve only', 'invalid_order');
  const request: Partial<ResolutionInput> = { ...input };
  if (hasOrder) {
    const allow = council.settings().get('actions.allow_list');
    const { known, today } = orderNames(council);
    request.order = checkEditedOrder(input.order, allow, today, known) as Record<string, unknown>;
  } else delete request.order;
  return request;
}
