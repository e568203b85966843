// Shared test helpers: runtimes closed after each test, a snippet runner that fails loudly, and rows by column name.
import { TABS } from '../sheets-schema/tabs.js';
import { ExecClock } from '../runtime/host/time-model.js';
import { Runtime, type ExecutionResult, type RunOptions, type RuntimeOptions } from '../runtime/runtime.js';
import type { Workbook } from '../runtime/host/workbook.js';

// Every runtime a test creates, so tests/close-runtimes.ts can close them after it whatever the outcome.
const open = new Set<Runtime>();

export function newRuntime(opts: RuntimeOptions = {}): Runtime {
  const rt = new Runtime(opts);
  open.add(rt);
  return rt;
}

export async function closeRuntimes(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(all.map((rt) => rt.close()));
}

export async function withRuntime<T>(fn: (rt: Runtime) => Promise<T>, opts: RuntimeOptions = {}): Promise<T> {
  const rt = new Runtime(opts);
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

// Runs Apps Script code in the runtime and returns its value; throws with the script's error otherwise.
export async function gas(rt: Runtime, code: string, opts: RunOptions = {}): Promise<any> {
  const r = await rt.evaluate(code, opts);
  if (!r.ok) throw new Error(`snippet failed: ${r.error?.name}: ${r.error?.message}`);
  return r.value;
}

// Runs Apps Script code expected to throw; returns the error message.
export async function gasError(rt: Runtime, code: string, opts: RunOptions = {}): Promise<string> {
  const r: ExecutionResult = await rt.evaluate(code, opts);
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error!.message;
}

// The test takes the script lock on its own clock and waits, through `waiters(n)`, until n executions wait for it.
async function testLock(rt: Runtime, label: string) {
  const test = new ExecClock(rt.clock);
  const id = 900_100 + Math.floor(Math.random() * 1000);
  await rt.locks.acquire('script', id, 0, test);
  const release = () => rt.locks.release('script', id, test);
  const waiters = async (n: number) => {
    for (let i = 0; rt.locks.waiting('script') < n; i++) {
      if (i > 2000) {
        release();
        throw new Error(`${label}: ${n} waiters never queued`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { waiters, release };
}

// Runs `next` side by side with a script that holds the script lock for `holdMs` on its own clock (time-model.ts):
// the test holds the lock until both wait for it, so `next` started before the holder ended, then lets go. The
// holder goes first; `next` meets a lock its holder keeps for `holdMs`.
export async function besideLockHolder<T>(
  rt: Runtime,
  holdMs: number,
  next: () => Promise<T>,
): Promise<{ holder: ExecutionResult; result: T }> {
  const lock = await testLock(rt, 'besideLockHolder');
  const holder = rt.evaluate(`LockService.getScriptLock().waitLock(60000); Utilities.sleep(${holdMs}); return 1;`);
  await lock.waiters(1);
  const result = next();
  await lock.waiters(2);
  lock.release();
  return { holder: await holder, result: await result };
}

// Runs `next` while the test holds the script lock, and lets go once `n` executions wait for it: they then take it
// in the order they asked (locks.ts keeps waiters FIFO), ahead of any execution that asks later.
export async function queuedOnLock<T>(rt: Runtime, n: number, next: () => Promise<T>): Promise<T> {
  const lock = await testLock(rt, 'queuedOnLock');
  const result = next();
  await lock.waiters(n);
  lock.release();
  return result;
}

// A backstop tick, which appends the API Log rows authenticated web API calls left waiting (src/app/api/api-log.ts);
// it also runs whatever is queued, as the next tick would.
export async function appendApiLog(rt: Runtime): Promise<ExecutionResult> {
  const r = await rt.run('tick', [], { kind: 'trigger' });
  if (!r.ok) throw new Error(`tick failed: ${r.error?.name}: ${r.error?.message}`);
  return r;
}

// ---- rows by column name (sheets-schema/tabs.ts) ----------------------------------------------

type TabDef = (typeof TABS)[number];
export type TabKey = TabDef['key'];
// A tab's column names: checked by the compiler when TABS keeps its literal types, any string otherwise.
export type ColumnOf<K extends TabKey> = string extends TabKey
  ? string
  : Extract<TabDef, { key: K }>['columns'][number]['key'];
export type Row<K extends TabKey> = Record<ColumnOf<K>, unknown>;

function specOf(key: TabKey) {
  const spec = TABS.find((t) => t.key === key);
  if (!spec) throw new Error(`no tab ${key} in sheets-schema/tabs.ts`);
  return spec;
}

function columnsOf(key: TabKey): string[] {
  return specOf(key).columns.map((c) => c.key);
}

// 1-based sheet column of a named column, for writing one cell the way a person would.
export function column<K extends TabKey>(key: K, name: ColumnOf<K>): number {
  const i = columnsOf(key).indexOf(name);
  if (i < 0) throw new Error(`tab ${key} has no column ${name}`);
  return i + 1;
}

// A row's values in sheet order from an object keyed by column name; columns left out are empty.
export function rowValues<K extends TabKey>(key: K, row: Partial<Row<K>>): unknown[] {
  const r = row as Record<string, unknown>;
  for (const name of Object.keys(r))
    if (columnsOf(key).indexOf(name) < 0) throw new Error(`tab ${key} has no column ${name}`);
  return columnsOf(key).map((name) => (name in r ? r[name] : ''));
}

// A tab's data rows as objects keyed by its column names; fails when the sheet's header is not the schema's.
export function records<K extends TabKey>(rt: Runtime, key: K): Row<K>[] {
  const spec = specOf(key);
  const names = columnsOf(key);
  const wb = rt.workbook;
  const sheet = wb.sheetByName(spec.name) ?? wb.sheetByName(spec.nameJa);
  if (!sheet) throw new Error(`no ${spec.name} tab in the workbook`);
  const header = wb.getValues(sheet, 1, 1, 1, names.length)[0].map(String);
  if (header.join('\t') !== names.join('\t'))
    throw new Error(`${spec.name} header is ${JSON.stringify(header)}, the schema says ${JSON.stringify(names)}`);
  const last = wb.lastRow(sheet);
  if (last < 2) return [];
  return wb
    .getValues(sheet, 2, 1, last - 1, names.length)
    .map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]])) as Row<K>);
}

// Every API Log row's values of a workbook (the spreadsheet or an archive) as text, in order, blank rows left out.
export function apiLogTexts(wb: Workbook | undefined): string[] {
  const sheet = wb?.sheetByName('API Log');
  if (!wb || !sheet) return [];
  const last = wb.lastRow(sheet);
  if (last < 2) return [];
  return wb
    .getValues(sheet, 2, 1, last - 1, 6)
    .filter((v) => v.some((x) => x !== ''))
    .map((v) => JSON.stringify(v));
}
