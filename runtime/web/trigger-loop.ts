// Triggers on the real clock while `kaigi serve` runs: every interval, the clock triggers that are due fire; one
// round at a time, which lasts until the wall clock reaches its executions' ends on their modelled clocks; each
// execution is reported in a line (handler, time, error), a failing one is never fatal.
import type { Runtime } from '../runtime.js';

export class TriggerLoop {
  // Trigger executions that have ended, for a caller that saves when something ran.
  executions = 0;
  private timer?: NodeJS.Timeout;
  private round: Promise<void> | null = null;

  constructor(
    private readonly rt: Runtime,
    private readonly log: (text: string) => void,
    private readonly everyMs = 1000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A round still firing (a long tick) is not joined by a second one.
      if (!this.round) this.round = this.fire().finally(() => (this.round = null));
    }, this.everyMs);
  }

  // No new round starts; the one under way, if any, ends first.
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.round;
  }

  private async fire(): Promise<void> {
    let end = 0;
    try {
      for (const r of await this.rt.fireDueTriggers()) {
        end = Math.max(end, r.endedAt);
        this.executions++;
        const ms = r.endedAt - r.startedAt;
        this.log(
          r.ok
            ? `trigger ${r.fn} ran (${ms} ms)`
            : `trigger ${r.fn} failed (${ms} ms): ${r.error?.name}: ${r.error?.message}`,
        );
      }
    } catch (e) {
      // The runtime refused to start one (30 executions at once already): Apps Script skips that firing too.
      this.executions++;
      this.log(`a trigger did not start: ${(e as Error).message}`);
    }
    await this.untilWallClock(end);
  }

  // A tick that took 20 s on Apps Script's clock (runtime/host/time-model.ts) ran for 20 s: the next round waits for
  // the wall clock to get there, so trigger executions do not pile their lock holds up ahead of the web requests,
  // which are answered at their own ends (exec.ts). Stopping the loop ends the wait.
  private async untilWallClock(end: number): Promise<void> {
    while (this.timer && this.rt.clock.now() < end)
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, end - this.rt.clock.now())));
  }
}
