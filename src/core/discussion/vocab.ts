// The closed vocabularies of a discussion (priorities, statuses, message kinds) and of the records around it, below
// types.ts, messages.ts and the sheet schema (sheets-schema/ takes its enum columns from here and the owning modules).
// The values as arrays, so what is shown to a person can be labelled per value (src/core/labels.ts).
export const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const STATUSES = ['OPEN', 'IN_PROGRESS', 'VOTING', 'DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'] as const;
export type Status = (typeof STATUSES)[number];
// Statuses after which nothing more happens to a discussion (src/core/discussion/state-machine.ts: no transition
// leaves them).
export const SETTLED_STATUSES: readonly string[] = ['CLOSED', 'TIMEOUT'];
// A discussion still being discussed: the council has not decided, escalated or ended it.
export const ACTIVE_STATUSES: readonly string[] = ['OPEN', 'IN_PROGRESS', 'VOTING'];
// Statuses in which the council is still working on the discussion (ESCALATED waits for a person at its phase).
export const WORKING_STATUSES: readonly string[] = ['IN_PROGRESS', 'VOTING', 'ESCALATED'];
// The messages of Phases 1 to 4, and those around a decision (its order, feedback, objections, acknowledgements,
// errors): each group's schemas are built together (src/core/discussion/message-schemas.ts).
export const PHASE_MESSAGE_TYPES = [
  'SITUATION_REPORT',
  'SPECIALIST_OPINION',
  'PERSPECTIVE_POSITIVE',
  'PERSPECTIVE_NEGATIVE',
  'PERSPECTIVE_HUMAN',
  'GOVERNANCE_ETHICS',
  'GOVERNANCE_LEGAL',
] as const;
export const EXCHANGE_MESSAGE_TYPES = [
  'EXECUTION_ORDER',
  'FEEDBACK_REQUEST',
  'FEEDBACK_RESPONSE',
  'OBJECTION',
  'ACKNOWLEDGEMENT',
  'ERROR',
] as const;
// Every kind of message in a discussion's record (src/core/discussion/messages.ts holds each one's schema).
export const MESSAGE_TYPES = [...PHASE_MESSAGE_TYPES, 'DECISION_DELIBERATION', ...EXCHANGE_MESSAGE_TYPES] as const;
export const INBOX_TYPES = ['struggle', 'proposal', 'question', 'status_report', 'anomaly_alert', 'milestone'] as const;
export const INBOX_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const INTENSITIES = ['low', 'medium', 'high'] as const;
// An Inbox item's and a directive's state.
export const INBOX_STATUSES = ['unread', 'read', 'responded', 'archived'] as const;
export const DIRECTIVE_STATUSES = ['active', 'consumed', 'cancelled'] as const;
// A queue item's lifecycle (src/core/queue.ts).
export const QUEUE_STATUSES = ['queued', 'processing', 'done', 'failed', 'dead'] as const;
// A forecast's verdict, and what the actions did (src/core/memory/outcomes.ts, effect.ts).
export const VERDICTS = ['confirmed', 'rejected', 'inconclusive'] as const;
export const EFFECTS = ['worked', 'no_effect', 'worse', 'unclear'] as const;
// Whom a learning is about: one member, everyone, or one kind of case.
export const LEARNING_SCOPES = ['individual', 'shared', 'case'] as const;
export const AGENT_GROUPS = ['specialist', 'balancer', 'governance', 'decider'] as const;
// Who filed an objection: a council agent, a person, or an API client.
export const OBJECTION_SOURCES = ['agent', 'human', 'api'] as const;
// The languages prompts and texts are kept in.
export const LANGUAGES = ['ja', 'en'] as const;
// A room member's presence.
export const MEMBER_STATUSES = ['in', 'out'] as const;
export const CHECK_RESULTS = ['PASS', 'FAIL'] as const;
