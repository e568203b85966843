// GET /tasks/{id}: a task or discussion — its state, each phase's progress, the decision and its orders.
import { rowsOf } from '../../../../sheets-schema/index.js';
import { dayCell, isDate } from '../../../store/records.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import { phaseProgress, type ProgressMessage, currentPhase } from '../../../core/api/api-progress.js';
import { getDiscussionInput } from '../../../core/api/api-schemas.js';
import { NotFoundError } from '../../../core/errors.js';
import type { QueueItem } from '../../../core/queue.js';
import type { Trigger } from '../../../core/types.js';
import { apiCouncil } from '../../api/api-env.js';
import { locate, taskOfReserved } from '../../api/api-tasks.js';
import { DiscussionRows } from '../../../store/repositories/discussion-rows.js';
import { OrderRows } from '../../../store/repositories/order-rows.js';
import type { Council, Loaded } from '../../sheet-council.js';
import { defineOperation } from '../route.js';
import { TASK_KINDS } from '../../../core/queue-tasks.js';

const orderCols = rowsOf('orders');

const iso = (v: unknown): string => (isDate(v) ? v.toISOString() : String(v ?? ''));

function taskInfo(item: QueueItem) {
  return {
    task_id: item.id,
    type: item.type,
    state: item.status,
    attempts: item.attempts,
    last_error: item.last_error,
    created_at: new Date(item.created_at).toISOString(),
    updated_at: new Date(item.updated_at).toISOString(),
  };
}

// The orders of the current decision with their status. One commit, the one that makes the decision, appends them
// all: when that was this execution's last commit and nobody has committed since, they are taken as written (no
// call); else two round trips, the search, then one read of their rows.
function ordersOf(council: Council, decision: string) {
  if (!decision) return [];
  const held = council.store.heldAppended('orders', orderCols.index('decision_id'), decision);
  return council.store
    .resolveOverflow(held.length ? held.map((h) => h.values) : searchOrders(council, decision))
    .map((v) => orderCols.read(v))
    .filter((o) => o.decision_id === decision)
    .map((o) => ({
      order_id: String(o.order_id),
      decision_id: String(o.decision_id),
      target_agent: String(o.target_agent),
      action: parseOr(o.action_json),
      status: String(o.status),
      review_date: dayCell(o.review_date),
      success_criteria: parseOr(o.success_criteria_json),
      updated_at: iso(o.updated_at),
      last_report: String(o.last_report),
    }));
}

function searchOrders(council: Council, decision: string): unknown[][] {
  return new OrderRows(council.store).ofDecision(decision);
}

function parseOr(v: unknown): unknown {
  try {
    return JSON.parse(String(v));
  } catch {
    return String(v);
  }
}

// The discussion at the row a task names (one read), else found by its id (a search and a read).
function loadOrNull(council: Council, id: string, hint: number): Loaded | null {
  const row = hint || new DiscussionRows(council.store).rowOf(id);
  return row ? council.discussions.load(id, row) : null;
}

// A discussion queued and not yet opened: its trigger from the task, every phase pending.
function queuedView(council: Council, item: QueueItem, id: string | null) {
  const p = (item.payload ?? {}) as { trigger?: Trigger; priority?: string };
  return {
    task_id: item.id,
    task: taskInfo(item),
    discussion_id: id,
    state: 'QUEUED',
    priority: p.priority ?? item.priority,
    trigger: p.trigger ?? null,
    created_at: null,
    closed_at: null,
    current_phase: null,
    phases: phaseProgress('QUEUED', [], council.settings().get('phase.target_seconds')),
    decision: null,
    orders: [],
    execution_status: 'NOT_STARTED',
    outcome_evaluated: '',
    notes: [],
  };
}

export function discussionAnswer(council: Council, id: string): Record<string, unknown> {
  const { item, discussion_id } = locate(council, id);
  // A discussion queued by the sidebar or a rule: its id is allocated when it opens.
  if (!discussion_id && item && item.type === TASK_KINDS.open.type) return queuedView(council, item, null);
  if (!discussion_id) {
    // A task that is not about one discussion (an archive run, a re-embedding): the task alone.
    return { task_id: item!.id, task: taskInfo(item!), discussion_id: null, state: item!.status.toUpperCase() };
  }
  const l = loadOrNull(council, discussion_id, Number(item?.payload?.row) || 0);
  if (!l) {
    const queued = item ?? taskOfReserved(council, discussion_id);
    if (!queued) throw new NotFoundError(`discussion ${discussion_id} was not found`, 'task_not_found');
    return queuedView(council, queued, discussion_id);
  }
  const d = l.d;
  const messages: ProgressMessage[] = d.messages.map((m) => ({
    phase: m.phase,
    speaker: m.speaker,
    timestamp: m.timestamp,
    processing_ms: m.metadata.processing_time_ms,
  }));
  const decision = d.final_decision ? String(d.final_decision.decision_id ?? '') : '';
  return {
    task_id: item ? item.id : null,
    task: item ? taskInfo(item) : null,
    discussion_id: d.discussion_id,
    state: d.status,
    priority: d.priority,
    trigger: d.trigger,
    created_at: d.created_at,
    closed_at: d.closed_at || null,
    current_phase: currentPhase(d.status, messages),
    phases: phaseProgress(d.status, messages, council.settings().get('phase.target_seconds')),
    messages: d.messages.length,
    decision: d.final_decision,
    orders: ordersOf(council, decision),
    // Column L of the Discussion Log: the execution of the orders as a whole.
    execution_status: d.execution_status,
    outcome_evaluated: d.outcome_evaluated,
    notes: d.notes,
  };
}

export const getDiscussion = defineOperation({
  name: 'get_discussion',
  description:
    'A task or discussion by its id (Q-n or DISC-…): its state, each phase’s progress and timing, the decision and its orders.',
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/tasks/{id}' },
  roles: ALL_ROLES,
  input: getDiscussionInput,
  handler: ({ id }) => discussionAnswer(apiCouncil(), id),
});
