// One execution host thread: loads the built Apps Script file into a fresh V8 context per execution.
import { isUtf8 } from 'node:buffer';
import crypto from 'node:crypto';
import fs from 'node:fs';
import vm from 'node:vm';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { compileCached } from './code-cache.js';

interface InitData {
  codePath: string;
  // The build's list of the script's top-level function declarations (dist/gas/entry-points.json).
  entryPoints: string[];
  globalsPath: string;
  // Where V8's code cache for Code.js is kept (code-cache.ts).
  codeCacheDir: string;
  clockBuffer: SharedArrayBuffer;
  flagBuffer: SharedArrayBuffer;
  // 1 while this thread checks for, or writes, a larger code cache after its execution (code-cache.ts); the pool's
  // close waits for it.
  growBuffer: SharedArrayBuffer;
  rpcPort: MessagePort;
  // The project's HTML files as JSON (Bridge.files).
  filesJson: string;
}

interface ExecMessage {
  type: 'exec';
  execId: number;
  fn: string;
  code?: string;
  argsJson: string;
  startedAt: number;
  // The execution's own clock (host/time-model.ts ExecClock): [modelled ms, the runtime clock's lead at start].
  execClockBuffer: SharedArrayBuffer;
  limitMs: number;
  info: string;
}

const init = workerData as InitData;
const offset = new Float64Array(init.clockBuffer);
const flag = new Int32Array(init.flagBuffer);
const parkCell = new Int32Array(new SharedArrayBuffer(4));
const growCell = new Int32Array(init.growBuffer);
const port = init.rpcPort;

// Only these names are ever called: a global of the context (eval, Function, constructor…) is not a script function,
// and reaching one by name would let a caller run any code with the host's powers (node:vm is no security boundary).
const entryPoints: ReadonlySet<string> = new Set(init.entryPoints);

const compiled = compileCached(fs.readFileSync(init.codePath, 'utf8'), 'Code.js', init.codeCacheDir);
const code = compiled.script;
const globals = new vm.Script(
  `(function () {\n${fs.readFileSync(init.globalsPath, 'utf8')}\nreturn __gasGlobals.install;\n})()`,
  { filename: 'apps-script-globals.js' },
);

// Waits for the host's reply to the request just posted; the host sets the flag after posting it.
function exchange(message: unknown): string {
  port.postMessage(message);
  Atomics.wait(flag, 0, 0);
  Atomics.store(flag, 0, 0);
  for (;;) {
    const m = receiveMessageOnPort(port);
    if (m) return m.message as string;
    Atomics.wait(flag, 0, 0, 5);
  }
}

// The execution is over for good: tell the host and wait to be terminated.
function park(reason: string): never {
  port.postMessage({ op: '__fatal', args: reason });
  for (;;) Atomics.wait(parkCell, 0, 0);
}

type Helpers = { describe(v: unknown): string; decode(t: string): unknown };

// Where a context's bridge calls go: the execution it serves, known once that execution starts.
interface Binding {
  target: Bridge | null;
  // A call came while the project was loaded ahead of any execution: the load used what only an execution has.
  touched: boolean;
}

type Bridge = ReturnType<typeof executionBridge>;

// A context with Apps Script's globals installed and the project's top level run, loaded for the next execution.
interface Loaded {
  context: vm.Context;
  globalObject: Record<string, unknown>;
  helpers?: Helpers;
  error?: unknown;
  binding: Binding;
}

// The bridge a context is given: each call goes to its binding's execution. Loaded ahead, before there is one, a
// call fails and marks the load touched, so that load is thrown away and the execution loads the project afresh.
function forwardingBridge(binding: Binding): Bridge {
  const to = (): Bridge => {
    if (binding.target) return binding.target;
    binding.touched = true;
    throw new Error('no execution has started in this context yet');
  };
  return {
    get info() {
      return to().info;
    },
    now: () => to().now(),
    check: () => to().check(),
    rpc: (op: string, argsJson: string) => to().rpc(op, argsJson),
    sleep: (ms: number) => to().sleep(ms),
    digest: (algorithm: string, dataB64: string) => to().digest(algorithm, dataB64),
    digestUtf8: (algorithm: string, text: string) => to().digestUtf8(algorithm, text),
    hmac: (algorithm: string, dataB64: string, keyB64: string) => to().hmac(algorithm, dataB64, keyB64),
    utf8Base64: (text: string) => to().utf8Base64(text),
    utf8OfBase64: (b64: string) => to().utf8OfBase64(b64),
    uuid: () => to().uuid(),
    log: (level: string, text: string) => to().log(level, text),
    files: () => to().files(),
  };
}

// A context whose global object is an ordinary one, as V8 gives Apps Script's script. A context made from a Node
// object (vm's default) answers every read of a global — Math, Object, JSON, Array, String — through Node's
// interceptors, past V8's inline caches: a loop that reads one ran ten to a hundred times slower (the audit's FNV
// over 340,000 characters: 90 ms against 5 ms; a 3-million-step Math.imul loop in a worker: 821 ms against 8 ms).
// What the script can do and see is the same either way.
// (A Node whose vm has no DONT_CONTEXTIFY makes the context the slower way.)
const ORDINARY_GLOBAL = (vm.constants as unknown as { DONT_CONTEXTIFY?: vm.Context } | undefined)?.DONT_CONTEXTIFY;

// A fresh V8 context with the globals installed and the project loaded, as Apps Script loads it for each execution.
function load(target: Bridge | null): Loaded {
  const binding: Binding = { target, touched: false };
  const context = vm.createContext(ORDINARY_GLOBAL ?? {}, {
    name: 'Apps Script',
    codeGeneration: { strings: true, wasm: false },
  });
  const globalObject = vm.runInContext('globalThis', context) as Record<string, unknown>;
  try {
    const install = globals.runInContext(context) as (g: unknown, b: unknown) => Helpers;
    const helpers = install(globalObject, forwardingBridge(binding));
    code.runInContext(context);
    compiled.save();
    return { context, globalObject, helpers, binding };
  } catch (error) {
    return { context, globalObject, error, binding };
  }
}

// The next execution's context, loaded while this thread had nothing to do (between executions, and while the pool
// runs executions on other threads). Only a load that ran without calling the bridge is kept: the project's top level
// then did the same as it would at the execution's start (tests/runtime/sandbox.test.ts: it touches no service), and
// its context is as fresh as one made then. Any other load is made again at the start, with the execution's bridge.
let preloaded: Loaded | null = null;

function preload(): void {
  if (preloaded) return;
  const l = load(null);
  preloaded = l.binding.touched || l.error !== undefined ? null : l;
  if (preloaded) parentPort!.postMessage({ type: 'ready' });
}

function executionBridge(msg: ExecMessage) {
  const execClock = new Float64Array(msg.execClockBuffer);
  // The runtime's clock as tests move it, plus this execution's lead and modelled time (host/time-model.ts).
  const now = () => Date.now() + offset[0] + execClock[1] + execClock[0];
  const check = () => {
    if (now() - msg.startedAt > msg.limitMs) park('Exceeded maximum execution time');
  };
  return {
    info: msg.info,
    now,
    check,
    rpc(op: string, argsJson: string): string {
      check();
      return exchange({ op, args: argsJson });
    },
    sleep(ms: number) {
      check();
      // Sleeping is modelled time: the execution's clock moves on and nothing here waits. It is execution time
      // Apps Script charges to the trigger runtime quota (host/quota.ts).
      const slept = (t: number) => parentPort!.postMessage({ type: 'slept', execId: msg.execId, ms: t });
      if (now() + ms - msg.startedAt > msg.limitMs) {
        const rest = Math.max(0, msg.startedAt + msg.limitMs - now());
        execClock[0] += rest;
        slept(rest);
        park('Exceeded maximum execution time');
      }
      execClock[0] += Math.max(0, ms);
      slept(ms);
    },
    digest(algorithm: string, dataB64: string): string {
      return crypto.createHash(algorithm).update(Buffer.from(dataB64, 'base64')).digest('base64');
    },
    digestUtf8(algorithm: string, text: string): string {
      return crypto.createHash(algorithm).update(text, 'utf8').digest('base64');
    },
    hmac(algorithm: string, dataB64: string, keyB64: string): string {
      return crypto
        .createHmac(algorithm, Buffer.from(keyB64, 'base64'))
        .update(Buffer.from(dataB64, 'base64'))
        .digest('base64');
    },
    utf8Base64: (text: string) => Buffer.from(text, 'utf8').toString('base64'),
    utf8OfBase64(b64: string): string | null {
      const bytes = Buffer.from(b64, 'base64');
      return isUtf8(bytes) ? bytes.toString('utf8') : null;
    },
    uuid: () => crypto.randomUUID(),
    log(level: string, text: string) {
      parentPort!.postMessage({ type: 'log', execId: msg.execId, level, text });
    },
    files: () => init.filesJson,
  };
}

function run(msg: ExecMessage): void {
  const started = performance.now();
  const reply = execute(msg);
  // Whether this execution compiled enough to grow the code cache is asked after the host has its reply (reading V8's
  // code statistics walks the heap: about 1.5 ms); that it will be asked is settled before, so that a pool closing at
  // once waits for the answer (execution-pool.ts close). An execution shorter than CHECK_AFTER_MS compiled little.
  if (performance.now() - started >= CHECK_AFTER_MS) Atomics.store(growCell, 0, 1);
  parentPort!.postMessage({ type: 'done', execId: msg.execId, ...reply });
}

const CHECK_AFTER_MS = 20;

// The execution's reply: its result described, or its error.
function execute(msg: ExecMessage): Record<string, unknown> {
  const bridge = executionBridge(msg);
  let loaded = preloaded;
  preloaded = null;
  if (loaded) loaded.binding.target = bridge;
  else loaded = load(bridge);
  const { context, globalObject, helpers } = loaded;
  try {
    if (loaded.error !== undefined || !helpers) throw loaded.error;
    if (msg.code !== undefined) {
      // Runtime conformance tests run a snippet as the body of a function in the loaded project.
      const value = vm.runInContext(`(function () {\n${msg.code}\n})()`, context, { filename: 'snippet.js' });
      return { result: helpers.describe(value) };
    }
    const fn = entryPoints.has(msg.fn) ? Object.getOwnPropertyDescriptor(globalObject, msg.fn)?.value : undefined;
    if (typeof fn !== 'function') throw new Error(`Script function not found: ${msg.fn}`);
    const args = helpers.decode(msg.argsJson) as unknown[];
    const value = fn.apply(undefined, args);
    return { result: helpers.describe(value) };
  } catch (e) {
    const err = e as { name?: string; message?: string; stack?: string };
    const error =
      err && typeof err === 'object'
        ? { name: String(err.name ?? 'Error'), message: String(err.message ?? e), stack: String(err.stack ?? '') }
        : { name: 'Error', message: String(e), stack: '' };
    return { error };
  }
}

// After an execution: the larger code cache it made worth writing, then the next context.
function afterExecution(): void {
  if (Atomics.load(growCell, 0) === 1) {
    try {
      if (compiled.wantsGrow()) compiled.grow();
    } finally {
      Atomics.store(growCell, 0, 0);
      Atomics.notify(growCell, 0);
    }
  }
  preload();
}

parentPort!.on('message', (msg: ExecMessage) => {
  if (msg.type !== 'exec') return;
  run(msg);
  // After the execution, not before the next: a message already waiting runs first and loads for itself.
  setImmediate(afterExecution);
});
setImmediate(preload);
