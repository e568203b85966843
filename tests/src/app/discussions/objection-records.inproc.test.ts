// An objection is a row from the moment it is filed: OPEN (and counted among the sidebar's open objections) until its
// task judges it (or it is withdrawn), then ACCEPTED, REJECTED or WITHDRAWN on the same row, each change audited;
// older rows' values still read.
import { describe, expect, it } from 'vitest';
import { objectionRow } from '../../../../src/store/records.js';
import { withdrawObjectionRow } from '../../../../src/app/discussions/objection-records.js';
import { requestObjection } from '../../../../src/app/discussions/requests.js';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { sidebarData } from '../../../../src/app/surfaces/sidebar.js';
import { NotFoundError, ValidationError } from '../../../../src/core/errors.js';
import { objectionState } from '../../../../src/core/orders/objection-state.js';
import type { ObjectionRow } from '../../../../src/core/types.js';
import { api, client, decline, type Kaigi, settle } from '../inproc.js';
import { auditOk, preparedKaigi } from '../inproc-more.js';

function decided(): { k: Kaigi; id: string } {
  const { k, value: id } = preparedKaigi('decided-for-objection-rows', (k) => {
    const id = startDiscussion({ ...decline('tanaka'), source: 'watcher' }, k.council()).discussion_id;
    settle(k);
    return id;
  });
  return { k, id };
}

// The sidebar's count of objections waiting for a judgement about the discussion.
const openCount = (k: Kaigi, id: string) => sidebarData(k.council()).discussions.find((d) => d.id === id)!.objections;
const audited = (k: Kaigi, objection: string) =>
  k
    .records('audit')
    .filter((r) => r.event === 'objection' && r.row_key === objection)
    .map((r) => JSON.parse(String(r.payload_json)).status);

describe('an objection as a record', () => {
  it('is an OPEN row counted by the sidebar once filed, and the same row rejected, uncounted, once judged', () => {
    const { k, id } = decided();
    expect(openCount(k, id)).toBe(0);
    requestObjection(
      { discussion_id: id, reason: 'なんとなく不安', alternative: '様子を見る', urgency: 'LOW' },
      k.council(),
    );
    const filed = k.records('objections');
    expect(filed.map((r) => [r.objection_id, r.discussion_id, r.source, r.status])).toEqual([
      ['OBJ-1', id, 'human', 'OPEN'],
    ]);
    // The task carries the row's id, so its processing finds the row.
    expect(k.records('queue').find((r) => r.type === 'objection.process')!.payload_json).toContain('"OBJ-1"');
    expect(openCount(k, id)).toBe(1);
    settle(k);
    const judged = k.records('objections');
    expect(judged.length).toBe(1);
    expect(judged[0]).toMatchObject({ objection_id: 'OBJ-1', status: 'REJECTED', resolved_by: 'decider' });
    expect(String(judged[0].decision_id)).toMatch(/^DEC-/);
    expect(String(judged[0].created_at)).toBe(String(filed[0].created_at));
    expect(openCount(k, id)).toBe(0);
    expect(audited(k, 'OBJ-1')).toEqual(['OPEN', 'REJECTED']);
    expect(auditOk(k)).toBe(true);
  });

  it('is filed OPEN over the web API too, and accepted on the same row', () => {
    const { k, id } = decided();
    const token = client(k, 'lead', 'coordinator');
    const r = api(token, 'POST', '/objections', { discussion_id: id, reason: 'データが欠けている', urgency: 'HIGH' });
    expect(r.status).toBe(202);
    expect(k.records('objections').map((o) => [o.objection_id, o.source, o.objector, o.status])).toEqual([
      ['OBJ-1', 'api', 'api:lead', 'OPEN'],
    ]);
    expect(openCount(k, id)).toBe(1);
    settle(k);
    expect(k.records('objections').map((o) => [o.objection_id, o.status])).toEqual([['OBJ-1', 'ACCEPTED']]);
    expect(openCount(k, id)).toBe(0);
    expect(audited(k, 'OBJ-1')).toEqual(['OPEN', 'ACCEPTED']);
  });

  it('is withdrawn while OPEN: the row says so and who, its task judges nothing, and a second withdrawal is refused', () => {
    const { k, id } = decided();
    const council = k.council();
    requestObjection({ discussion_id: id, reason: '再検討を', alternative: 'ONE_ON_ONE', urgency: 'HIGH' }, council);
    expect(openCount(k, id)).toBe(1);
    expect(() => withdrawObjectionRow(council, 'OBJ-x', 'lead@example.com')).toThrow(ValidationError);
    expect(() => withdrawObjectionRow(council, 'OBJ-7', 'lead@example.com')).toThrow(NotFoundError);
    expect(withdrawObjectionRow(council, 'OBJ-1', 'lead@example.com')).toEqual({
      objection_id: 'OBJ-1',
      status: 'WITHDRAWN',
    });
    expect(openCount(k, id)).toBe(0);
    settle(k);
    const [row] = k.records('objections');
    expect(row).toMatchObject({ status: 'WITHDRAWN', resolved_by: 'lead@example.com', decision_id: '' });
    // The task ended without judging: no objection message, the decision stands.
    expect(k.records('queue').find((r) => r.type === 'objection.process')!.status).toBe('done');
    expect(String(k.records('discussions')[0].messages_json)).not.toContain('OBJECTION_ACCEPTED');
    expect(() => withdrawObjectionRow(k.council(), 'OBJ-1', 'lead@example.com')).toThrow(
      'OBJ-1 is WITHDRAWN; only an OPEN objection can be withdrawn',
    );
    expect(audited(k, 'OBJ-1')).toEqual(['OPEN', 'WITHDRAWN']);
    expect(auditOk(k)).toBe(true);
  });

  it('reads the older values RESOLVED and FAILED as accepted and rejected, never as open', () => {
    expect([objectionState('RESOLVED'), objectionState('FAILED'), objectionState('OPEN')]).toEqual([
      'ACCEPTED',
      'REJECTED',
      'OPEN',
    ]);
    expect(objectionState('SOMETHING')).toBeNull();
    const { k, id } = decided();
    const council = k.council();
    const old = (n: number, status: string): ObjectionRow =>
      ({
        objection_id: `OBJ-${n}`,
        discussion_id: id,
        decision_id: '',
        source: 'human',
        objector: 'lead@example.com',
        reason: 'r',
        alternative: '-',
        evidence: '',
        urgency: 'LOW',
        status,
        resolution: 'older row',
        resolved_by: 'decider',
        created_at: '2026-01-15T00:00:00.000Z',
        resolved_at: '2026-01-15T00:00:00.000Z',
      }) as ObjectionRow;
    council.store.withLock((state) => {
      const c = council.store.begin(state);
      c.appendOne('objections', objectionRow(old(90, 'RESOLVED')), 'Objections:OBJ-90');
      c.appendOne('objections', objectionRow(old(91, 'FAILED')), 'Objections:OBJ-91');
      c.run(new Date(council.now()).toISOString());
    });
    expect(k.records('objections').map((r) => objectionState(r.status))).toEqual(['ACCEPTED', 'REJECTED']);
    expect(openCount(k, id)).toBe(0);
  });
});
