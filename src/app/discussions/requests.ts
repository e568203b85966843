// What people and rules ask of the council: open a discussion, object to a decision, resolve an escalation.
import { PRIORITIES as DISCUSSION_PRIORITIES } from '../../core/discussion/vocab.js';
import { activeUserEmail, props, scheduleOnce } from '../../store/services.js';
import { ValidationError } from '../../core/errors.js';
import { DISCUSSION_ID } from '../../core/discussion/ids.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { validateTrigger } from '../../core/discussion/trigger-input.js';
import { Council } from '../sheet-council.js';
import { refuseIfInExecution } from '../orders/order-execution.js';
import { refuseUnlessDecided, refuseUnlessEscalated } from './discussion-status.js';
import type { ObjectionInput, ResolutionInput } from '../../core/orders/objections.js';
import type { Priority } from '../../core/types.js';
import { scriptZone } from '../../store/records.js';
import { openBound } from '../../store/spreadsheet.js';
import { NUDGE_HANDLER } from '../../core/trigger-plan.js';
import { nudgeDelay } from '../../core/queue.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { queueObjection } from './objection-records.js';

const PRIORITIES: readonly Priority[] = DISCUSSION_PRIORITIES;
const NUDGE_AT = PROPERTY_KEYS.nudgeAt;

// `field` is the input's own name for it (an objection's is `urgency`), so a refusal names what the caller sent.
function priorityOf(v: unknown, fallback: Priority = 'MEDIUM', field = 'priority'): Priority {
  if (v === undefined || v === null || v === '') return fallback;
  if (PRIORITIES.indexOf(v as Priority) < 0)
    throw new ValidationError(`${field} must be one of ${PRIORITIES.join(', ')}`);
  return v as Priority;
}

// Schedules a one-shot trigger so new work starts within seconds instead of at the next minute.
export function nudge(council: Council): void {
  const delay = nudgeDelay(council.settings().number('queue.nudge_delay_ms'));
  // A nudge whose time is long past has fired or died; it must not block new ones or use up the trigger quota.
  if (scheduleOnce(NUDGE_HANDLER, delay, Number(props.get(NUDGE_AT) || 0)))
    props.set({ [NUDGE_AT]: String(council.now() + delay) });
}

export interface DiscussionRequest {
  type: string;
  source?: string;
  target_user_id: string;
  context?: Record<string, unknown>;
  priority?: Priority;
  dedupe_key?: string;
}

export function requestDiscussion(
  req: DiscussionRequest,
  council = new Council(openBound(), scriptZone()),
): { task_id: string; duplicate: boolean } {
  // The trigger's own fields (the schema is strict); priority and dedupe key are the queue's.
  const trigger = validateTrigger({
    type: req.type,
    source: req.source,
    target_user_id: req.target_user_id,
    context: req.context,
  });
  const priority = priorityOf(req.priority);
  const r = council.queue.enqueue(
    TASK_KINDS.open,
    { trigger, priority },
    priority,
    req.dedupe_key ? String(req.dedupe_key) : '',
    trigger.source,
  );
  nudge(council);
  return { task_id: r.id, duplicate: r.duplicate };
}

// Who objects: a person (who Apps Script says runs this), an API client (`api:NAME`, from its token) or a council
// agent (only the engine's own path). Never taken from the input.
export interface Objector {
  source: ObjectionInput['source'];
  objector: string;
}

// The objection.process payload, checked; `who` comes from the caller's code, never from the input.
export function objectionPayload(input: Partial<ObjectionInput>, who: Objector): ObjectionInput {
  if (!input.discussion_id || !DISCUSSION_ID.test(input.discussion_id))
    throw new ValidationError('discussion_id must look like DISC-YYYY-MM-DD-SEQ');
  if (!input.reason || !String(input.reason).trim()) throw new ValidationError('an objection needs a reason');
  return {
    discussion_id: input.discussion_id,
    objection_id: '',
    source: who.source,
    objector: who.objector,
    reason: String(input.reason).slice(0, 20000),
    alternative: String(input.alternative || '-').slice(0, 20000),
    evidence: (Array.isArray(input.evidence) ? input.evidence : input.evidence ? [String(input.evidence)] : [])
      .map((e) => String(e).slice(0, 2000))
      .slice(0, 20),
    urgency: priorityOf(input.urgency, 'MEDIUM', 'urgency'),
    kind: input.kind,
  };
}

// A person's objection (fileObjection) or, with `who`, the engine's own objection as a council agent.
export function requestObjection(
  input: Partial<ObjectionInput>,
  council = new Council(openBound(), scriptZone()),
  who: Objector = { source: 'human', objector: activeUserEmail() },
): { task_id: string; objection_id: string } {
  const payload = objectionPayload(input, who);
  // A person's objection is refused at once in a state that takes none; the engine's own is filed under its lock.
  if (who.source !== 'agent') refuseUnlessDecided(council, payload.discussion_id);
  refuseIfInExecution(council, payload.discussion_id);
  const filed = queueObjection(council, payload);
  nudge(council);
  return filed;
}

// The escalation.resolve payload, checked; `by` is who resolves it (the acting person, or the API client).
export function resolutionPayload(input: Partial<ResolutionInput>, by: string): ResolutionInput {
  if (!input.discussion_id) throw new ValidationError('discussion_id is required');
  if (input.action !== 'approve' && input.action !== 'return' && input.action !== 'reject')
    throw new ValidationError('action must be approve, return or reject');
  if (input.action === 'return' && !input.guidance)
    throw new ValidationError('returning a discussion to Phase 5 needs guidance');
  const payload: ResolutionInput = { discussion_id: input.discussion_id, action: input.action, by };
  if (input.guidance) payload.guidance = String(input.guidance).slice(0, 20000);
  if (input.order) payload.order = input.order;
  return payload;
}

export function requestResolution(
  input: Partial<ResolutionInput>,
  council = new Council(openBound(), scriptZone()),
): { task_id: string } {
  const payload = resolutionPayload(input, activeUserEmail());
  refuseUnlessEscalated(council, payload.discussion_id);
  const r = council.queue.enqueue(TASK_KINDS.resolution, payload, 'HIGH', '', payload.by);
  nudge(council);
  return { task_id: r.id };
}
