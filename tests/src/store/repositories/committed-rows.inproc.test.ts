// The repositories' read rule in-process: a reader holding a state from before a commit still finds the rows that
// commit wrote (a stale GET after a decision was this class of bug), and a row not there is null, not an error.
import { describe, expect, it } from 'vitest';
import { recordKpi } from '../../../../src/app/orders/kpi-ingest.js';
import { withPropertySnapshot } from '../../../../src/store/property-reads.js';
import { committedLast, committedRows } from '../../../../src/store/repositories/committed-rows.js';
import { DiscussionRows } from '../../../../src/store/repositories/discussion-rows.js';
import { OrderRows } from '../../../../src/store/repositories/order-rows.js';
import { QueueRows } from '../../../../src/store/repositories/queue-rows.js';
import { addMetric, kaigi } from '../../app/inproc.js';

describe('the committed-rows rule', () => {
  it('finds a row committed after the reader took its state, which the held state does not know', () => {
    const k = kaigi();
    addMetric(k, 'visits');
    // What a reader outside the lock holds: the properties as they were before the commit below.
    const stale = { ...k.ports.properties.values };
    recordKpi(k.council(), [{ member_id: 'tanaka', date: '2026-01-14', metric: 'visits', value: 1 }], { actor: 'crm' });
    const store = k.council().store;
    withPropertySnapshot(() => {
      // The KPI commit's audit row, by the actor that wrote it (nothing else in a new workbook is by 'crm').
      const known = committedLast(store, 'audit');
      const rows = committedRows(store, 'audit', 'actor', 'crm');
      expect(rows).toHaveLength(1);
      // The row lies past the tail the held state knows: only the second search, on the state as committed now, saw it.
      expect(rows[0]).toBeGreaterThan(known);
    }, stale);
  });

  it('answers null or nothing for what is not there', () => {
    const k = kaigi();
    const store = k.council().store;
    expect(new DiscussionRows(store).rowOf('DISC-2026-01-15-999')).toBeNull();
    expect(new DiscussionRows(store).logRow('DISC-2026-01-15-999')).toBeNull();
    expect(new OrderRows(store).ofDecision('DEC-none')).toEqual([]);
    expect(new QueueRows(store).withKey('no-such-key')).toBeNull();
  });
});
