// What the engine asks of any model provider, and what it gets back; the engine never cares which answered.
import type { Message, MessageType } from './discussion/messages.js';
import type { AgentDef, KpiRow, Member, Priority, Trigger } from './types.js';
import type { Bands, Weights } from './discussion/confidence.js';
import type { AgentMemory } from './memory/memory.js';
import type { MemberRecordLine } from './memory/trust.js';
import type { RecordBand } from './memory/stated-record.js';
import type { Weighing } from './discussion/votes.js';

// The decider answers Phases 5 and 6 in one call: a deliberation and an order. A council agent mentioned in a room
// gives a ROOM_ANSWER; after a reviewed outcome each agent that spoke gives a REFLECTION.
export type Expectation = MessageType | 'DECISION' | 'LEARNING' | 'REFLECTION' | 'ROOM_ANSWER';

// A room message as a council agent is shown it (its text bounded like any input).
export interface RoomLine {
  id: string;
  agentName: string;
  message: string;
  timestamp: string;
}

// The room a council agent was mentioned in: the message to answer and the recent messages before it.
export interface RoomContext {
  name: string;
  mention: RoomLine;
  recent: RoomLine[];
}

export interface AgentContext {
  lang: 'ja' | 'en';
  discussion_id: string;
  today: string;
  priority: Priority;
  trigger: Trigger;
  member: Member | null;
  team: Member[];
  kpi: KpiRow[];
  dataNotes: string[];
  earlier: Message[];
  // The earlier answers shown whole rather than as their digest: message ids, or all of them (the decider).
  whole?: readonly string[];
  // false: the team's table is left out (balancers and governance judge proposals, not the member against peers).
  peers?: boolean;
  summary: string | null;
  allowList: string[];
  weights: Weights;
  bands: Bands;
  computed: Record<string, number>;
  guidance?: string;
  objection?: { reason: string; alternative: string; evidence: string[]; objector: string };
  feedbackQuestion?: string;
  reviewDays: number;
  targetChange: number;
  windowDays: number;
  // Retrieved learnings and cases (with ids), the agent's last next actions, and directives for it.
  memory?: AgentMemory;
  // The measured outcome of the decision, when learnings are extracted from it or an agent reflects on it.
  // error is null when the review window held no data for any metric. A reflecting agent is also shown what it
  // recommended and its record before this verdict.
  outcome?: {
    verdict: string;
    error: number | null;
    measured: unknown;
    your_recommendation?: { action_type: string; carried_out: boolean };
    your_record?: { right: number; wrong: number };
  };
  // The room a mention came from, when the agent answers in a room.
  room?: RoomContext;
  // The member's KPI series: an order's success criteria must name one (src/core/discussion/messages.ts answerSchema).
  metrics?: string[];
  // What each KPI metric means, beyond the built-in descriptions (Settings kpi.metric_descriptions).
  metricNotes?: Record<string, string>;
  // Each metric's good direction from the metric table: a success criterion asks for a move that way.
  goodWays?: Record<string, 'up' | 'down'>;
  // The decider is given the weights and votes Kaigi computed; it explains and decides, it does not count.
  weighing?: Weighing;
  // What was tried for the discussion's member and how each action fared (learned trust; empty without memory).
  memberRecord?: MemberRecordLine[];
  // The team's confirmed rate that record is measured against.
  teamRate?: number;
  // A specialist's own record of stated confidence against verdicts, band by band (memory on, bands with enough
  // opinions): it states its confidence in line with it (src/core/memory/stated-record.ts).
  statedRecord?: RecordBand[];
  // The order under review, when governance judges the decider's own order after Phase 6.
  draftOrder?: Record<string, unknown>;
}

export interface AgentRequest {
  key: string;
  agent: AgentDef;
  phase: number;
  expect: Expectation;
  context: AgentContext;
  // Instructions only, identical for every call of a discussion and sent first, so a vendor can cache it
  // (src/core/prompts/prompt-preamble.ts); undefined or empty: none. Nothing in it comes from outside the council's
  // configuration: vendors send it as the system message.
  preamble?: string;
  // The fenced data every call of the phase shares (team, trigger, member, KPI, notes, earlier answers): the first
  // user message, so untrusted text never reaches a system message. Then the agent's role prompt (system) and task,
  // and its own part (user: today, memory, inputs).
  shared?: string;
  // The task, shared by every call of the phase that asks for the same answer; sent after the preamble.
  task?: string;
  system: string;
  user: string;
  // Every answer asked for in the same round as this one (Phases 3–4: five kinds), for vendors that cache tools.
  round?: Expectation[];
}

// What a call consumed: its prompt and output tokens in all, and the parts of them a vendor prices apart. Each part
// is inside its total (cachedIn and cacheWriteIn in tokensIn, thinkingOut in tokensOut), so a budget of tokens
// counts everything; a part left out is none (src/core/providers/usage.ts reads them from each vendor's answer).
export interface TokenUsage {
  tokensIn: number;
  tokensOut: number;
  // Prompt tokens read from the vendor's cache, at its cached-input price.
  cachedIn?: number;
  // Prompt tokens written to the vendor's cache, at its cache-write price (Anthropic's is above the input price).
  cacheWriteIn?: number;
  // Output tokens the model spent thinking before its answer: output tokens, priced as output.
  thinkingOut?: number;
}

export interface AgentResponse extends TokenUsage {
  key: string;
  ok: boolean;
  content?: unknown;
  model: string;
  ms: number;
  attempts: number;
  // The answer needed the one repair call (counts as a retry, fallback level 1).
  repaired?: boolean;
  // A provider that stands in for another (the daily budget's rule-based fallback) names its level.
  fallbackLevel?: number;
  note?: string;
  error?: { code: string; message: string };
}

export interface Provider {
  readonly name: string;
  // All requests of one round at once, so a provider can run them in parallel.
  respond(requests: AgentRequest[]): AgentResponse[];
}
