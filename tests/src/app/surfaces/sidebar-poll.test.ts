// The live sidebar's poll (issue 25): nothing changed costs one cache read and no Sheets call; a discussion started
// anywhere — over the API, by another person — is in the next poll as queued, then as it runs; a lost stamp means a
// full read, never a missed change.
import { describe, expect, it } from 'vitest';
import type { ExecutionResult, Runtime } from '../../../../runtime/runtime.js';
import { council, decline, ok, settle, statuses } from '../../../council-helpers.js';
import { token } from '../rooms-helpers.js';

type Poll = {
  stamp: string;
  changed: boolean;
  list?: { busy: boolean; discussions: { id: string; status: string }[] };
};

async function poll(rt: Runtime, req: object = {}, user?: string): Promise<{ p: Poll; r: ExecutionResult }> {
  const r = await rt.run('pollSidebar', [req], { kind: 'server', user });
  return { p: ok(r) as Poll, r };
}

const SHEETS = ['ss', 'sh', 'rg', 'pr'];
const sheetsOf = (r: ExecutionResult) => SHEETS.reduce((a, k) => a + (r.counts.byService[k] ?? 0), 0);

describe('pollSidebar', () => {
  it('costs one cache read and nothing else while nothing changed, idle or not', async () => {
    const rt = await council();
    const first = await poll(rt);
    expect(first.p.changed).toBe(true);
    for (let i = 0; i < 3; i++) {
      rt.clock.advance(30_000);
      const again = await poll(rt, { since: first.p.stamp });
      expect(again.p).toEqual({ stamp: first.p.stamp, changed: false });
      expect(again.r.counts.byService).toEqual({ cache: 1 });
      expect(sheetsOf(again.r)).toBe(0);
    }
  });

  it('shows a discussion started over the API as queued at once, then running, then decided', async () => {
    const rt = await council();
    const seen = (await poll(rt)).p.stamp;
    const api = await token(rt, 'bot', 'coordinator');
    const started = JSON.parse(
      (await rt.doPost({ path: '/tasks' }, JSON.stringify({ token: api, ...decline('sato') }))).body,
    );
    expect(started.status).toBe(202);
    const after = (await poll(rt, { since: seen })).p;
    expect(after.changed).toBe(true);
    expect(after.list!.busy).toBe(true);
    expect(after.list!.discussions[0]).toMatchObject({ id: started.discussion_id, status: 'QUEUED' });
    // The next tick opens it: the log has it, once, and the poll says so.
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    const running = (await poll(rt, { since: after.stamp })).p;
    expect(running.changed).toBe(true);
    const listed = running.list!.discussions.filter((d) => d.id === started.discussion_id);
    expect(listed.length).toBe(1);
    expect(listed[0].status).toBe(statuses(rt)[started.discussion_id]);
    await settle(rt);
    const done = (await poll(rt)).p;
    expect(done.list!.discussions[0]).toMatchObject({
      id: started.discussion_id,
      status: statuses(rt)[started.discussion_id],
    });
    expect(done.list!.busy).toBe(false);
  });

  it('shows a discussion another person started as queued, and lists only the log under a status filter', async () => {
    const rt = await council();
    const seen = (await poll(rt)).p.stamp;
    const r = ok(await rt.run('startDiscussion', [decline('suzuki')], { kind: 'server' }));
    const p = (await poll(rt, { since: seen })).p;
    expect(p.list!.discussions.map((d) => [d.id, d.status])).toEqual([[r.discussion_id, 'QUEUED']]);
    // A status filter lists the log only.
    expect((await poll(rt, { status: 'DECIDED' })).p.list!.discussions).toEqual([]);
  });

  it('shows a discussion the watcher queued, by its task id until it opens', async () => {
    const rt = await council();
    const seen = (await poll(rt)).p.stamp;
    ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    const p = (await poll(rt, { since: seen })).p;
    expect(p.changed).toBe(true);
    const queued = p.list!.discussions.filter((d) => d.status === 'QUEUED');
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.every((d) => /^Q-\d+$/.test(d.id))).toBe(true);
  });

  it('reads in full when the cache has lost the stamp, so no change is missed', async () => {
    const rt = await council();
    const first = (await poll(rt)).p;
    for (const c of rt.caches.values()) c.load([]);
    const after = await poll(rt, { since: first.stamp });
    expect(after.p.changed).toBe(true);
    expect(after.p.stamp).not.toBe(first.stamp);
    // The stamp put back before that read now answers "nothing changed".
    expect((await poll(rt, { since: after.p.stamp })).p.changed).toBe(false);
    // A commit after it moves it on again.
    ok(await rt.run('startDiscussion', [decline('sato')], { kind: 'server' }));
    expect((await poll(rt, { since: after.p.stamp })).p.changed).toBe(true);
  });
});
