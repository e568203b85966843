// Progress as GET /tasks/{id} and GET /status report it: phase states and timing, agents' states, queue depth.
import { describe, expect, it } from 'vitest';
import {
  activeDiscussions,
  agentStates,
  currentPhase,
  phaseProgress,
  queueDepth,
} from '../../../../src/core/api/api-progress.js';
import type { QueueItem } from '../../../../src/core/queue.js';

const T0 = Date.UTC(2026, 0, 15, 1, 0, 0);
const msg = (phase: number, speaker: string, atMs: number, processing = 100) => ({
  phase,
  speaker,
  timestamp: new Date(T0 + atMs).toISOString(),
  processing_ms: processing,
});
const TARGETS = { 1: 5, 2: 30, 3: 15, 4: 10, 5: 20, 6: 0 };

describe('phaseProgress', () => {
  it('marks phases before the last message done, its phase current, the rest pending, with timing', () => {
    const ms = [msg(1, 'analyst', 1000, 500), msg(2, 'psychology', 3000, 800), msg(2, 'coaching', 40_000, 800)];
    const p = phaseProgress('IN_PROGRESS', ms, TARGETS);
    expect(p.map((x) => x.state)).toEqual(['done', 'current', 'pending', 'pending', 'pending', 'pending']);
    expect(p[0]).toMatchObject({ name: 'situation report', speakers: ['analyst'], messages: 1, ms: 500 });
    expect(p[0].started_at).toBe(new Date(T0 + 500).toISOString());
    // 3.0 s to 40.0 s plus the longest answer: over the 30 s target.
    expect(p[1]).toMatchObject({
      speakers: ['psychology', 'coaching'],
      ms: 37_800,
      target_seconds: 30,
      over_target: true,
    });
    expect(p[2]).toMatchObject({ messages: 0, started_at: null, ms: 0, over_target: false });
    expect(currentPhase('IN_PROGRESS', ms)).toBe(2);
  });

  it('has no current phase before it opens or once it is over; a finished one skips silent phases', () => {
    expect(phaseProgress('QUEUED', [], TARGETS).every((x) => x.state === 'pending')).toBe(true);
    expect(currentPhase('OPEN', [])).toBeNull();
    expect(currentPhase('IN_PROGRESS', [])).toBe(1);
    const done = phaseProgress(
      'DECIDED',
      [msg(1, 'analyst', 0), msg(5, 'decider', 10), msg(6, 'decider', 20)],
      TARGETS,
    );
    expect(done.map((x) => x.state)).toEqual(['done', 'skipped', 'skipped', 'skipped', 'done', 'done']);
    expect(currentPhase('DECIDED', [msg(6, 'decider', 0)])).toBeNull();
  });

  it('follows a discussion reopened at Phase 5 by an objection', () => {
    const ms = [msg(5, 'decider', 0), msg(6, 'decider', 10), msg(5, 'decider', 20)];
    expect(
      phaseProgress('IN_PROGRESS', ms, TARGETS)
        .map((x) => x.state)
        .slice(4),
    ).toEqual(['current', 'pending']);
  });
});

const item = (over: Partial<QueueItem>): QueueItem => ({
  row: 2,
  id: 'Q-1',
  type: 'discussion.advance',
  from: 'x',
  to: 'council',
  priority: 'MEDIUM',
  payload: { discussion_id: 'DISC-2026-01-15-001', row: 2 },
  status: 'queued',
  attempts: 0,
  available_at: 0,
  lease_owner: '',
  lease_until: 0,
  dedupe_key: '',
  created_at: 0,
  updated_at: 0,
  last_error: '',
  ...over,
});

describe('the council status', () => {
  it('counts the queue, with only live leases as processing', () => {
    const items = [
      item({ id: 'Q-1', status: 'processing', lease_until: T0 + 1000 }),
      item({ id: 'Q-2', status: 'processing', lease_until: T0 - 1000, payload: { discussion_id: 'DISC-2', row: 3 } }),
      item({ id: 'Q-3', type: 'discussion.open', payload: { trigger: {} } }),
      item({ id: 'Q-4', status: 'failed', type: 'objection.process' }),
      item({ id: 'Q-5', status: 'done', payload: { discussion_id: 'DISC-3', row: 4 } }),
    ];
    expect(queueDepth(items, T0)).toEqual({ queued: 1, processing: 1, failed: 1, discussions_in_progress: 2 });
    expect(activeDiscussions(items)).toEqual([
      { discussion_id: 'DISC-2026-01-15-001', row: 2 },
      { discussion_id: 'DISC-2', row: 3 },
    ]);
  });

  it('makes an active agent busy in its phase, in error when its model cannot be called, else idle', () => {
    const agent = (id: string, phases: number[], active = true) => ({
      agent_id: id,
      name_en: id,
      name_ja: id,
      group: 'specialist',
      phases,
      active,
      model: 'rules:default',
    });
    const states = agentStates(
      [agent('analyst', [1, 2]), agent('ethics', [4]), agent('legal', [4]), agent('coaching', [2], false)],
      [
        { discussion_id: 'DISC-A', phase: null },
        { discussion_id: 'DISC-B', phase: 2 },
      ],
      new Map([
        ['legal', 'provider "openai" has no API key'],
        ['coaching', 'ignored: inactive'],
      ]),
    );
    expect(states.map((s) => [s.agent_id, s.status, s.current_discussion, s.error])).toEqual([
      ['analyst', 'busy', 'DISC-B', null],
      ['ethics', 'idle', null, null],
      ['legal', 'error', null, 'provider "openai" has no API key'],
      ['coaching', 'idle', null, null],
    ]);
  });
});
