// The local Apps Script runtime: executions in worker threads over shared state, triggers on a clock.
import path from 'node:path';
import { ExecutionPool, type PoolHost } from './execution-pool.js';
import {
  EXECUTION_LIMIT_MS,
  MAX_CONCURRENT_EXECUTIONS,
  MAX_CONCURRENT_SERVER_CALLS,
  SIMPLE_TRIGGER_LIMIT_MS,
  type ExecutionResult,
  type RunOptions,
} from './execution-types.js';
import { CacheStore, EarlyMisses, type Entry as CacheEntry } from './host/cache-store.js';
import { Clock } from './host/clock.js';
import type { HostState, UiRecord } from './host/dispatch.js';
import { LockManager } from './host/locks.js';
import { PropertyStore } from './host/properties-store.js';
import { QuotaLedger } from './host/quota.js';
import { TimeModel } from './host/time-model.js';
import { DEFAULT_TRIGGER_DELAYS, TriggerStore, type TriggerModel } from './host/triggers.js';
import { SpreadsheetFiles } from './host/spreadsheets.js';
import { Users } from './host/users.js';
import { changeTimeZone } from './host/values.js';
import { Workbook } from './host/workbook.js';
import { Journal, journalFile } from './host/journal.js';
import { personChange, personEdit, type StructuralChange } from './person-edits.js';
import { fireDueTriggers } from './trigger-firing.js';
import { openProject, saveProject } from './project-store.js';
import { findRoot, readBuilt, type Manifest, type RuntimeOptions, type RuntimeSnapshot } from './runtime-options.js';
import { SavedClock } from './saved-clock.js';
import { isPlainArgument, webEvent, webResponse } from './web-events.js';

// What the CLI, the bench, the tools and the tests import from here.
export * from './execution-types.js';
export { FormatError, FormatVersionError } from './host/format-errors.js';
export { PROJECT_VERSION, PROJECT_VERSION_KEY, projectFile, spreadsheetFile } from './project-file.js';
export { DEFAULT_TRIGGER_DELAYS } from './host/triggers.js';
export { isLocalUrl, originOf } from './host/http.js';
export { DAILY_LIMITS, QUOTA_MESSAGES, type QuotaUsage } from './host/quota.js';
export { CALL_COST_MS } from './host/time-model.js';
export { findRoot, type RuntimeOptions, type RuntimeSnapshot } from './runtime-options.js';
export type { StructuralChange } from './person-edits.js';

// The name evaluate() runs a snippet under; no script function can have it, so no caller can name one.
const SNIPPET = '<snippet>';

type WebReply = { status: 200; mimeType: string; body: string; result: ExecutionResult };

export class Runtime implements PoolHost {
  readonly clock = new Clock();
  // The clock a save keeps (the simulation's) beside the one that runs (saved-clock.ts).
  readonly savedClock: SavedClock;
  readonly locks = new LockManager();
  readonly triggers = new TriggerStore();
  readonly scriptProperties = new PropertyStore();
  readonly documentProperties = new PropertyStore();
  readonly userPropertyStores = new Map<string, PropertyStore>();
  readonly caches = new Map<string, CacheStore>();
  // Daily quota use per user; `quota.usage(user)` and `quota.totals(user)` are what a bench reads.
  readonly quota: QuotaLedger;
  readonly ui: UiRecord = { menus: [], sidebars: [], dialogs: [], alerts: [], toasts: [], responses: [] };
  readonly executions: ExecutionResult[] = [];
  readonly logs: { execId: number; level: string; text: string }[] = [];
  readonly owner: string;
  // The bound spreadsheet is on a shared drive: Spreadsheet.getOwner() gives null.
  readonly ownerless: boolean;
  // The owner and the other editors: who an execution is for and what Session shows of them (host/users.ts).
  readonly users: Users;
  readonly manifest: Manifest;
  // The project's HTML files ({name: text}) as JSON, for HtmlService (PoolHost).
  readonly filesJson: string;
  // The script's top-level function declarations as the build lists them: the only names an execution may start.
  readonly entryPoints: readonly string[];
  workbook: Workbook;
  // Spreadsheets the scripts created (SpreadsheetApp.create), saved beside the workbook (project-file.ts).
  readonly spreadsheets = new SpreadsheetFiles();
  private readonly root: string;
  private readonly pool: ExecutionPool;
  private serverCalls = 0;
  // Script Properties from the environment (API keys): never saved, never journaled.
  readonly secretKeys: string[];
  // Where changes are journaled while `kaigi serve` runs (attachJournal); absent otherwise.
  journal: Journal | undefined;
  // The last journal record the state holds: the sidecar's, plus the records replayed on opening.
  journalSeq = 0;
  // How many journal records opening replayed on the snapshot (a save would fold them in).
  replayed = 0;
  executionLimitMs: number;
  fetchTimeoutMs: number;
  allowLocalFetch: readonly string[];
  echoLogs: boolean;
  // What each service call costs on Apps Script's clock (host/time-model.ts); always on.
  readonly timeModel: TimeModel;
  // Cache entries lost before their time (host/cache-store.ts): off unless RuntimeOptions.cacheMiss sets a rate.
  readonly cacheMisses: EarlyMisses;
  // `kaigi serve`: executions' modelled time never moves the runtime's clock, which stays the wall clock; elsewhere
  // it catches up with each execution's end (clock.ts).
  readonly realTime: boolean;

  constructor(opts: RuntimeOptions = {}) {
    this.root = opts.root ?? findRoot();
    const built = readBuilt(path.join(this.root, 'dist', 'gas'));
    this.manifest = built.manifest;
    this.filesJson = built.filesJson;
    this.entryPoints = built.entryPoints;
    this.owner = opts.owner ?? 'owner@example.com';
    this.ownerless = opts.sharedDrive ?? false;
    const webapp = this.manifest.webapp as { executeAs?: string } | undefined;
    this.users = new Users(this.owner, opts.users ?? [], webapp?.executeAs === 'USER_ACCESSING');
    this.triggers.delays = { ...DEFAULT_TRIGGER_DELAYS, ...opts.triggerDelays };
    this.workbook = opts.workbook ?? Workbook.create({ timeZone: this.manifest.timeZone });
    // Through the same path as setSpreadsheetTimeZone, so an unknown zone is refused here.
    if (!opts.workbook && opts.spreadsheetTimeZone) changeTimeZone(this.workbook, opts.spreadsheetTimeZone);
    this.executionLimitMs = opts.executionLimitMs ?? EXECUTION_LIMIT_MS;
    this.fetchTimeoutMs = opts.fetchTimeoutMs ?? 60_000;
    this.allowLocalFetch = opts.allowLocalFetch ?? [];
    this.echoLogs = opts.echoLogs ?? false;
    this.savedClock = new SavedClock(opts.clock ?? 'simulated', this.clock);
    this.quota = new QuotaLedger(() => this.clock.now(), opts.accountType ?? 'consumer');
    this.timeModel = new TimeModel(opts.timeModel);
    this.cacheMisses = new EarlyMisses(opts.cacheMiss?.rate, opts.cacheMiss?.seed);
    if (opts.lockOrder) this.locks.randomOrder(opts.lockOrder.seed);
    this.realTime = opts.wallClock ?? false;
    if (opts.scriptProperties) this.scriptProperties.set(opts.scriptProperties);
    if (opts.startAt !== undefined) this.clock.setOffset(opts.startAt - Date.now());
    this.secretKeys = Object.keys(opts.secrets ?? {});
    if (opts.secrets) this.scriptProperties.set(opts.secrets);
    this.pool = new ExecutionPool(this, this.root);
  }

  get codePath(): string {
    return path.join(this.root, 'dist', 'gas', 'Code.js');
  }

  userProperties(user: string): PropertyStore {
    let s = this.userPropertyStores.get(user);
    if (!s) this.userPropertyStores.set(user, (s = new PropertyStore()));
    return s;
  }

  // The state service calls act on (PoolHost).
  hostState(): HostState {
    return {
      workbook: this.workbook,
      boundId: this.workbook.id,
      owner: this.ownerless ? null : this.owner,
      spreadsheets: this.spreadsheets,
      editors: this.users,
      clock: this.clock,
      timeModel: this.timeModel,
      locks: this.locks,
      triggers: this.triggers,
      scriptProperties: this.scriptProperties,
      documentProperties: this.documentProperties,
      userProperties: (user) => this.userProperties(user),
      cache: (scope, user) => {
        const key = scope === 'user' ? `user:${user}` : scope;
        let c = this.caches.get(key);
        if (!c) this.caches.set(key, (c = new CacheStore(() => this.clock.now(), this.cacheMisses)));
        return c;
      },
      ui: this.ui,
      fetchTimeoutMs: this.fetchTimeoutMs,
      allowLocalFetch: this.allowLocalFetch,
      timeZone: this.manifest.timeZone,
      quota: this.quota,
      journal: this.journal,
    };
  }

  recordLog(execId: number, level: string, text: string): void {
    this.logs.push({ execId, level, text });
    if (this.echoLogs) process.stderr.write(`[${level}] ${text}\n`);
  }

  recordExecution(result: ExecutionResult): void {
    this.executions.push(result);
  }

  // One execution of a top-level function of the built file, as Apps Script would start it.
  run(fn: string, args: unknown[] = [], opts: RunOptions = {}): Promise<ExecutionResult> {
    const kind = opts.kind ?? 'editor';
    // A snippet runs only through evaluate(): the pages and /exec name functions, never code.
    if ((opts.code !== undefined) !== (fn === SNIPPET))
      return Promise.reject(new Error('a snippet runs only through evaluate(), and only a snippet has code'));
    if (this.pool.size >= MAX_CONCURRENT_EXECUTIONS) {
      return Promise.reject(
        new Error('There are too many scripts running simultaneously for this Google user account.'),
      );
    }
    const who = this.users.forExecution(kind, opts.user);
    const limitMs =
      kind === 'simple' ? Math.min(SIMPLE_TRIGGER_LIMIT_MS, this.executionLimitMs) : this.executionLimitMs;
    const info = JSON.stringify({
      kind,
      user: who.revealed,
      effectiveUser: who.effective,
      activeUserKey: who.activeUserKey,
      timeZone: this.manifest.timeZone,
      locale: opts.locale ?? this.workbook.locale,
      scopes: this.manifest.oauthScopes,
      spreadsheetId: this.workbook.id,
      scriptId: 'local-script-id',
      webAppUrl: 'https://script.google.com/macros/s/local-deployment/exec',
    });
    const started = this.pool.start({ fn, args, kind, user: who.user, owner: who.effective, opts, limitMs, info });
    // Its end is reported only once every change applied so far is on disk: `kaigi serve` answers a request after it.
    const journal = this.journal;
    return journal ? started.then((r) => journal.sync().then(() => r)) : started;
  }

  // Opening the spreadsheet: the simple onOpen trigger, then installable on-open triggers.
  async open(): Promise<ExecutionResult[]> {
    const out = [
      await this.run('onOpen', [{ authMode: 'LIMITED', source: null, user: this.owner }], { kind: 'simple' }),
    ];
    for (const t of this.triggers.triggers.filter((x) => x.eventType === 'ON_OPEN')) {
      out.push(
        await this.run(t.handler, [{ authMode: 'FULL', triggerUid: t.uid }], { kind: 'trigger', user: t.owner }),
      );
    }
    return out;
  }

  // Runs a snippet of Apps Script code as one execution (used by the runtime's own conformance tests).
  evaluate(code: string, opts: RunOptions = {}): Promise<ExecutionResult> {
    return this.run(SNIPPET, [], { ...opts, code });
  }

  // google.script.run: plain data in, plain data out, at most 10 at once, no private functions.
  callServer(fn: string, ...args: unknown[]): Promise<unknown> {
    return this.callServerAs({}, fn, args);
  }

  // The same for a page shown to a user with their own locale (the preview's ?locale=).
  async callServerAs(as: { locale?: string }, fn: string, args: unknown[]): Promise<unknown> {
    // Private functions (a trailing _) are hidden from the client even when the build lists them.
    if (fn.endsWith('_') || !this.entryPoints.includes(fn)) throw new Error(`Script function not found: ${fn}`);
    if (!args.every(isPlainArgument))
      throw new Error(
        'Failed due to illegal value in argument: only primitives, arrays and plain objects may be passed.',
      );
    if (this.serverCalls >= MAX_CONCURRENT_SERVER_CALLS)
      throw new Error('Too many concurrent google.script.run calls (at most 10).');
    this.serverCalls++;
    try {
      const r = await this.run(fn, args, { kind: 'server', locale: as.locale });
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

  // A web-app request; Apps Script always answers 200, so only the body carries the outcome.
  async doGet(parameters: Record<string, string | string[]> = {}): Promise<WebReply> {
    return this.web('doGet', webEvent(parameters));
  }

  async doPost(
    parameters: Record<string, string | string[]>,
    contents: string,
    type = 'application/json',
  ): Promise<WebReply> {
    return this.web('doPost', webEvent(parameters, { contents, type }));
  }

  private async web(fn: string, e: unknown): Promise<WebReply> {
    const result = await this.run(fn, [e], { kind: 'webapp' });
    return { ...webResponse(result.ok, result.output, result.error), result };
  }

  // Whether an edit event names this person (person-edits.ts).
  revealsEditor(user: string): boolean {
    return this.users.reveals(user);
  }

  // A person typing into the sheet: on-edit, then on-change (EDIT) triggers fire (person-edits.ts).
  edit(sheetName: string, row: number, col: number, values: unknown[][], opts: { user?: string } = {}) {
    return personEdit(this, sheetName, row, col, values, opts.user ?? this.owner);
  }

  // A person inserting or deleting rows, columns or a sheet: on-change triggers fire with its changeType.
  change(sheetName: string, what: StructuralChange, opts: { user?: string } = {}): Promise<ExecutionResult[]> {
    return personChange(this, sheetName, what, opts.user ?? this.owner);
  }

  // Fires every clock trigger due now, one execution each, in time order (untidily if asked: trigger-firing.ts).
  fireDueTriggers(): Promise<ExecutionResult[]> {
    return fireDueTriggers(this);
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
    // An installable trigger runs as the user who created it; a test's snippet stands in for its handler.
    const fn = opts.code === undefined ? t.handler : SNIPPET;
    return this.run(fn, [event], { ...opts, kind: 'trigger', user: t.owner });
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
      spreadsheets: this.spreadsheets.clone(),
      script: this.scriptProperties.all(),
      document: this.documentProperties.all(),
      triggers: structuredClone(this.triggers.triggers),
      clockOffset: this.clock.getOffset(),
      caches: [...this.caches].map(([k, c]) => [k, c.dump()] as [string, [string, CacheEntry][]]),
      quota: this.quota.snapshot(),
    };
  }

  restore(s: RuntimeSnapshot): void {
    this.workbook = s.workbook.clone();
    this.spreadsheets.replaceWith(s.spreadsheets.clone());
    this.scriptProperties.set(s.script, true);
    this.documentProperties.set(s.document, true);
    this.triggers.restore(structuredClone(s.triggers));
    this.clock.setOffset(s.clockOffset);
    // The clock went back to the snapshot's time: release times of executions after it are forgotten with them.
    this.locks.forgetReleases();
    this.caches.clear();
    for (const [k, entries] of s.caches) {
      const c = new CacheStore(() => this.clock.now());
      c.load(entries);
      this.caches.set(k, c);
    }
    this.quota.restore(s.quota);
  }

  // A spreadsheet the scripts created, by id (a test or a tool reads the archive this way).
  spreadsheet(id: string): Workbook | undefined {
    return this.spreadsheets.all().find(([x]) => x === id)?.[1].workbook;
  }

  // Workbook, created spreadsheets and sidecar as one snapshot (project-store.ts); the journal beside it compacted.
  save(file: string): Promise<void> {
    return saveProject(this, file);
  }

  static open(file: string, opts: RuntimeOptions = {}): Promise<Runtime> {
    return openProject(file, opts, (o) => new Runtime(o));
  }

  // Every change journaled beside `file` before an execution's end is reported (`kaigi serve`); saved/opened there.
  async attachJournal(file: string): Promise<void> {
    if (this.journal) throw new Error('this runtime is journaling already');
    this.journal = await Journal.open(journalFile(file), {
      workbook: this.workbook.id,
      after: this.journalSeq,
      clockOffset: () => this.savedClock.offset(),
      triggerShift: () => this.savedClock.toSaved(),
      secretKeys: this.secretKeys,
    });
  }

  async close(): Promise<void> {
    await this.pool.close();
    await this.journal?.close();
  }
}
