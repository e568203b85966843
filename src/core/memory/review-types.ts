// The records the review's three modules share (plan, learnings, reflections), here so they import one way.
import type { ContentOf } from '../discussion/messages.js';
import type { Evaluation } from './outcomes.js';
import type { ReflectionAnswer } from './reflection-schema.js';
import type { Discussion } from '../types.js';

// A decision whose review date has come, with its orders' statuses (what was reported, not what the review sets).
export interface DueDecision {
  decision_id: string;
  discussion_id: string;
  orders: { row: number; order_id: string; status: string }[];
}

// A due decision whose discussion is still DECIDED on that decision, measured against the KPI.
export interface Assessment extends DueDecision {
  discussion: Discussion;
  log_row: number;
  order: ContentOf<'EXECUTION_ORDER'>;
  ev: Evaluation;
}

// One agent's model reflection: the answer when it was usable, else why not. source is the provider:model asked.
export interface ModelReflection {
  agent_id: string;
  source: string;
  answer: ReflectionAnswer | null;
  problem: string;
}
