// Which clock a runtime runs on: the simulated one a project saves (real time plus an offset that `kaigi run` moves
// forward), or real time (`kaigi serve` and the other commands), with the saved offset kept for the next simulation.
import type { Clock } from './host/clock.js';

// 'simulated': the saved offset applies and whatever moves the clock is saved. 'real': the host's wall clock; the
// saved offset is kept as it was, and the trigger times a save writes stay on the simulated clock's time.
export type ClockMode = 'simulated' | 'real';

export class SavedClock {
  // The simulation's offset while the runtime runs on real time.
  private kept = 0;

  constructor(
    readonly mode: ClockMode,
    private readonly live: Clock,
  ) {}

  // The offset a save writes and the journal records: the simulation's, whichever clock runs.
  offset(): number {
    return this.mode === 'simulated' ? this.live.getOffset() : this.kept;
  }

  // The sidecar's offset, on opening: a simulated clock already set later (RuntimeOptions.startAt) stays there.
  open(ms: number): void {
    if (this.mode === 'simulated') this.live.setOffset(Math.max(this.live.getOffset(), ms));
    else this.kept = ms;
  }

  // A journal record's offset, replayed: the simulation's clock as it was when the record was written.
  replay(ms: number): void {
    if (this.mode === 'simulated') this.live.setOffset(ms);
    else this.kept = ms;
  }

  // What to add to a time on the running clock to have it on the saved one (trigger times are saved on it): 0 unless
  // real time runs while a simulation's offset is kept.
  toSaved(): number {
    return this.mode === 'real' ? this.kept - this.live.getOffset() : 0;
  }
}
