// Executions in worker threads: a fresh V8 context each, service calls answered over a port, time limits enforced.
import { chargeSentWrites } from './host/write-cost.js';
import path from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { ExecutionError, ExecutionKind, ExecutionResult, RunOptions } from './execution-types.js';
import { decode, encode } from './gas/bridge.js';
import type { Clock } from './host/clock.js';
import { dispatch, newCounts, type ExecContext, type HostState } from './host/dispatch.js';
import type { LockManager } from './host/locks.js';
import { ExecClock } from './host/time-model.js';
import { WriteBuffer } from './host/write-buffer.js';

// The longest a closing pool waits for a thread to finish writing a larger code cache (close).
const GROW_WAIT_MS = 2000;

// What the pool needs from the runtime that owns it.
export interface PoolHost {
  readonly clock: Clock;
  readonly locks: LockManager;
  readonly codePath: string;
  // The project's HTML files as JSON, given to each thread once (gas/bridge.ts Bridge.files).
  readonly filesJson: string;
  // The only names an execution may start (the build's entry-points.json).
  readonly entryPoints: readonly string[];
  // `kaigi serve` runs on real time; elsewhere the runtime's clock catches up with each execution's end (clock.ts).
  readonly realTime: boolean;
  hostState(): HostState;
  recordLog(execId: number, level: string, text: string): void;
  recordExecution(result: ExecutionResult): void;
}

export interface StartRequest {
  fn: string;
  args: unknown[];
  kind: ExecutionKind;
  user: string;
  owner: string;
  opts: RunOptions;
  limitMs: number;
  // The execution's ExecInfo (gas/bridge.ts) as JSON.
  info: string;
}

// What a worker posts on its parent port; service calls travel on the slot's own port (see worker.ts).
type WorkerMessage =
  | { type: 'log'; execId: number; level: string; text: string }
  | { type: 'slept'; execId: number; ms: number }
  | { type: 'done'; execId: number; result?: string; error?: ExecutionError }
  // The worker has the next execution's context loaded (worker.ts preload).
  | { type: 'ready' };

// A service call's name and its encoded arguments; `__fatal` is the worker saying the execution is over.
interface PortMessage {
  op: string;
  args: string;
}

interface Slot {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  // 1 while the thread checks for, or writes, a larger code cache after an execution (worker.ts, code-cache.ts).
  growing: Int32Array;
  busy: boolean;
  // Its next context is loaded: an execution started on it runs its first line at once.
  ready: boolean;
  current?: Running;
}

interface Running {
  ex: ExecContext;
  fn: string;
  kind: ExecutionKind;
  opts: RunOptions;
  startedAt: number;
  // performance.now() at the start: the real time the execution took, beside its time on Apps Script's clock.
  realStart: number;
  sleptMs: number;
  limitMs: number;
  logs: { level: string; text: string }[];
  resolve: (r: ExecutionResult) => void;
  settled: boolean;
  watchdog?: NodeJS.Timeout;
}

function timedOut(message = 'Exceeded maximum execution time'): Partial<ExecutionResult> {
  return { ok: false, timedOut: true, error: { name: 'Exception', message, stack: '' } };
}

export class ExecutionPool {
  private readonly slots: Slot[] = [];
  private readonly running = new Set<Running>();
  private nextExecId = 1;

  constructor(
    private readonly host: PoolHost,
    private readonly root: string,
  ) {}

  get size(): number {
    return this.running.size;
  }

  private spawn(): Slot {
    const { port1, port2 } = new MessageChannel();
    const flagBuffer = new SharedArrayBuffer(4);
    const growBuffer = new SharedArrayBuffer(4);
    const worker = new Worker(path.join(this.root, 'dist', 'node', 'worker.js'), {
      workerData: {
        codePath: this.host.codePath,
        entryPoints: this.host.entryPoints,
        globalsPath: path.join(this.root, 'dist', 'node', 'apps-script-globals.js'),
        codeCacheDir: path.join(this.root, 'dist', 'node', 'code-cache'),
        clockBuffer: this.host.clock.buffer,
        flagBuffer,
        growBuffer,
        rpcPort: port2,
        filesJson: this.host.filesJson,
      },
      transferList: [port2],
    });
    const slot: Slot = {
      worker,
      port: port1,
      flag: new Int32Array(flagBuffer),
      growing: new Int32Array(growBuffer),
      busy: false,
      ready: false,
    };
    worker.unref();
    port1.unref();
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') {
        slot.ready = !slot.busy;
        return;
      }
      const run = slot.current;
      if (!run || run.ex.id !== m.execId) return;
      if (m.type === 'log') {
        run.logs.push({ level: m.level, text: m.text });
        this.host.recordLog(m.execId, m.level, m.text);
      } else if (m.type === 'slept') {
        run.sleptMs += m.ms;
        this.host.hostState().quota.chargeWait(run.ex, m.ms / 1000);
      } else if (m.type === 'done') {
        // Past its limit on its own clock by the time it returned: Apps Script would have ended it first.
        if (this.overdue(run)) {
          this.finish(slot, run, timedOut(), true);
          return;
        }
        const r: Partial<ExecutionResult> = m.error
          ? { ok: false, error: m.error }
          : { ok: true, ...this.describe(m.result!) };
        this.finish(slot, run, this.sendHeldWrites(run, r));
      }
    });
    worker.on('error', (e) => {
      const run = slot.current;
      if (run)
        this.finish(
          slot,
          run,
          { ok: false, error: { name: 'Error', message: `execution host failed: ${e.message}`, stack: e.stack ?? '' } },
          true,
        );
    });
    port1.on('message', (m: PortMessage) => {
      const run = slot.current;
      if (run) void this.serve(slot, run, m.op, m.args);
    });
    this.slots.push(slot);
    return slot;
  }

  private describe(result: string): Partial<ExecutionResult> {
    const d = JSON.parse(result);
    if (d.kind === 'data') return { value: d.undefined ? undefined : decode(JSON.stringify(d.value)), plain: d.plain };
    return { output: { kind: d.kind, mimeType: d.mimeType, content: d.content, title: d.title } };
  }

  // One service call: the limits and the test hooks first, then the host's answer, then wake the worker.
  private async serve(slot: Slot, run: Running, op: string, args: string): Promise<void> {
    if (op === '__fatal') {
      this.finish(slot, run, timedOut(args), true);
      return;
    }
    const n = run.ex.counts.calls + 1;
    const killed = (message: string) =>
      this.finish(slot, run, { ok: false, killed: true, error: { name: 'Killed', message, stack: '' } }, true);
    if (run.opts.killAtCall !== undefined && n >= run.opts.killAtCall) {
      killed(`execution killed at service call ${n} (${op})`);
      return;
    }
    try {
      run.opts.onCall?.(n, op);
    } catch (e) {
      killed(`killed by the test's onCall: ${(e as Error).message}`);
      return;
    }
    if (this.overdue(run)) {
      this.finish(slot, run, timedOut(), true);
      return;
    }
    let reply: string;
    try {
      const value = await dispatch(this.host.hostState(), run.ex, op, decode(args));
      reply = encode({ ok: value === undefined ? null : value });
    } catch (e) {
      reply = JSON.stringify({ error: { message: (e as Error).message } });
    }
    if (run.settled) return;
    slot.port.postMessage(reply);
    Atomics.store(slot.flag, 0, 1);
    Atomics.notify(slot.flag, 0);
  }

  // A thread whose next context is loaded, else one still loading it, else a new one. A worker loads its next context
  // after each execution (worker.ts), and executions often follow each other at once (a request, then the trigger it
  // set): when the only idle thread is still loading, a second one is started beside it, and the executions then take
  // turns, each starting on the thread that loaded while the other ran.
  private pick(): Slot {
    const idle = this.slots.filter((s) => !s.busy);
    const ready = idle.find((s) => s.ready);
    if (ready) return ready;
    if (idle.length === 1 && this.slots.length === 1) this.spawn();
    return idle[0] ?? this.spawn();
  }

  private overdue(run: Running, slack = 0): boolean {
    return run.ex.clock.now() - run.startedAt > run.limitMs + slack;
  }

  // An execution that ends on its own, returning or throwing, sends the writes it still holds, as Apps Script does
  // (a script that throws keeps the changes it made before the error). A write that fails now fails the execution;
  // a script error already reported stays the one reported.
  private sendHeldWrites(run: Running, r: Partial<ExecutionResult>): Partial<ExecutionResult> {
    if (run.settled) return r;
    try {
      const st = this.host.hostState();
      chargeSentWrites(st, run.ex, run.ex.writes.sendAll(st));
      return r;
    } catch (e) {
      if (!r.ok) return r;
      const err = e as Error;
      return { ok: false, error: { name: err.name || 'Exception', message: err.message, stack: err.stack ?? '' } };
    }
  }

  private finish(slot: Slot, run: Running, r: Partial<ExecutionResult>, terminate = false): void {
    if (run.settled) return;
    run.settled = true;
    // Killed, timed out or its host lost: the writes it had not sent are lost. A normal end sent
    // them already (sendHeldWrites), so there is nothing left to drop then.
    const lostWrites = run.ex.writes.drop();
    // The script's own computing counts against the trigger runtime too: the real time it took, less the real time
    // it spent waiting for answers and locks (already charged as waits).
    const realMs = performance.now() - run.realStart;
    this.host.hostState().quota.chargeWait(run.ex, Math.max(0, realMs - run.ex.counts.waitRealMs) / 1000);
    if (run.watchdog) clearInterval(run.watchdog);
    this.running.delete(run);
    this.host.locks.releaseAll(run.ex.id, run.ex.clock);
    slot.current = undefined;
    if (terminate) {
      void slot.worker.terminate();
      this.slots.splice(this.slots.indexOf(slot), 1);
    } else {
      slot.busy = false;
    }
    const result: ExecutionResult = {
      id: run.ex.id,
      fn: run.fn,
      kind: run.kind,
      ok: false,
      counts: run.ex.counts,
      startedAt: run.startedAt,
      endedAt: run.ex.clock.now(),
      modelledMs: Math.round(run.ex.clock.modelledMs),
      realMs: Math.round(realMs),
      sleptMs: run.sleptMs,
      logs: run.logs,
      ...(lostWrites > 0 ? { lostWrites } : {}),
      ...r,
    };
    if (!this.host.realTime) this.host.clock.catchUp(result.endedAt);
    this.host.recordExecution(result);
    run.resolve(result);
  }

  start(req: StartRequest): Promise<ExecutionResult> {
    const id = this.nextExecId++;
    const clock = new ExecClock(this.host.clock);
    const startedAt = clock.now();
    const ex: ExecContext = {
      id,
      user: req.user,
      owner: req.owner,
      kind: req.kind,
      counts: newCounts(),
      clock,
      writes: new WriteBuffer({ user: req.user, owner: req.owner }),
    };
    const st = this.host.hostState();
    // Loading the project and starting it take time on Apps Script's clock before the first line runs.
    const startMs = st.timeModel.draw('start', id, 0);
    // A trigger whose user has spent the day's trigger runtime does not run at all.
    const refused = st.quota.start(ex, startMs / 1000);
    if (refused !== null) {
      const result: ExecutionResult = {
        id,
        fn: req.fn,
        kind: req.kind,
        ok: false,
        error: { name: 'Exception', message: refused, stack: '' },
        counts: ex.counts,
        startedAt,
        endedAt: startedAt,
        modelledMs: 0,
        realMs: 0,
        sleptMs: 0,
        logs: [],
      };
      this.host.recordExecution(result);
      return Promise.resolve(result);
    }
    clock.spend(startMs);
    ex.counts.msByKind.start = startMs;
    const slot = this.pick();
    slot.busy = true;
    slot.ready = false;
    return new Promise((resolve) => {
      const run: Running = {
        ex,
        fn: req.fn,
        kind: req.kind,
        opts: req.opts,
        startedAt,
        realStart: performance.now(),
        sleptMs: 0,
        limitMs: req.limitMs,
        logs: [],
        resolve,
        settled: false,
      };
      // A script busy in pure computation makes no service calls; the watchdog still ends it on time.
      run.watchdog = setInterval(() => {
        if (this.overdue(run, 1000)) this.finish(slot, run, timedOut(), true);
      }, 250);
      run.watchdog.unref();
      slot.current = run;
      this.running.add(run);
      slot.worker.postMessage({
        type: 'exec',
        execId: id,
        fn: req.fn,
        code: req.opts.code,
        argsJson: encode(req.args),
        startedAt,
        execClockBuffer: clock.buffer,
        limitMs: req.limitMs,
        info: req.info,
      });
    });
  }

  // A thread still deciding whether its last execution made a larger code cache worth keeping, or writing it,
  // finishes first (a few ms, a few tens when it writes; at most GROW_WAIT_MS): a runtime closed right after a
  // discussion would otherwise never keep the functions that discussion compiled.
  async close(): Promise<void> {
    await Promise.all(
      this.slots.map(async (s) => {
        // Woken by the thread's notify when it is done (worker.ts afterExecution); at once when it is not growing.
        const wait = Atomics.waitAsync(s.growing, 0, 1, GROW_WAIT_MS);
        if (wait.async) await wait.value;
        await s.worker.terminate();
      }),
    );
    this.slots.length = 0;
  }
}
