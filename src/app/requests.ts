// What people and rules ask of the council: open a discussion, object to a decision, resolve an escalation.
import { activeUserEmail, props, scheduleOnce } from '../adapters/gas/services.js';
import { ValidationError } from '../core/errors.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { validateTrigger } from '../core/trigger-input.js';
import { Council } from './council.js';
import type { ObjectionInput, ResolutionInput } from '../core/objections.js';
import type { Priority } from '../core/types.js';
import { scriptZone } from '../adapters/gas/records.js';
import { openBound } from '../adapters/gas/spreadsheet.js';
import { NUDGE_HANDLER } from '../core/trigger-plan.js';

const PRIORITIES: Priority[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
const NUDGE_AT = PROPERTY_KEYS.nudgeAt;

function priorityOf(v: unknown, fallback: Priority = 'MEDIUM'): Priority {
  if (v === undefined || v === null || v === '') return fallback;
  if (PRIORITIES.indexOf(v as Priority) < 0)
    throw new ValidationError(`priority must be one of ${PRIORITIES.join(', ')}`);
  return v as Priority;
}

// Schedules a one-shot trigger so new work starts within seconds instead of at the next minute.
export function nudge(council: Council): void {
  const delay = council.settings().number('queue.nudge_delay_ms');
  // A nudge whose time is long past has fired or died; it must not block new ones or use up the trigger quota.
  if (scheduleOnce(NUDGE_HANDLER, delay, Number(props.get(NUDGE_AT) || 0)))
    props.set({ [NUDGE_AT]: String(Date.now() + delay) });
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
  // The trigger's own fields: the strict schema refuses any other key, and priority and dedupe_key are the request's.
  const { priority: _p, dedupe_key: _d, ...fields } = req;
  const trigger = validateTrigger(fields);
  const priority = priorityOf(req.priority);
  const r = council.queue.enqueue(
    'discussion.open',
    { trigger, priority },
    priority,
    req.dedupe_key ? String(req.dedupe_key) : '',
    trigger.source,
  );
  nudge(council);
  return { task_id: r.id, duplicate: r.duplicate };
}

// The objection.process payload, checked. A person is who Apps Script says is running this, never a name the caller
// supplies; agents are named by their caller, and an API client by the router (its token's name).
export function objectionPayload(input: Partial<ObjectionInput>): ObjectionInput {
  if (!input.discussion_id || !/^DISC-\d{4}-\d{2}-\d{2}-\d{3,}$/.test(input.discussion_id))
    throw new ValidationError('discussion_id must look like DISC-YYYY-MM-DD-SEQ');
  if (!input.reason || !String(input.reason).trim()) throw new ValidationError('an objection needs a reason');
  const source = input.source === 'agent' || input.source === 'api' ? input.source : 'human';
  return {
    discussion_id: input.discussion_id,
    objection_id: '',
    source,
    objector: source === 'human' ? activeUserEmail() : String(input.objector || source),
    reason: String(input.reason).slice(0, 20000),
    alternative: String(input.alternative || '-').slice(0, 20000),
    evidence: (Array.isArray(input.evidence) ? input.evidence : input.evidence ? [String(input.evidence)] : [])
      .map((e) => String(e).slice(0, 2000))
      .slice(0, 20),
    urgency: priorityOf(input.urgency),
    kind: input.kind,
  };
}

export function requestObjection(
  input: Partial<ObjectionInput>,
  council = new Council(openBound(), scriptZone()),
): { task_id: string } {
  const payload = objectionPayload(input);
  const r = council.queue.enqueue(
    'objection.process',
    payload as unknown as Record<string, unknown>,
    payload.urgency,
    '',
    payload.objector,
  );
  nudge(council);
  return { task_id: r.id };
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
  const r = council.queue.enqueue(
    'escalation.resolve',
    payload as unknown as Record<string, unknown>,
    'HIGH',
    '',
    payload.by,
  );
  nudge(council);
  return { task_id: r.id };
}
