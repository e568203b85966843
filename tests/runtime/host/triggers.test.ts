// The host's trigger store moved between clocks: a daily trigger comes back on its hour, due or not as it was.
import { describe, expect, it } from 'vitest';
import { TriggerStore } from '../../../runtime/host/triggers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const tokyo = () => 9 * HOUR;
const tokyoHour = (t: number) => new Date(t + 9 * HOUR).getUTCHours();

describe('TriggerStore.rebase', () => {
  // Set a week and a bit ahead on a simulated clock, then opened on real time at every half hour of a day.
  const ahead = 7 * DAY + 5 * HOUR + 17 * MINUTE;
  const base = Date.UTC(2026, 10, 26, 0, 0);
  for (let k = 0; k < 48; k++) {
    const now = base + k * 30 * MINUTE;
    it(`keeps a daily trigger that was not due within the next day, on its hour (real time ${new Date(now).toISOString().slice(11, 16)} UTC)`, () => {
      const store = new TriggerStore();
      store.create(
        { handler: 'dailyReview', eventType: 'CLOCK', source: 'CLOCK', everyMs: DAY, atHour: 6 },
        'owner',
        now + ahead,
        tokyo,
      );
      store.rebase(-ahead, now, tokyo);
      const t = store.triggers[0];
      expect(tokyoHour(t.slotAt!)).toBe(6);
      expect(t.slotAt! - now).toBeGreaterThan(0);
      expect(t.slotAt! - now).toBeLessThanOrEqual(DAY);
    });
  }

  it('keeps one that was due, due, on the last of its hours', () => {
    const store = new TriggerStore();
    const set = Date.UTC(2026, 10, 20, 0, 0);
    store.create(
      { handler: 'dailyReview', eventType: 'CLOCK', source: 'CLOCK', everyMs: DAY, atHour: 6 },
      'o',
      set,
      tokyo,
    );
    // Saved at a simulated time past its slot, unfired, then opened on real time a week earlier.
    const slot = store.triggers[0].slotAt!;
    const now = slot + 3 * HOUR - ahead;
    store.rebase(-ahead, now, tokyo);
    const t = store.triggers[0];
    expect(tokyoHour(t.slotAt!)).toBe(6);
    expect(t.slotAt!).toBeLessThanOrEqual(now);
    expect(now - t.slotAt!).toBeLessThan(DAY);
  });
});
