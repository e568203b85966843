// LockService on the host: one holder per lock, FIFO waiters, waits and timeouts on the executions' own clocks.
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
// 20 s after it took it, although only milliseconds passed here. So a lock is free for a caller only from the time
// on the releaser's clock; a caller whose clock reads earlier waits until then, or gives up at its timeout. Waiting
// for a holder that is still running works the same way once it releases; a real-time timer is the backstop for a
// holder that never does.
export class LockManager {
  private readonly holders = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();
  // When each lock was last released, on the releasing execution's clock.
  private readonly freeAt = new Map<string, number>();
  // Every grant is recorded so tests can check that holders never overlapped.
  // `at` is real time; `clock` the execution's own (time-model.ts), where holds have their Apps Script length.
  readonly history: { key: string; exec: number; event: 'acquire' | 'release'; at: number; clock: number }[] = [];

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

  // A lock no one holds now: taken at once if it was released before the caller's clock, else after a wait.
  private takeFree(key: string, exec: number, timeoutMs: number, clock: ExecClock): boolean {
    const free = this.freeAt.get(key) ?? Number.NEGATIVE_INFINITY;
    const since = clock.now();
    if (free > since + Math.max(0, timeoutMs)) {
      clock.waitUntil(since + Math.max(0, timeoutMs));
      return false;
    }
    clock.waitUntil(free);
    this.grant(key, exec, clock);
    return true;
  }

  private grant(key: string, exec: number, clock: ExecClock): void {
    this.holders.set(key, exec);
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
    this.freeAt.clear();
  }

  // How many executions wait for the lock now.
  waiting(key: string): number {
    return this.waiters.get(key)?.length ?? 0;
  }

  release(key: string, exec: number, clock: ExecClock): void {
    if (this.holders.get(key) !== exec) return;
    this.holders.delete(key);
    const at = Math.max(this.freeAt.get(key) ?? Number.NEGATIVE_INFINITY, clock.now());
    this.freeAt.set(key, at);
    this.history.push({ key, exec, event: 'release', at: Date.now(), clock: at });
    const list = this.waiters.get(key) ?? [];
    for (let next = list.shift(); next; next = list.shift()) {
      clearTimeout(next.timer);
      // Released after this waiter's timeout on its own clock: it had given up by then.
      if (at > next.since + next.timeoutMs) {
        next.clock.waitUntil(next.since + next.timeoutMs);
        next.resolve(false);
        continue;
      }
      next.clock.waitUntil(at);
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
