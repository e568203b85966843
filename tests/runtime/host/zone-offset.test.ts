// The runtime's zone offsets, kept by the hour, agree with Intl at every quarter hour around DST changes, including
// a zone that changes on the half hour (Lord Howe) and one whose offset is not whole hours (Kathmandu).
import { describe, expect, it } from 'vitest';
import { coerceInput, epochToWall, wallToEpoch, zoneOffsetMinutes } from '../../../runtime/host/values.js';

// The offset Intl gives, computed here apart from the runtime's code.
function intlOffset(epochMs: number, timeZone: string): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(epochMs)).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((wall - Math.floor(epochMs / 1000) * 1000) / 60000);
}

const DAYS: [string, string][] = [
  ['America/New_York', '2026-03-08'],
  ['America/New_York', '2026-11-01'],
  ['Europe/London', '2026-03-29'],
  ['Australia/Lord_Howe', '2026-04-05'],
  ['Australia/Lord_Howe', '2026-10-04'],
  ['Asia/Kathmandu', '2026-01-15'],
  ['Asia/Tokyo', '2026-01-15'],
];

describe('zoneOffsetMinutes', () => {
  it('agrees with Intl every 15 minutes (and a minute either side of each) over two days around each change', () => {
    for (const [zone, day] of DAYS) {
      const from = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
      for (let t = from; t < from + 2 * 86_400_000; t += 15 * 60_000)
        for (const at of [t - 60_000, t, t + 60_000, t + 59_999])
          expect(zoneOffsetMinutes(at, zone), `${zone} ${new Date(at).toISOString()}`).toBe(intlOffset(at, zone));
    }
  });

  it('stores a written date as its wall clock read back, the short way when no change is near, the same instant', () => {
    for (const [zone, day] of DAYS) {
      const from = Date.parse(`${day}T00:00:00Z`) - 2 * 86_400_000;
      for (let t = from; t < from + 4 * 86_400_000; t += 7 * 60_000 + 1_234) {
        const whole = Math.floor(t / 1000) * 1000;
        const slow = wallToEpoch(epochToWall(whole, zone), zone);
        expect((coerceInput(new Date(t), '', zone).v as Date).getTime(), `${zone} ${new Date(t).toISOString()}`).toBe(
          slow,
        );
      }
    }
  });
});
