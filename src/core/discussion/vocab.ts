// The closed vocabularies of a discussion (priorities, statuses, message kinds), below both types.ts and messages.ts.
// The values as arrays, so what is shown to a person can be labelled per value (src/core/labels.ts).
export const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const STATUSES = ['OPEN', 'IN_PROGRESS', 'VOTING', 'DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'] as const;
export type Status = (typeof STATUSES)[number];
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
export const CHECK_RESULTS = ['PASS', 'FAIL'] as const;
