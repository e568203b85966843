// The use cases read time from the injected clock port: a council whose clock stands three days after the host's
// stamps its queue rows, its discussion and its "today" on the port's time, not on Date.now().
import { describe, expect, it } from 'vitest';
import { memoryPorts } from '../../../src/adapters/memory/memory-ports.js';
import { usePorts } from '../../../src/ports.js';
import { startDiscussion } from '../../../src/app/discussions/start.js';
import { runTick } from '../../../src/app/queue/tick.js';
import { Council } from '../../../src/app/sheet-council.js';
import { decline, kaigi, readRecords, ZONE } from './inproc.js';

const DAY = 86_400_000;

describe('the clock port', () => {
  it('drives the stamps a discussion gets, whatever Date.now() says', () => {
    const k = kaigi();
    const at = Date.now() + 3 * DAY;
    const ports = memoryPorts({ from: k.ports, clock: { now: () => at } });
    const back = usePorts(ports);
    try {
      const council = new Council(ports.spreadsheets.active()!, ZONE);
      expect(council.env().isoNow()).toBe(new Date(at).toISOString());
      const id = startDiscussion(decline('sato', 'MEDIUM'), council).discussion_id;
      const queued = readRecords(ports, 'queue');
      expect(queued.length).toBeGreaterThan(0);
      for (const r of queued) expect((r.created_at as Date).getTime()).toBe(at);
      // The tick builds its own council from the installed ports: the discussion opens on the port's day.
      runTick();
      const d = readRecords(ports, 'discussions').find((r) => r.discussion_id === id);
      if (!d) throw new Error(`no row for ${id}`);
      expect((d.created_at as Date).getTime()).toBe(at);
    } finally {
      back();
    }
  });

  it("gives a council the ports' clock unless one is handed to it", () => {
    const k = kaigi();
    const own = new Council(k.ports.spreadsheets.active()!, ZONE, { now: () => 42 });
    expect(own.now()).toBe(42);
    expect(k.council().now()).toBe(Date.now());
  });
});
