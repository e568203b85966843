// The queue's commits through the built file: a discussion's log row written in its claim's commit, its steps
// written together, and a first step that fails at the claim still recorded as the task's failure.
import { describe, expect, it } from 'vitest';
import { council, decline, messages, ok, plantOpenTask, start, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';

describe('the commits of a discussion', () => {
  it('claims and opens in one commit, the configuration read before the claim, and writes a fast council’s steps together', async () => {
    const rt = await council();
    await start(rt);
    await start(rt, { ...decline('sato'), source: 'human' });
    const r = await rt.run('tick', [], { kind: 'trigger' });
    ok(r);
    const ids = Object.keys(statuses(rt));
    expect(ids.map((id) => statuses(rt)[id])).toEqual(['DECIDED', 'DECIDED']);
    // One flush per commit. Each discussion: the claim with its log row (the tick read the configuration before
    // the lock, as live items were queued), then every step of the rule-based council (well within
    // queue.commit_every_seconds of each other). A claim of its own, or a commit per step, would flush more.
    expect(r.counts.byOp['ss.flush']).toBe(4);
    expect(records(rt, 'queue').map((q) => [q.type, q.status])).toEqual([
      ['discussion.advance', 'done'],
      ['discussion.advance', 'done'],
    ]);
    for (const id of ids) expect(messages(rt, id).length).toBeGreaterThan(5);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('writes each step in a commit of its own when queue.commit_every_seconds is 0', async () => {
    const rt = await council();
    ok(await rt.run('updateSetting', [{ key: 'queue.commit_every_seconds', value: '0' }], { kind: 'server' }));
    await start(rt);
    const r = await rt.run('tick', [], { kind: 'trigger' });
    ok(r);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    // The claim with the log row, then start, phase 2, phases 3–4 and the decision.
    expect(r.counts.byOp['ss.flush']).toBe(5);
  });

  it('records a discussion.open whose trigger fails validation as the task failing, the queue moving on', async () => {
    const rt = await council();
    await plantOpenTask(rt, 'Q-bad', JSON.stringify({ trigger: { type: 'no_such_type', source: 'human' } }));
    await start(rt);
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    const failed = records(rt, 'queue').find((r) => r.id === 'Q-bad')!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, type: 'discussion.open' });
    expect(String(failed.last_error)).not.toBe('');
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });
});
