// What Kaigi spends of Apps Script's daily quotas when there is nothing to do: an idle tick, an edit elsewhere, a
// repeated watch.
import { describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../../runtime/runtime.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { council, ok, settle, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';

// Every service call an execution made, Sheets round trips among them.
function cost(r: ExecutionResult): { calls: number; roundTrips: number } {
  return { calls: r.counts.calls, roundTrips: r.counts.roundTrips };
}

describe('an idle backstop tick', () => {
  it('makes exactly one call, a Script Properties read, on a fresh workbook and after a discussion', async () => {
    const rt = await council();
    const fresh = await rt.run('tick', [], { kind: 'trigger' });
    expect(ok(fresh)).toEqual({ ran: true, processed: 0, failed: 0, reason: 'idle', tasks: [], dashboard: false });
    expect(cost(fresh)).toEqual({ calls: 1, roundTrips: 0 });
    expect(fresh.counts.other).toBe(1);

    await start(rt);
    const busy = await rt.run('tick', [], { kind: 'trigger' });
    expect(ok(busy).processed).toBeGreaterThan(0);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    // The decision made the Dashboard due a minute later: a tick before then is still idle, the first one after
    // refreshes it, once.
    expect(rt.scriptProperties.get(PROPERTY_KEYS.dashboardDue)).not.toBeNull();
    const early = await rt.run('tick', [], { kind: 'trigger' });
    expect(ok(early).reason).toBe('idle');
    expect(cost(early)).toEqual({ calls: 1, roundTrips: 0 });
    rt.clock.advance(61_000);
    expect(ok(await rt.run('tick', [], { kind: 'trigger' })).dashboard).toBe(true);
    expect(rt.scriptProperties.get(PROPERTY_KEYS.dashboardDue)).toBeNull();
    await settle(rt);
    // The tick that finished the last item moved the queue head past it, so the next one is idle.
    const idle = await rt.run('tick', [], { kind: 'trigger' });
    expect(ok(idle).reason).toBe('idle');
    expect(cost(idle)).toEqual({ calls: 1, roundTrips: 0 });
  });

  it('is idle after the menu or the daily review refreshed a Dashboard that was due: one refresh covers it', async () => {
    for (const [fn, kind] of [
      ['refreshDashboard', 'menu'],
      ['dailyReview', 'trigger'],
    ] as const) {
      const rt = await council();
      await start(rt);
      ok(await rt.run('tick', [], { kind: 'trigger' }));
      expect(rt.scriptProperties.get(PROPERTY_KEYS.dashboardDue)).not.toBeNull();
      ok(await rt.run(fn, [], { kind }));
      expect(rt.scriptProperties.get(PROPERTY_KEYS.dashboardDue)).toBeNull();
      rt.clock.advance(61_000);
      const after = ok(await rt.run('tick', [], { kind: 'trigger' }));
      expect([fn, after.reason, after.dashboard]).toEqual([fn, 'idle', false]);
    }
  });

  it('is not idle while work is queued: a request waiting for its nudge is still taken by the backstop', async () => {
    const rt = await council();
    await start(rt);
    // The nudge is lost (deleted, or never fired); the backstop finds the work.
    for (const t of rt.triggers.triggers.filter((x) => x.handler === 'tickSoon')) rt.triggers.delete(t.uid);
    const r = ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(r.reason).not.toBe('idle');
    expect(r.processed).toBeGreaterThan(0);
  });
});

describe('the on-edit trigger', () => {
  it('costs no call for an edit outside the configuration tabs and changes nothing', async () => {
    const rt = await council();
    const version = rt.scriptProperties.get('KAIGI_CONFIG_VERSION');
    const [elsewhere] = await rt.edit('Inbox', 5, 2, [['a note']]);
    ok(elsewhere);
    // The edited sheet's name comes with the event's range.
    expect(cost(elsewhere)).toEqual({ calls: 0, roundTrips: 0 });
    expect(rt.scriptProperties.get('KAIGI_CONFIG_VERSION')).toBe(version);
    const [config] = await rt.edit('Settings', 2, 2, [['en']]);
    ok(config);
    expect(Number(rt.scriptProperties.get('KAIGI_CONFIG_VERSION'))).toBe(Number(version) + 1);
  });
});

describe('dailyWatch', () => {
  it('running twice in a day opens one discussion, also when the first has already been decided', async () => {
    const rt = await council();
    const first = ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    expect(first.opened.map((o: { member: string; duplicate: boolean }) => [o.member, o.duplicate])).toEqual([
      ['tanaka', false],
    ]);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('DECIDED');
    // Nothing of the first is still queued, so the queue's dedupe key alone would let a second discussion open.
    expect(records(rt, 'queue').every((q) => q.status === 'done')).toBe(true);
    rt.clock.advance(3600_000);
    const again = ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
    expect(again.opened).toEqual([
      // The open discussion has already seen today's data: nothing is added, nothing opened.
      {
        member: 'tanaka',
        metric: 'contacts',
        change: first.opened[0].change,
        task_id: id,
        duplicate: true,
        action: 'seen',
      },
    ]);
    await settle(rt);
    expect(Object.keys(statuses(rt))).toEqual([id]);
    expect(records(rt, 'queue').length).toBe(1);
  });
});
