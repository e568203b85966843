// Starting a discussion from Sheets (the start dialog and the sidebar form): the choices, the budget estimate before
// the person confirms, and the start itself, validated with POST /tasks's zod schema and queued the way it queues.
import { PRIORITIES as DISCUSSION_PRIORITIES } from '../../core/discussion/vocab.js';
import { type RuleFallback, ruleFallbacks } from './start-fallbacks.js';
import { checkJsonValue } from '../../core/json-guard.js';
import { label } from '../../core/labels.js';
import { membersFromRows, scriptZone } from '../../store/records.js';
import { activeUserEmail } from '../../store/services.js';
import { openBound } from '../../store/spreadsheet.js';
import { fieldIssues } from '../../core/api/api.js';
import { startDiscussionInput } from '../../core/api/api-schemas.js';
import type { ModelCost } from '../../core/engine/estimate.js';
import { ValidationError } from '../../core/errors.js';
import { sha256Text } from '../../core/sha256.js';
import { normalTrigger } from '../../core/discussion/trigger-input.js';
import { newDiscussion, type Priority, type Trigger } from '../../core/types.js';
import { enqueueOnce } from '../api/api-tasks.js';
import { Council } from '../sheet-council.js';
import { pricedEstimate } from './start-estimate.js';
import { admitTrigger, triggerTypes } from './trigger-door.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';

// A trigger started from Sheets says so; the watcher says 'watcher', the API 'api', the CLI 'human'.
const SHEETS_SOURCE = 'sheets';
// The start dialog offers them from the least urgent up.
const PRIORITIES: Priority[] = DISCUSSION_PRIORITIES.slice().reverse();

export interface StartOptions {
  members: { member_id: string; name: string; team: string }[];
  triggerTypes: { type: string; label_ja: string; label_en: string }[];
  priorities: string[];
  defaultPriority: 'MEDIUM';
  // Agents that would answer by rules instead of their model, and why (no key for their vendor, no base URL).
  fallbacks: RuleFallback[];
  // The allowed action types with their labels: the directive form's ban and prefer lists.
  actions: { value: string; label_ja: string; label_en: string }[];
}

interface StartInput {
  target_user_id?: unknown;
  type?: unknown;
  // A note from the form; an object is kept as the trigger's context as it is (the CLI's and tests' triggers).
  context?: unknown;
  priority?: unknown;
  source?: unknown;
  idempotency_key?: unknown;
}

export interface StartEstimate {
  tokens: number;
  limit: number;
  over: boolean;
  prompts: number;
  cost_usd: number;
  byModel: ModelCost[];
  // Models whose tokens count as $0 toward the budget for want of a price: the dialog warns (start-js-form.html).
  unpriced: string[];
}

// A bad field, named: the message lists every problem as `field: message` so the form can mark each field.
class StartInputError extends ValidationError {
  constructor(issues: { field: string; code: string; message: string }[]) {
    super(
      `The discussion cannot start: ${issues.map((i) => `${i.field || 'input'}: ${i.message}`).join('; ')}`,
      'invalid_input',
      issues,
    );
  }
}

// The form's input checked by startDiscussionInput, then at the door (its type and member); a context note becomes
// { note } (Sheets keeps it as text).
function parse(input: unknown, council: Council): { trigger: Trigger; priority: Priority; idempotency_key?: string } {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new StartInputError([{ field: 'input', code: 'invalid_type', message: 'must be an object' }]);
  // Free JSON from the browser (a trigger's context): no nesting past the limit, no prototype keys.
  checkJsonValue(input, 'The start input');
  const x = input as StartInput;
  const context =
    typeof x.context === 'string' ? (x.context.trim() ? { note: x.context } : undefined) : (x.context ?? undefined);
  const parsed = startDiscussionInput().safeParse({
    ...x,
    context,
    priority: x.priority === '' || x.priority === null ? undefined : x.priority,
    idempotency_key: x.idempotency_key === '' || x.idempotency_key === null ? undefined : x.idempotency_key,
  });
  if (!parsed.success) throw new StartInputError(fieldIssues(parsed.error));
  admitTrigger(council, parsed.data);
  return {
    trigger: normalTrigger(parsed.data, SHEETS_SOURCE),
    priority: parsed.data.priority ?? 'MEDIUM',
    idempotency_key: parsed.data.idempotency_key,
  };
}

export function getStartOptions(council = new Council(openBound(), scriptZone())): StartOptions {
  const members = membersFromRows(council.store.readTab('members')).map((m) => ({
    member_id: m.member_id,
    name: m.name,
    team: m.team,
  }));
  return {
    members,
    triggerTypes: triggerTypes(council),
    priorities: PRIORITIES.slice(),
    defaultPriority: 'MEDIUM',
    fallbacks: ruleFallbacks(council.config.agents(), council.settings()),
    actions: council
      .settings()
      .get('actions.allow_list')
      .map((a) => ({ value: a, label_ja: label('action_type', a, 'ja'), label_en: label('action_type', a, 'en') })),
  };
}

// The forecast discussion.open will write, for the same trigger, without writing anything.
export function estimateStart(input: unknown, council = new Council(openBound(), scriptZone())): StartEstimate {
  const { trigger, priority } = parse(input, council);
  const now = new Date(council.now()).toISOString();
  const d = newDiscussion('DISC-ESTIMATE', trigger, priority, now);
  const e = pricedEstimate(d, council.env());
  return {
    tokens: e.tokens,
    limit: e.limit,
    over: e.over,
    prompts: e.prompts,
    cost_usd: e.cost_usd,
    byModel: e.byModel,
    unpriced: e.unpriced,
  };
}

// Queued as POST /tasks queues it: one commit, the discussion id reserved at once. The person running this is the
// actor (never a name the caller supplies); their idempotency key is namespaced by them, so a double-click opens one
// discussion and two people's keys never meet.
export function startDiscussion(
  input: unknown,
  council = new Council(openBound(), scriptZone()),
): { task_id: string; discussion_id: string; duplicate: boolean } {
  const { trigger, priority, idempotency_key } = parse(input, council);
  const email = activeUserEmail();
  const r = enqueueOnce(council, {
    task: TASK_KINDS.open,
    payload: { trigger, priority },
    priority,
    dedupeKey: idempotency_key ? `sheets:${sha256Text(email).slice(0, 16)}:key:${idempotency_key}` : '',
    actor: email,
    call: 'startDiscussion',
    reserveDiscussion: true,
  });
  return { task_id: r.task_id, discussion_id: r.discussion_id, duplicate: r.duplicate };
}
