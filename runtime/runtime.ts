// The local Apps Script runtime: executions in worker threads over shared state, triggers on a clock.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { decode, encode } from './gas/bridge.js';
import { CacheStore, type Entry as CacheEntry } from './host/cache-store.js';
import { Clock } from './host/clock.js';
import {
  count,
  dispatch,
  newCounts,
  type ExecCounts,
  type ExecContext,
  type HostState,
  type UiRecord,
} from './host/dispatch.js';
import { LockManager } from './host/locks.js';
import { PropertyStore } from './host/properties-store.js';
import { TriggerStore, type TriggerModel } from './host/triggers.js';
import { Workbook } from './host/workbook.js';
import { loadXlsx, saveXlsx } from './host/xlsx.js';

export type ExecutionKind = 'trigger' | 'simple' | 'menu' | 'server' | 'webapp' | 'editor';

export interface RunOptions {
  kind?: ExecutionKind;
  user?: string;
  // The execution dies just before its N-th service call reaches the host (1-based).
  killAtCall?: number;
  // Called before each service call is carried out; tests use it to move the clock mid-execution.
  onCall?: (n: number, op: string) => void;
  // Runs this source as a function body in the loaded project instead of a named function (tests only).
  code?: string;
}

export interface ExecutionResult {
  id: number;
  fn: string;
  kind: ExecutionKind;
  ok: boolean;
  value?: unknown;
  output?: { kind: 'text' | 'html'; mimeType: string; content: string; title?: string };
  plain?: boolean;
  error?: { name: string; message: string; stack: string };
  killed?: boolean;
  timedOut?: boolean;
  counts: ExecCounts;
  startedAt: number;
  endedAt: number;
  logs: { level: string; text: string }[];
}

export interface RuntimeOptions {
  root?: string;
  workbook?: Workbook;
  owner?: string;
  executionLimitMs?: number;
  fetchTimeoutMs?: number;
  echoLogs?: boolean;
  scriptProperties?: Record<string, string>;
  // Sets the clock so that "now" starts at this instant (epoch ms); time then runs on from there.
  startAt?: number;
  // Script properties for this process only (API keys from the environment): visible to executions, never saved.
  secrets?: Record<string, string>;
}

export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
export const SIMPLE_TRIGGER_LIMIT_MS = 30 * 1000;
export const MAX_CONCURRENT_EXECUTIONS = 30;
export const MAX_CONCURRENT_SERVER_CALLS = 10;

interface Slot {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  busy: boolean;
  current?: Running;
}

interface Running {
  ex: ExecContext;
  fn: string;
  kind: ExecutionKind;
  opts: RunOptions;
  startedAt: number;
  limitMs: number;
  logs: { level: string; text: string }[];
  resolve: (r: ExecutionResult) => void;
  settled: boolean;
  watchdog?: NodeJS.Timeout;
}

export function findRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'kaigi') return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the kaigi project root');
    dir = up;
  }
}

export interface RuntimeSnapshot {
  workbook: Workbook;
  script: Record<string, string>;
  document: Record<string, string>;
  triggers: TriggerModel[];
  clockOffset: number;
  caches: [string, [string, CacheEntry][]][];
}

export function projectFile(workbookFile: string): string {
  return `${workbookFile}.project.json`;
}

export class Runtime {
  readonly clock = new Clock();
  readonly locks = new LockManager();
  readonly triggers = new TriggerStore();
  readonly scriptProperties = new PropertyStore();
  readonly documentProperties = new PropertyStore();
  readonly userPropertyStores = new Map<string, PropertyStore>();
  readonly caches = new Map<string, CacheStore>();
  readonly ui: UiRecord = { menus: [], sidebars: [], dialogs: [], alerts: [], toasts: [], responses: [] };
  readonly executions: ExecutionResult[] = [];
  readonly logs: { execId: number; level: string; text: string }[] = [];
  readonly owner: string;
  readonly manifest: { timeZone: string; oauthScopes: string[]; webapp?: unknown };
  readonly files: Record<string, string>;
  workbook: Workbook;
  private readonly root: string;
  private readonly slots: Slot[] = [];
  private readonly running = new Set<Running>();
  private nextExecId = 1;
  private serverCalls = 0;
  private readonly secretKeys: string[];
  executionLimitMs: number;
  fetchTimeoutMs: number;
  echoLogs: boolean;

  constructor(opts: RuntimeOptions = {}) {
    this.root = opts.root ?? findRoot();
    const gasDir = path.join(this.root, 'dist', 'gas');
    this.manifest = JSON.parse(fs.readFileSync(path.join(gasDir, 'appsscript.json'), 'utf8'));
    this.files = {};
    for (const f of fs.readdirSync(gasDir))
      if (f.endsWith('.html')) this.files[f.replace(/\.html$/, '')] = fs.readFileSync(path.join(gasDir, f), 'utf8');
    this.owner = opts.owner ?? 'owner@example.com';
    this.workbook = opts.workbook ?? Workbook.create({ timeZone: this.manifest.timeZone });
    this.executionLimitMs = opts.executionLimitMs ?? EXECUTION_LIMIT_MS;
    this.fetchTimeoutMs = opts.fetchTimeoutMs ?? 60_000;
    this.echoLogs = opts.echoLogs ?? false;
    if (opts.scriptProperties) this.scriptProperties.set(opts.scriptProperties);
    if (opts.startAt !== undefined) this.clock.setOffset(opts.startAt - Date.now());
    this.secretKeys = Object.keys(opts.secrets ?? {});
    if (opts.secrets) this.scriptProperties.set(opts.secrets);
  }

  get codePath(): string {
    return path.join(this.root, 'dist', 'gas', 'Code.js');
  }

  private state(): HostState {
    return {
      workbook: this.workbook,
      clock: this.clock,
      locks: this.locks,
      triggers: this.triggers,
      scriptProperties: this.scriptProperties,
      documentProperties: this.documentProperties,
      userProperties: (user) => {
        let s = this.userPropertyStores.get(user);
        if (!s) this.userPropertyStores.set(user, (s = new PropertyStore()));
        return s;
      },
      cache: (scope, user) => {
        const key = scope === 'user' ? `user:${user}` : scope;
        let c = this.caches.get(key);
        if (!c) this.caches.set(key, (c = new CacheStore(() => this.clock.now())));
        return c;
      },
      ui: this.ui,
      fetchTimeoutMs: this.fetchTimeoutMs,
      timeZone: this.manifest.timeZone,
    };
  }

  private spawn(): Slot {
    const { port1, port2 } = new MessageChannel();
    const flagBuffer = new SharedArrayBuffer(4);
    const worker = new Worker(path.join(this.root, 'dist', 'node', 'worker.js'), {
      workerData: {
        codePath: this.codePath,
        globalsPath: path.join(this.root, 'dist', 'node', 'apps-script-globals.js'),
        clockBuffer: this.clock.buffer,
        flagBuffer,
        rpcPort: port2,
      },
      transferList: [port2],
    });
    const slot: Slot = { worker, port: port1, flag: new Int32Array(flagBuffer), busy: false };
    worker.unref();
    port1.unref();
    worker.on(
      'message',
      (m: {
        type: string;
        execId: number;
        level?: string;
        text?: string;
        result?: string;
        error?: ExecutionResult['error'];
      }) => {
        const run = slot.current;
        if (!run || run.ex.id !== m.execId) return;
        if (m.type === 'log') {
          run.logs.push({ level: m.level!, text: m.text! });
          this.logs.push({ execId: m.execId, level: m.level!, text: m.text! });
          if (this.echoLogs) process.stderr.write(`[${m.level}] ${m.text}\n`);
        } else if (m.type === 'done') {
          this.finish(slot, run, m.error ? { ok: false, error: m.error } : { ok: true, ...this.describe(m.result!) });
        }
      },
    );
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
    port1.on('message', (m: { op: string; args: string }) => {
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

  private async serve(slot: Slot, run: Running, op: string, args: string): Promise<void> {
    if (op === '__fatal') {
      this.finish(
        slot,
        run,
        { ok: false, timedOut: true, error: { name: 'Exception', message: args, stack: '' } },
        true,
      );
      return;
    }
    const n = run.ex.counts.calls + 1;
    if (run.opts.killAtCall !== undefined && n >= run.opts.killAtCall) {
      this.finish(
        slot,
        run,
        {
          ok: false,
          killed: true,
          error: { name: 'Killed', message: `execution killed at service call ${n} (${op})`, stack: '' },
        },
        true,
      );
      return;
    }
    try {
      run.opts.onCall?.(n, op);
    } catch (e) {
      this.finish(
        slot,
        run,
        {
          ok: false,
          killed: true,
          error: { name: 'Killed', message: `killed by the test's onCall: ${(e as Error).message}`, stack: '' },
        },
        true,
      );
      return;
    }
    if (this.clock.now() - run.startedAt > run.limitMs) {
      this.finish(
        slot,
        run,
        {
          ok: false,
          timedOut: true,
          error: { name: 'Exception', message: 'Exceeded maximum execution time', stack: '' },
        },
        true,
      );
      return;
    }
    let reply: string;
    try {
      const a = decode(args) as Record<string, unknown>;
      count(run.ex.counts, op, op === 'fetch' ? (a.requests as unknown[]).length : 1);
      const value = await dispatch(this.state(), run.ex, op, a);
      reply = encode({ ok: value === undefined ? null : value });
    } catch (e) {
      reply = JSON.stringify({ error: { message: (e as Error).message } });
    }
    if (run.settled) return;
    slot.port.postMessage(reply);
    Atomics.store(slot.flag, 0, 1);
    Atomics.notify(slot.flag, 0);
  }

  private finish(slot: Slot, run: Running, r: Partial<ExecutionResult>, terminate = false): void {
    if (run.settled) return;
    run.settled = true;
    if (run.watchdog) clearInterval(run.watchdog);
    this.running.delete(run);
    this.locks.releaseAll(run.ex.id);
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
      endedAt: this.clock.now(),
      logs: run.logs,
      ...r,
    };
    this.executions.push(result);
    run.resolve(result);
  }

  // One execution of a top-level function of the built file, as Apps Script would start it.
  run(fn: string, args: unknown[] = [], opts: RunOptions = {}): Promise<ExecutionResult> {
    const kind = opts.kind ?? 'editor';
    if (this.running.size >= MAX_CONCURRENT_EXECUTIONS) {
      return Promise.reject(
        new Error('There are too many scripts running simultaneously for this Google user account.'),
      );
    }
    const slot = this.slots.find((s) => !s.busy) ?? this.spawn();
    slot.busy = true;
    const id = this.nextExecId++;
    const user = opts.user ?? (kind === 'trigger' || kind === 'webapp' ? '' : this.owner);
    const startedAt = this.clock.now();
    const limitMs =
      kind === 'simple' ? Math.min(SIMPLE_TRIGGER_LIMIT_MS, this.executionLimitMs) : this.executionLimitMs;
    const info = JSON.stringify({
      kind,
      user,
      effectiveUser: this.owner,
      timeZone: this.manifest.timeZone,
      locale: this.workbook.locale,
      scopes: this.manifest.oauthScopes,
      files: this.files,
      spreadsheetId: this.workbook.id,
      scriptId: 'local-script-id',
      webAppUrl: 'https://script.google.com/macros/s/local-deployment/exec',
    });
    return new Promise((resolve) => {
      const run: Running = {
        ex: { id, user, owner: this.owner, kind, counts: newCounts() },
        fn,
        kind,
        opts,
        startedAt,
        limitMs,
        logs: [],
        resolve,
        settled: false,
      };
      // A script busy in pure computation makes no service calls; the watchdog still ends it on time.
      run.watchdog = setInterval(() => {
        if (this.clock.now() - startedAt > limitMs + 1000) {
          this.finish(
            slot,
            run,
            {
              ok: false,
              timedOut: true,
              error: { name: 'Exception', message: 'Exceeded maximum execution time', stack: '' },
            },
            true,
          );
        }
      }, 250);
      run.watchdog.unref();
      slot.current = run;
      this.running.add(run);
      slot.worker.postMessage({
        type: 'exec',
        execId: id,
        fn,
        code: opts.code,
        argsJson: encode(args),
        startedAt,
        limitMs,
        info,
      });
    });
  }

  // Opening the spreadsheet: the simple onOpen trigger, then installable on-open triggers.
  async open(): Promise<ExecutionResult[]> {
    const out = [
      await this.run('onOpen', [{ authMode: 'LIMITED', source: null, user: this.owner }], { kind: 'simple' }),
    ];
    for (const t of this.triggers.triggers.filter((x) => x.eventType === 'ON_OPEN')) {
      out.push(
        await this.run(t.handler, [{ authMode: 'FULL', triggerUid: t.uid }], { kind: 'trigger', user: this.owner }),
      );
    }
    return out;
  }

  // Runs a snippet of Apps Script code as one execution (used by the runtime's own conformance tests).
  evaluate(code: string, opts: RunOptions = {}): Promise<ExecutionResult> {
    return this.run('<snippet>', [], { ...opts, code });
  }

  // google.script.run: plain data in, plain data out, at most 10 at once, no private functions.
  async callServer(fn: string, ...args: unknown[]): Promise<unknown> {
    if (fn.endsWith('_')) throw new Error(`Script function not found: ${fn}`);
    const plain = (v: unknown): boolean =>
      v === null ||
      ['string', 'number', 'boolean', 'undefined'].includes(typeof v) ||
      (Array.isArray(v)
        ? v.every(plain)
        : typeof v === 'object' &&
          Object.getPrototypeOf(v) === Object.prototype &&
          Object.values(v as object).every(plain));
    if (!args.every(plain))
      throw new Error(
        'Failed due to illegal value in argument: only primitives, arrays and plain objects may be passed.',
      );
    if (this.serverCalls >= MAX_CONCURRENT_SERVER_CALLS)
      throw new Error('Too many concurrent google.script.run calls (at most 10).');
    this.serverCalls++;
    try {
      const r = await this.run(fn, args, { kind: 'server' });
      if (!r.ok) throw Object.assign(new Error(r.error!.message), { name: r.error!.name });
      if (r.plain === false)
        throw new Error(
          'Failed due to illegal value in the return value: only primitives, arrays and plain objects may be returned.',
        );
      return r.value;
    } finally {
      this.serverCalls--;
    }
  }

  private webEvent(parameters: Record<string, string | string[]>, body?: { contents: string; type: string }) {
    const parameter: Record<string, string> = {};
    const params: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(parameters)) {
      params[k] = Array.isArray(v) ? v : [v];
      parameter[k] = params[k][0];
    }
    const queryString = Object.entries(params)
      .flatMap(([k, vs]) => vs.map((v) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
      .join('&');
    const e: Record<string, unknown> = {
      parameter,
      parameters: params,
      queryString,
      contextPath: '',
      contentLength: body ? Buffer.byteLength(body.contents) : -1,
    };
    if (body)
      e.postData = {
        contents: body.contents,
        length: Buffer.byteLength(body.contents),
        type: body.type,
        name: 'postData',
      };
    return e;
  }

  // A web-app request; Apps Script always answers 200, so only the body carries the outcome.
  async doGet(
    parameters: Record<string, string | string[]> = {},
  ): Promise<{ status: 200; mimeType: string; body: string; result: ExecutionResult }> {
    return this.web('doGet', this.webEvent(parameters));
  }

  async doPost(
    parameters: Record<string, string | string[]>,
    contents: string,
    type = 'application/json',
  ): Promise<{ status: 200; mimeType: string; body: string; result: ExecutionResult }> {
    return this.web('doPost', this.webEvent(parameters, { contents, type }));
  }

  private async web(fn: string, e: unknown) {
    const result = await this.run(fn, [e], { kind: 'webapp' });
    if (result.ok && result.output)
      return { status: 200 as const, mimeType: result.output.mimeType, body: result.output.content, result };
    const message = result.ok
      ? 'The script completed but did not return anything.'
      : `${result.error!.name === 'Exception' ? 'Exception: ' : ''}${result.error!.message}`;
    return {
      status: 200 as const,
      mimeType: 'text/html',
      body: `<html><body><div>Error: ${message.replace(/</g, '&lt;')}</div></body></html>`,
      result,
    };
  }

  // A person typing into the sheet: values are parsed as typed input, then installable on-edit triggers fire.
  async edit(sheetName: string, row: number, col: number, values: unknown[][]): Promise<ExecutionResult[]> {
    const sheet = this.workbook.sheetByName(sheetName);
    if (!sheet) throw new Error(`no sheet named ${sheetName}`);
    this.workbook.setValues(sheet, row, col, values.length, values[0].length, values);
    const event = {
      authMode: 'FULL',
      user: this.owner,
      range: { $range: { sheet: sheet.id, name: sheet.name, row, col, rows: values.length, cols: values[0].length } },
    };
    const out: ExecutionResult[] = [];
    for (const t of this.triggers.triggers.filter((x) => x.eventType === 'ON_EDIT'))
      out.push(await this.run(t.handler, [event], { kind: 'trigger', user: this.owner }));
    return out;
  }

  // Fires every clock trigger due now, one execution each, in time order.
  async fireDueTriggers(): Promise<ExecutionResult[]> {
    const out: ExecutionResult[] = [];
    for (const t of this.triggers.due(this.clock.now())) {
      this.triggers.markFired(t, this.clock.now());
      out.push(await this.fireTrigger(t));
    }
    return out;
  }

  fireTrigger(t: TriggerModel, opts: RunOptions = {}): Promise<ExecutionResult> {
    const d = new Date(this.clock.now());
    const event = {
      authMode: 'FULL',
      triggerUid: t.uid,
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      'day-of-month': d.getUTCDate(),
      'day-of-week': d.getUTCDay() || 7,
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      timezone: 'UTC',
    };
    return this.run(t.handler, [event], { ...opts, kind: 'trigger' });
  }

  // Moves the clock to each next trigger time and fires what is due, until `until` holds or nothing is scheduled.
  async runTriggers(
    until: () => boolean,
    limits: { maxFirings?: number; maxClockMs?: number } = {},
  ): Promise<{ firings: number; reason: 'done' | 'idle' | 'limit' }> {
    const stopAt = this.clock.now() + (limits.maxClockMs ?? 7 * 24 * 3600_000);
    let firings = 0;
    while (!until()) {
      if (firings >= (limits.maxFirings ?? 10_000)) return { firings, reason: 'limit' };
      const next = this.triggers.nextDueTime();
      if (next === null) return { firings, reason: 'idle' };
      if (next > stopAt) return { firings, reason: 'limit' };
      this.clock.advanceTo(next);
      firings += (await this.fireDueTriggers()).length;
    }
    return { firings, reason: 'done' };
  }

  // A copy of everything an execution can change, so a test can replay the same start many times.
  snapshot(): RuntimeSnapshot {
    return {
      workbook: this.workbook.clone(),
      script: this.scriptProperties.all(),
      document: this.documentProperties.all(),
      triggers: structuredClone(this.triggers.triggers),
      clockOffset: this.clock.getOffset(),
      caches: [...this.caches].map(([k, c]) => [k, c.dump()] as [string, [string, CacheEntry][]]),
    };
  }

  restore(s: RuntimeSnapshot): void {
    this.workbook = s.workbook.clone();
    this.scriptProperties.set(s.script, true);
    this.documentProperties.set(s.document, true);
    this.triggers.restore(structuredClone(s.triggers));
    this.clock.setOffset(s.clockOffset);
    this.caches.clear();
    for (const [k, entries] of s.caches) {
      const c = new CacheStore(() => this.clock.now());
      c.load(entries);
      this.caches.set(k, c);
    }
  }

  // The workbook goes to .xlsx; project state that is not part of a spreadsheet (script properties,
  // triggers, the clock) goes to a sidecar file next to it, never into a cell.
  async save(file: string): Promise<void> {
    await saveXlsx(this.workbook, file);
    const project = {
      clockOffset: this.clock.getOffset(),
      scriptProperties: Object.fromEntries(
        Object.entries(this.scriptProperties.all()).filter(([k]) => this.secretKeys.indexOf(k) < 0),
      ),
      documentProperties: this.documentProperties.all(),
      userProperties: Object.fromEntries([...this.userPropertyStores].map(([u, s]) => [u, s.all()])),
      triggers: this.triggers.triggers,
    };
    fs.writeFileSync(projectFile(file), JSON.stringify(project, null, 2));
  }

  static async open(file: string, opts: RuntimeOptions = {}): Promise<Runtime> {
    if (!fs.existsSync(file)) return new Runtime(opts);
    const rt = new Runtime({ ...opts, workbook: await loadXlsx(file) });
    if (fs.existsSync(projectFile(file))) {
      const p = JSON.parse(fs.readFileSync(projectFile(file), 'utf8'));
      rt.clock.setOffset(Math.max(rt.clock.getOffset(), p.clockOffset ?? 0));
      rt.scriptProperties.set(p.scriptProperties ?? {});
      rt.documentProperties.set(p.documentProperties ?? {});
      for (const [u, props] of Object.entries(p.userProperties ?? {}))
        rt.state()
          .userProperties(u)
          .set(props as Record<string, string>);
      rt.triggers.restore(p.triggers ?? []);
    }
    return rt;
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots.length = 0;
  }
}
