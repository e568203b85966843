// The engine's shared shapes: the step kinds, what a step runs with, and what it produces.
import type { Message } from '../discussion/messages.js';
import type { Provider } from '../provider.js';
import type { Price } from '../providers/model-table.js';
import type { Settings } from '../settings.js';
import type { AgentDef, Discussion, InboxItem, KpiRow, Member, OrderRow, Status } from '../types.js';
import type { AgentMemory } from '../memory/memory.js';
import type { AgentObjection } from '../rules/review.js';
import type { TrustState } from '../memory/trust.js';
import type { Directive } from '../discussion/directives.js';

export type Step =
  | { kind: 'start' }
  | { kind: 'phase2'; agents: string[] }
  | { kind: 'feedback'; agents: string[] }
  | { kind: 'phase34'; agents: string[] }
  | { kind: 'decide' }
  | { kind: 'agent_review' }
  | { kind: 'timeout' }
  | { kind: 'idle'; reason: string };

export interface EngineEnv {
  settings: Settings;
  agents: AgentDef[];
  promptOf: (agent: AgentDef) => string;
  providerFor: (agent: AgentDef) => Provider;
  rules: Provider;
  kpi: KpiRow[];
  members: Member[];
  dataNotes: string[];
  now: () => number;
  today: string;
  isoNow: () => string;
  nextDecisionId: () => string;
  lang: 'ja' | 'en';
  historicalAccuracy: (agentId: string) => number;
  // Price per 1,000 tokens of a provider:model, from Settings; null when unknown.
  priceOf: (model: string) => Price | null;
  // What memory gives this agent in this discussion (empty when memory is off).
  memoryFor: (agent: AgentDef, d: Discussion) => AgentMemory;
  // Learned trust as the last review left it (src/core/memory/trust.ts); absent: every agent is neutral.
  trust?: () => TrustState;
  // People's directives not yet applied (absent: none); each discussion takes those for its member.
  directives?: () => Directive[];
}

export interface StepResult {
  messages: Message[];
  status: Status;
  transitions: { from: Status; to: Status }[];
  closedAt?: string;
  finalDecision?: Record<string, unknown>;
  orders: OrderRow[];
  cancelDecision?: string;
  executionStatus?: string;
  inbox: Omit<InboxItem, 'inbox_id'>[];
  notes: string[];
  // An objection the agent review files against the council's own order (queued as an objection.process task).
  agentObjection?: AgentObjection;
}
