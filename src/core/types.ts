// Types shared by the pure core: triggers, agents, discussions and the records Kaigi writes.
import type { Message } from './discussion/messages.js';
import type { AGENT_GROUPS, INBOX_PRIORITIES, INBOX_TYPES, Priority, Status } from './discussion/vocab.js';

// The vocabularies live in vocab.ts so messages.ts can use them without importing this file back.
export * from './discussion/vocab.js';

// The action types the default allow-list (Settings actions.allow_list) holds; a person may add others.
export const ACTION_TYPES = [
  'PRAISE_INCREASE',
  'GOAL_ADJUSTMENT',
  'MESSAGE_TIMING',
  'ONE_ON_ONE',
  'PEER_SUPPORT',
  'REST_RECOMMENDATION',
  'SKILL_TRAINING',
] as const;
// An objection's states, on its row from the moment it is filed: OPEN until the decider judges it (or the objector
// withdraws it). The Objections tab may also hold two older values, RESOLVED and FAILED, written when an objection
// was only stored once judged: they are read as ACCEPTED and REJECTED (src/core/orders/objection-state.ts).
export const OBJECTION_STATES = ['OPEN', 'ACCEPTED', 'REJECTED', 'WITHDRAWN'] as const;
export const OBJECTION_STATUSES = [...OBJECTION_STATES, 'RESOLVED', 'FAILED'] as const;
export type ObjectionState = (typeof OBJECTION_STATES)[number];
export type AgentGroup = (typeof AGENT_GROUPS)[number];

export interface Trigger {
  type: string;
  source: 'human' | 'watcher' | 'api' | 'objection' | 'cli' | string;
  target_user_id: string;
  context: Record<string, unknown>;
}

export interface AgentDef {
  agent_id: string;
  name_ja: string;
  name_en: string;
  group: AgentGroup;
  phases: number[];
  model: string;
  temperature: number;
  substitute_agent: string;
  active: boolean;
  prompt_version: number;
  description: string;
  // Output tokens one answer may take; 0: its group's cap in Settings provider.max_output_tokens.
  max_output_tokens: number;
}

export interface PromptRow {
  prompt_id: string;
  agent_id: string;
  version: number;
  active: boolean;
  language: 'ja' | 'en';
  text: string;
  changed_by: string;
  change_reason: string;
}

export interface Discussion {
  discussion_id: string;
  status: Status;
  priority: Priority;
  trigger: Trigger;
  created_at: string;
  closed_at: string;
  participants: string[];
  messages: Message[];
  final_decision: Record<string, unknown> | null;
  execution_status: string;
  outcome_evaluated: string;
  notes: string[];
}

// A discussion as it opens: no participants, messages or decision yet.
export function newDiscussion(
  discussion_id: string,
  trigger: Trigger,
  priority: Priority,
  created_at: string,
): Discussion {
  return {
    discussion_id,
    status: 'OPEN',
    priority,
    trigger,
    created_at,
    closed_at: '',
    participants: [],
    messages: [],
    final_decision: null,
    execution_status: 'NOT_STARTED',
    outcome_evaluated: '',
    notes: [],
  };
}

export interface KpiRow {
  date: string;
  member_id: string;
  metric: string;
  value: number;
}

export interface Member {
  member_id: string;
  name: string;
  team: string;
  role: string;
  best_login_streak: number;
  profile: Record<string, unknown>;
}

export interface OrderRow {
  order_id: string;
  decision_id: string;
  discussion_id: string;
  target_agent: string;
  action: Record<string, unknown>;
  status: 'PENDING' | 'ACKNOWLEDGED' | 'IN_PROGRESS' | 'DONE' | 'CANCELLED';
  review_date: string;
  success_criteria: unknown;
}

export interface InboxItem {
  inbox_id: string;
  from_agent: string;
  type: (typeof INBOX_TYPES)[number];
  priority: (typeof INBOX_PRIORITIES)[number];
  title: string;
  body: string;
  discussion_id: string;
}

export interface ObjectionRow {
  objection_id: string;
  discussion_id: string;
  decision_id: string;
  source: 'agent' | 'human' | 'api';
  objector: string;
  reason: string;
  alternative: string;
  evidence: string;
  urgency: Priority;
  status: ObjectionState;
  resolution: string;
  resolved_by: string;
  created_at: string;
  resolved_at: string;
}

export const PRIORITY_RANK: Record<Priority, number> = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3 };
