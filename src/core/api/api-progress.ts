// What GET /tasks/{id} and GET /status say about progress: each phase's state and timing, each agent's state,
// and the queue's depth. Pure: the adapters hand in what they read.
import { WORKING_STATUSES } from '../discussion/vocab.js';
import type { QueueItem } from '../queue.js';
import { parseInstant } from '../instant.js';
import { TASK_KINDS } from '../queue-tasks.js';

const PHASE_NAMES: Record<number, string> = {
  1: 'situation report',
  2: 'specialist analysis',
  3: 'multi-perspective',
  4: 'governance',
  5: 'deliberation',
  6: 'execution order',
};

// A message as progress needs it.
export interface ProgressMessage {
  phase: number;
  speaker: string;
  timestamp: string;
  processing_ms: number;
}

type PhaseState = 'done' | 'current' | 'pending' | 'skipped';

export interface PhaseProgress {
  phase: number;
  name: string;
  state: PhaseState;
  speakers: string[];
  messages: number;
  started_at: string | null;
  ended_at: string | null;
  ms: number;
  target_seconds: number | null;
  over_target: boolean;
}

const FINISHED = ['DECIDED', 'CLOSED', 'TIMEOUT'];

// The phase being worked on: that of the last message written (a discussion reopened by an objection goes back to
// Phase 5 although Phase 6 spoke before), Phase 1 before anyone spoke; none when it has not started or is over.
export function currentPhase(status: string, messages: readonly ProgressMessage[]): number | null {
  if (WORKING_STATUSES.indexOf(status) < 0) return null;
  return messages.length ? messages[messages.length - 1].phase : 1;
}

// Each phase's state and timing (as `kaigi run --json` measures it: from the first answer's start to the last
// answer), against Settings phase.target_seconds. `status` is the discussion's, or QUEUED before it opened.
export function phaseProgress(
  status: string,
  messages: readonly ProgressMessage[],
  targets: Record<string, number>,
): PhaseProgress[] {
  const current = currentPhase(status, messages);
  const finished = FINISHED.indexOf(status) >= 0;
  return [1, 2, 3, 4, 5, 6].map((phase) => {
    const ms = messages.filter((m) => m.phase === phase);
    const speakers = ms.map((m) => m.speaker).filter((s, i, all) => all.indexOf(s) === i);
    const target = typeof targets[String(phase)] === 'number' ? targets[String(phase)] : null;
    let state: PhaseState;
    if (current !== null) state = phase < current ? 'done' : phase === current ? 'current' : 'pending';
    else if (finished) state = ms.length ? 'done' : 'skipped';
    else state = 'pending';
    if (!ms.length)
      return {
        phase,
        name: PHASE_NAMES[phase],
        state,
        speakers,
        messages: 0,
        started_at: null,
        ended_at: null,
        ms: 0,
        target_seconds: target,
        over_target: false,
      };
    const times = ms.map((m) => parseInstant(m.timestamp));
    const longest = Math.max(...ms.map((m) => m.processing_ms || 0));
    const first = Math.min(...times);
    const last = Math.max(...times);
    const took = last - first + longest;
    return {
      phase,
      name: PHASE_NAMES[phase],
      state,
      speakers,
      messages: ms.length,
      started_at: new Date(first - longest).toISOString(),
      ended_at: new Date(last).toISOString(),
      ms: took,
      target_seconds: target,
      over_target: target !== null && target > 0 && took > target * 1000,
    };
  });
}

// ---- the council's status -----------------------------------------------------------------------

export interface QueueDepth {
  queued: number;
  processing: number;
  failed: number;
  discussions_in_progress: number;
}

// Items from the queue's head on: what waits, what runs under a live lease, what waits to be retried.
export function queueDepth(items: readonly QueueItem[], now: number): QueueDepth {
  const live = (i: QueueItem) => i.status === 'processing' && i.lease_until > now;
  return {
    queued: items.filter((i) => i.status === 'queued').length,
    processing: items.filter(live).length,
    failed: items.filter((i) => i.status === 'failed').length,
    discussions_in_progress: activeDiscussions(items).length,
  };
}

// Discussions the queue still carries: opened (discussion.advance) and not done or dead, with their log row.
export function activeDiscussions(items: readonly QueueItem[]): { discussion_id: string; row: number }[] {
  const out: { discussion_id: string; row: number }[] = [];
  for (const i of items) {
    if (i.type !== TASK_KINDS.advance.type || i.status === 'done' || i.status === 'dead' || !i.payload) continue;
    const id = String(i.payload.discussion_id ?? '');
    if (id) out.push({ discussion_id: id, row: Number(i.payload.row) || 0 });
  }
  return out;
}

export interface AgentInfo {
  agent_id: string;
  name_en: string;
  name_ja: string;
  group: string;
  phases: number[];
  active: boolean;
  model: string;
}

export interface AgentState {
  agent_id: string;
  name: string;
  name_ja: string;
  group: string;
  active: boolean;
  model: string;
  status: 'idle' | 'busy' | 'error';
  current_discussion: string | null;
  error: string | null;
}

// busy: an active agent that speaks in the current phase of a discussion in progress (the first such discussion);
// error: an active agent whose model cannot be called as configured (no key, unknown provider); else idle.
export function agentStates(
  agents: readonly AgentInfo[],
  live: readonly { discussion_id: string; phase: number | null }[],
  // By agent id in a Map: an agent named __proto__ or constructor is looked up like any other.
  problems: ReadonlyMap<string, string>,
): AgentState[] {
  return agents.map((a) => {
    const at = a.active ? live.find((l) => l.phase !== null && a.phases.indexOf(l.phase) >= 0) : undefined;
    const problem = a.active ? (problems.get(a.agent_id) ?? null) : null;
    return {
      agent_id: a.agent_id,
      name: a.name_en,
      name_ja: a.name_ja,
      group: a.group,
      active: a.active,
      model: a.model,
      status: problem ? 'error' : at ? 'busy' : 'idle',
      current_discussion: at ? at.discussion_id : null,
      error: problem,
    };
  });
}
