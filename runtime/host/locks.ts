// LockService on the host: one holder per lock, FIFO waiters, real-time timeouts, released with the execution.

interface Waiter {
  exec: number;
  resolve: (ok: boolean) => void;
  timer: NodeJS.Timeout;
}

export class LockManager {
  private readonly holders = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();
  // Every grant is recorded so tests can check that holders never overlapped.
  readonly history: { key: string; exec: number; event: 'acquire' | 'release'; at: number }[] = [];

  acquire(key: string, exec: number, timeoutMs: number): Promise<boolean> {
    const holder = this.holders.get(key);
    if (holder === undefined || holder === exec) {
      if (holder === undefined) this.grant(key, exec);
      return Promise.resolve(true);
    }
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      const waiter: Waiter = {
        exec,
        resolve,
        timer: setTimeout(() => {
          const l = this.waiters.get(key) ?? [];
          const i = l.indexOf(waiter);
          if (i >= 0) l.splice(i, 1);
          resolve(false);
        }, timeoutMs),
      };
      list.push(waiter);
      this.waiters.set(key, list);
    });
  }

  private grant(key: string, exec: number): void {
    this.holders.set(key, exec);
    this.history.push({ key, exec, event: 'acquire', at: Date.now() });
  }

  holds(key: string, exec: number): boolean {
    return this.holders.get(key) === exec;
  }

  holder(key: string): number | undefined {
    return this.holders.get(key);
  }

  release(key: string, exec: number): void {
    if (this.holders.get(key) !== exec) return;
    this.holders.delete(key);
    this.history.push({ key, exec, event: 'release', at: Date.now() });
    const next = this.waiters.get(key)?.shift();
    if (next) {
      clearTimeout(next.timer);
      this.grant(key, next.exec);
      next.resolve(true);
    }
  }

  // An execution that ends, however it ends, gives up its locks and stops waiting.
  releaseAll(exec: number): void {
    for (const [key, holder] of [...this.holders]) if (holder === exec) this.release(key, exec);
    for (const list of this.waiters.values()) {
      for (const w of list.filter((x) => x.exec === exec)) {
        clearTimeout(w.timer);
        list.splice(list.indexOf(w), 1);
      }
    }
  }
}
