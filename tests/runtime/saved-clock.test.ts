// The clock a project saves: a run on simulated time keeps moving it; a runtime opened on real time runs on the
// host's clock, keeps the saved offset as it was, and has the saved trigger times on its own clock (journal included).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFile, Runtime } from '../../runtime/runtime.js';
import { gas, newRuntime } from '../helpers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// A week and a bit: a run that fast-forwarded to a review date rarely lands on whole days.
const AHEAD = 7 * 24 * HOUR + 5 * HOUR + 17 * MINUTE;

type Saved = { clockOffset: number; triggers: { handler: string; nextAt: number | null; slotAt?: number }[] };
const sidecar = (file: string): Saved => JSON.parse(fs.readFileSync(projectFile(file), 'utf8'));
const byHandler = (list: Saved['triggers'], handler: string) => list.find((t) => t.handler === handler)!;
// The hour of the day in Asia/Tokyo (the script's zone, no DST).
const tokyoHour = (t: number) => new Date(t + 9 * HOUR).getUTCHours();

// A project whose simulated clock ran AHEAD, with a repeating, a daily and a one-shot trigger set on that clock.
async function fastForwarded(): Promise<{ file: string; saved: Saved }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-clock-')), 'book.xlsx');
  const rt = newRuntime();
  rt.clock.advance(AHEAD);
  await gas(
    rt,
    `ScriptApp.newTrigger('tick').timeBased().everyMinutes(10).create();
    ScriptApp.newTrigger('dailyReview').timeBased().everyDays(1).atHour(6).create();
    ScriptApp.newTrigger('kick').timeBased().after(60000).create();`,
  );
  await rt.save(file);
  return { file, saved: sidecar(file) };
}

describe('the saved clock', () => {
  it('opened on real time: the host clock runs, the offset is kept, and the triggers are due on real time', async () => {
    const { file, saved } = await fastForwarded();
    expect(saved.clockOffset).toBeGreaterThanOrEqual(AHEAD);
    const rt = await Runtime.open(file, { clock: 'real' });
    try {
      const now = Date.now();
      expect(rt.clock.getOffset()).toBe(0);
      expect(Math.abs(rt.clock.now() - now)).toBeLessThan(5000);
      expect(rt.savedClock.offset()).toBe(saved.clockOffset);
      // As far ahead of real time as they were ahead of the simulated clock, not a week later.
      const at = (h: string) => byHandler(rt.triggers.triggers, h).nextAt! - now;
      expect(at('tick')).toBeGreaterThan(8 * MINUTE);
      expect(at('tick')).toBeLessThanOrEqual(10 * MINUTE);
      expect(at('kick')).toBeGreaterThan(0);
      expect(at('kick')).toBeLessThanOrEqual(4 * MINUTE);
      // The daily one is back on its hour, within the next day.
      const daily = byHandler(rt.triggers.triggers, 'dailyReview');
      expect(tokyoHour(daily.slotAt!)).toBe(6);
      expect(daily.slotAt! - now).toBeGreaterThan(0);
      expect(daily.slotAt! - now).toBeLessThanOrEqual(24 * HOUR);
      // Saved again on real time: the same offset, the times back on the simulated clock.
      await rt.save(file);
      const again = sidecar(file);
      expect(again.clockOffset).toBe(saved.clockOffset);
      for (const h of ['tick', 'kick']) expect(byHandler(again.triggers, h)).toEqual(byHandler(saved.triggers, h));
    } finally {
      await rt.close();
    }
    // A simulated run goes on from the saved offset.
    const sim = await Runtime.open(file);
    try {
      expect(sim.clock.getOffset()).toBe(saved.clockOffset);
      expect(byHandler(sim.triggers.triggers, 'tick')).toEqual(byHandler(saved.triggers, 'tick'));
    } finally {
      await sim.close();
    }
  });

  it('journals trigger times on the simulated clock while real time runs, so either clock replays them right', async () => {
    const { file, saved } = await fastForwarded();
    const rt = await Runtime.open(file, { clock: 'real' });
    await rt.attachJournal(file);
    await gas(rt, "ScriptApp.newTrigger('watch').timeBased().everyMinutes(5).create();");
    const live = byHandler(rt.triggers.triggers, 'watch').nextAt!;
    // Not saved: the trigger is in the journal only, as after a kill of kaigi serve.
    const real = await Runtime.open(file, { clock: 'real' });
    const sim = await Runtime.open(file);
    try {
      expect(byHandler(real.triggers.triggers, 'watch').nextAt).toBe(live);
      expect(byHandler(sim.triggers.triggers, 'watch').nextAt).toBe(live + saved.clockOffset);
      expect([real.savedClock.offset(), sim.clock.getOffset()]).toEqual([saved.clockOffset, saved.clockOffset]);
    } finally {
      await Promise.all([rt.close(), real.close(), sim.close()]);
    }
  });
});
