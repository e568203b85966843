// LockService on the host: one holder per lock, waiters served first come first served or (seeded) in random
// order, waits and timeouts on the executions' own clocks.
import type { ExecClock } from './time-model.js';

interface Waiter {
  exec: number;
  clock: ExecClock;
  // The waiter's clock when it asked, and how long it will wait.
  since: number;
  timeoutMs: number;
  resolve: (ok: boolean) => void;
  timer: NodeJS.Timeout;
}

// Executions run on their own clocks (time-model.ts): one that spent 20 modelled seconds holding a lock released it
// 20 s after it took it, although only milliseconds passed here. So each hold is kept as a span on the holders'
// clocks, and a caller whose clock reads inside one waits for its end (and past any span that follows without a
// gap), or gives up at its timeout. A tick that committed three times over a minute held the lock three times,
// not for the minute. Waiting for a holder that is still running works the same way once it releases; a real-time
// timer is the backstop for a holder that never does.
export class LockManager {
  private readonly holders = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();
  // Each lock's recent holds, [from, to] on the holders' clocks, and when the current holder took it.
  private readonly spans = new Map<string, [number, number][]>();
  private readonly since = new Map<string, number>();
  // Every grant is recorded so tests can check that holders never overlapped.
  // `at` is real time; `clock` the execution's own (time-model.ts), where holds have their Apps Script length.
  readonly history: { key: string; exec: number; event: 'acquire' | 'release'; at: number; clock: number }[] = [];
  // Google does not say in which order waiters get a released lock. 'fifo' is the kind reading; 'random' (seeded)
  // is the one the load bench also runs, so no conclusion rests on a fair queue.
  order: 'fifo' | 'random' = 'fifo';
  private seed = 1;
  private draws = 0;

  randomOrder(seed: number): void {
    this.order = 'random';
    this.seed = seed;
  }

  // The index of the waiter served next.
  private pick(n: number): number {
    if (this.order === 'fifo' || n <= 1) return 0;
    let t = (this.seed ^ Math.imul(++this.draws, 0x85ebca6b)) >>> 0;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  }

  acquire(key: string, exec: number, timeoutMs: number, clock: ExecClock): Promise<boolean> {
    const holder = this.holders.get(key);
    if (holder === exec) return Promise.resolve(true);
    if (holder === undefined) return Promise.resolve(this.takeFree(key, exec, timeoutMs, clock));
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      const since = clock.now();
      const waiter: Waiter = {
        exec,
        clock,
        since,
        timeoutMs,
        resolve,
        timer: setTimeout(() => {
          const l = this.waiters.get(key) ?? [];
          const i = l.indexOf(waiter);
          if (i >= 0) l.splice(i, 1);
          clock.waitUntil(since + timeoutMs);
          resolve(false);
        }, timeoutMs),
      };
      list.push(waiter);
      this.waiters.set(key, list);
    });
  }

  // A lock no one holds now: taken at once if no earlier hold spans the caller's clock, else once the holds it falls
  // in have ended, unless that comes after its timeout.
  private takeFree(key: string, exec: number, timeoutMs: number, clock: ExecClock): boolean {
    const since = clock.now();
    const free = this.freeFrom(key, since);
    if (free > since + Math.max(0, timeoutMs)) {
      clock.waitUntil(since + Math.max(0, timeoutMs));
      return false;
    }
    clock.waitUntil(free);
    this.grant(key, exec, clock);
    return true;
  }

  // The first time at or after `t` that no recorded hold spans.
  private freeFrom(key: string, t: number): number {
    const spans = this.spans.get(key) ?? [];
    for (let moved = true; moved; ) {
      moved = false;
      for (const [from, to] of spans)
        if (from <= t && t < to) {
          t = to;
          moved = true;
        }
    }
    return t;
  }

  private grant(key: string, exec: number, clock: ExecClock): void {
    this.holders.set(key, exec);
    this.since.set(key, clock.now());
    this.history.push({ key, exec, event: 'acquire', at: Date.now(), clock: clock.now() });
  }

  holds(key: string, exec: number): boolean {
    return this.holders.get(key) === exec;
  }

  holder(key: string): number | undefined {
    return this.holders.get(key);
  }

  // A restored snapshot (Runtime.restore) turns the clock back: later release times no longer hold.
  forgetReleases(): void {
    this.spans.clear();
  }

  // How many executions wait for the lock now.
  waiting(key: string): number {
    return this.waiters.get(key)?.length ?? 0;
  }

  release(key: string, exec: number, clock: ExecClock): void {
    if (this.holders.get(key) !== exec) return;
    this.holders.delete(key);
    const at = clock.now();
    const spans = this.spans.get(key) ?? [];
    spans.push([Math.min(this.since.get(key) ?? at, at), at]);
    // Holds long past matter to no caller: a caller's clock is never hours behind the holders'.
    while (spans.length > 500) spans.shift();
    this.spans.set(key, spans);
    this.history.push({ key, exec, event: 'release', at: Date.now(), clock: at });
    const list = this.waiters.get(key) ?? [];
    for (let next = list.splice(this.pick(list.length), 1)[0]; next; next = list.splice(this.pick(list.length), 1)[0]) {
      clearTimeout(next.timer);
      // Free only after this waiter's timeout on its own clock: it had given up by then.
      const free = this.freeFrom(key, Math.max(at, next.since));
      if (free > next.since + next.timeoutMs) {
        next.clock.waitUntil(next.since + next.timeoutMs);
        next.resolve(false);
        continue;
      }
      next.clock.waitUntil(free);
      this.grant(key, next.exec, next.clock);
      next.resolve(true);
      return;
    }
  }

  // An execution that ends, however it ends, gives up its locks and stops waiting.
  releaseAll(exec: number, clock: ExecClock): void {
    for (const [key, holder] of [...this.holders]) if (holder === exec) this.release(key, exec, clock);
    for (const list of this.waiters.values()) {
      for (const w of list.filter((x) => x.exec === exec)) {
        clearTimeout(w.timer);
        list.splice(list.indexOf(w), 1);
      }
    }
  }
}
