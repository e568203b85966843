// The queue's task types and the payload each carries: the one place a type is named and its payload shaped.
// Handlers (src/app/tasks/) parse with these schemas and producers queue through them, so neither spells a type.
import type { EscalationTimer } from './discussion/escalation-timer.js';
import { OBJECTION_SOURCES, PRIORITIES } from './discussion/vocab.js';
import { ValidationError } from './errors.js';
import { lazy } from './lazy.js';
import type { ObjectionInput, ResolutionInput } from './orders/objections.js';
import type { Priority } from './types.js';
import { z } from './zod.js';

export interface TaskKind<P> {
  readonly type: string;
  // Built on first use, as the routes' schemas are: loading the bundle builds none. Rows queued by older versions
  // must still parse, so a schema only ever accepts more (loose objects keep fields it does not name).
  readonly payload: () => z.ZodType<P>;
}

function kind<P>(type: string, schema: () => z.ZodType<P>): TaskKind<P> {
  return { type, payload: lazy(schema) };
}

// discussion.open as queued: the trigger is checked by its own schema when the task runs (validateTrigger), and the
// discussion id reserved at enqueue and the asking actor are taken only when they are well formed.
export interface OpenPayload {
  trigger: unknown;
  priority?: Priority;
  discussion_id?: unknown;
  actor?: unknown;
}

export interface AdvancePayload {
  discussion_id: string;
  // The discussion's Discussion Log row, when known (read by id otherwise).
  row?: number;
  // Counted among the discussions in progress (the queue's limit).
  started?: boolean;
}

export interface RoomReplyPayload {
  room: string;
  message_id: string;
  agent_id: string;
  sender: string;
  // The API client whose message asked: the answer's tokens count against its day (absent on older queue rows).
  client?: string;
}

// The tasks that take nothing from their payload (an empty object).
type Empty = Record<string, unknown>;

const priority = () => z.enum(PRIORITIES);
const empty = () => z.looseObject({});

export const TASK_KINDS = {
  open: kind<OpenPayload>('discussion.open', () =>
    z.looseObject({
      trigger: z.unknown(),
      priority: priority().optional(),
      discussion_id: z.unknown().optional(),
      actor: z.unknown().optional(),
    }),
  ),
  advance: kind<AdvancePayload>('discussion.advance', () =>
    z.looseObject({
      discussion_id: z.string().min(1),
      row: z.number().optional(),
      started: z.boolean().optional(),
    }),
  ),
  // The fields objectionPayload fills in when left out have the same defaults here.
  objection: kind<ObjectionInput>('objection.process', () =>
    z.looseObject({
      discussion_id: z.string().min(1),
      objection_id: z.string().default(''),
      source: z.enum(OBJECTION_SOURCES),
      objector: z.string(),
      reason: z.string(),
      alternative: z.string().default('-'),
      evidence: z.array(z.string()).default([]),
      urgency: priority().default('MEDIUM'),
      kind: z.enum(['risk', 'ethics', 'legal', 'data_error', 'general']).optional(),
    }),
  ),
  resolution: kind<ResolutionInput>('escalation.resolve', () =>
    z.looseObject({
      discussion_id: z.string().min(1),
      action: z.enum(['approve', 'return', 'reject']),
      guidance: z.string().optional(),
      order: z.record(z.string(), z.unknown()).optional(),
      by: z.string(),
    }),
  ),
  escalationTimer: kind<EscalationTimer>('escalation.timeout', () =>
    z.looseObject({
      discussion_id: z.string().min(1),
      row: z.number().optional(),
      escalated_at: z.number(),
      stage: z.enum(['remind', 'expire']),
    }),
  ),
  roomReply: kind<RoomReplyPayload>('room.reply', () =>
    z.looseObject({
      room: z.string(),
      message_id: z.string(),
      agent_id: z.string(),
      sender: z.string(),
      client: z.string().optional(),
    }),
  ),
  reembed: kind<Empty>('memory.reembed', empty),
  archive: kind<Empty>('archive.run', empty),
  review: kind<Empty>('review.run', empty),
} as const;

// A payload as a queue row holds it (a JSON object), from the typed payload of its kind.
export function payloadRow<P extends object>(_kind: TaskKind<P>, payload: P): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  Object.assign(row, payload);
  return row;
}

// The item's payload parsed by its kind's schema; a payload that does not parse is a ValidationError naming the item,
// the field and what is wrong, which fails the item as the queue fails any error (retried, then dead and told).
export function parsePayload<P>(kind: TaskKind<P>, item: { id: string; payload: Record<string, unknown> | null }): P {
  const r = kind.payload().safeParse(item.payload);
  if (r.success) return r.data;
  const fields = r.error.issues.map((i) => ({
    field: i.path.map(String).join('.') || '(payload)',
    code: i.code,
    message: i.message,
  }));
  const first = fields[0];
  throw new ValidationError(
    `task ${item.id} (${kind.type}) has a payload that does not parse: ${first.field}: ${first.message}`,
    'invalid_task_payload',
    fields,
  );
}
