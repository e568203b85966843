// kaigi serve: the web app on the local runtime as Apps Script serves it (runtime/web/), the sidebar, dialogs and
// Dashboard as preview pages, triggers firing on the real clock (not the simulated one a `kaigi run` saved, which is
// kept as it was: cli/shared.ts), every change journaled before it is acknowledged, the workbook saved (and the
// journal compacted) periodically and on SIGINT/SIGTERM. Nothing it prints holds a token. Without --workbook (or with
// --demo) it serves a demo workbook: set up, with the demo team `kaigi run --demo` loads. Its address is an index of
// the preview pages, the API and MCP (runtime/web/index-page.ts).
import path from 'node:path';
import type { Runtime } from '../../runtime/runtime.js';
import type { IndexOptions } from '../../runtime/web/index-page.js';
import { tabByKey } from '../../sheets-schema/index.js';
import { type StringKey, t } from '../../src/core/i18n.js';
import { TriggerLoop } from '../../runtime/web/trigger-loop.js';
import { WebServer } from '../../runtime/web/server.js';
import {
  allowLocalModel,
  call,
  type Command,
  InputError,
  keysFromEnv,
  markServed,
  need,
  openWorkbook,
  type Opts,
  print,
  PROVIDER_OVERRIDE,
  UsageError,
  warn,
  writableWorkbook,
} from '../shared.js';
import { membersOf } from '../workbook-reads.js';

const SAVE_EVERY_MS = 30_000;
// /dialog/NAME → the entry point a menu item runs to show it (src/entries/dialogs.ts), and that item's label.
const DIALOGS: Record<string, { fn: string; label: StringKey }> = {
  start: { fn: 'showStartDialog', label: 'startDiscussion' },
  settings: { fn: 'showSettings', label: 'settings' },
  'api-clients': { fn: 'showApiClients', label: 'apiClients' },
};
// The workbook served when none is named: in the current folder, made and given the demo team if missing, reused
// (as the last serve left it) if present.
const DEMO_WORKBOOK = 'kaigi-demo.xlsx';
// The server function behind the menu's "load demo data" (More tools), which `kaigi run --demo` calls too.
const DEMO_LOADER = 'seedDemoData';
const both = (key: StringKey) => ({ ja: t(key, 'ja'), en: t(key, 'en') });

// The index at /: each preview page by the label of the menu item (or the tab) that opens it, the team as it is now,
// and the menu's demo loader for a workbook without one.
function previewIndex(rt: Runtime, file: string): IndexOptions {
  const dashboard = tabByKey('dashboard');
  return {
    workbook: file,
    pages: [
      { path: '/sidebar', label: both('openSidebar') },
      ...Object.entries(DIALOGS).map(([name, d]) => ({ path: `/dialog/${name}`, label: both(d.label) })),
      { path: '/dashboard', label: { ja: dashboard.nameJa, en: dashboard.name } },
    ],
    members: () => membersOf(rt),
    demo: { fn: DEMO_LOADER, label: both('seedDemo') },
  };
}
// Execution records the runtime keeps for in-process tests; a server that runs for days keeps only the latest.
const KEEP_RECORDS = 1000;

function integer(opts: Opts, key: string, fallback: number | undefined, max: number): number | undefined {
  if (opts[key] === undefined) return fallback;
  const n = Number(opts[key]);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(`--${key} must be a whole number from 0 to ${max}`);
  return n;
}

// A share from 0 to 1 (`--time-scale 0.05`), or undefined when not given.
function share(opts: Opts, key: string): number | undefined {
  if (opts[key] === undefined) return undefined;
  const n = Number(opts[key]);
  if (typeof opts[key] !== 'string' || !/^\d*\.?\d+$/.test(opts[key]) || !(n >= 0 && n <= 1))
    throw new UsageError(`--${key} must be a number from 0 to 1`);
  return n;
}

// The local model server `kaigi run --base-url` chose for this workbook stays reachable while serving.
async function allowSavedModelServer(rt: Runtime): Promise<void> {
  let baseUrl = '';
  try {
    baseUrl = String(JSON.parse(rt.scriptProperties.get(PROVIDER_OVERRIDE) ?? '{}').base_url ?? '');
  } catch {
    // An unreadable override is the script's to report when it reads it; nothing is allowed for it here.
  }
  const allow = await allowLocalModel(baseUrl);
  if (allow.length) rt.allowLocalFetch = allow;
}

// One save at a time: a save asked for while one runs follows it.
class Saver {
  private last: Promise<void> = Promise.resolve();
  private savedAt = -1;

  constructor(
    private readonly rt: Runtime,
    private readonly file: string,
    private readonly ran: () => number,
  ) {}

  // Saves when something ran since the last save (and always when `force`).
  save(force = false): Promise<void> {
    const next = this.last.then(async () => {
      const ran = this.ran();
      if (!force && ran === this.savedAt) return;
      await this.rt.save(this.file);
      this.savedAt = ran;
    });
    this.last = next.catch(() => {});
    return next;
  }
}

async function serve(opts: Opts): Promise<number> {
  // No workbook named: the demo workbook in the current folder.
  const demo = opts.demo === true || opts.workbook === undefined;
  const file = path.resolve(opts.workbook === undefined ? DEMO_WORKBOOK : need(opts, 'workbook'));
  const port = integer(opts, 'port', 8080, 65535)!;
  const host = String(opts.host ?? '127.0.0.1');
  const afterMaxMs = integer(opts, 'after-max-ms', undefined, 24 * 3600_000);
  const timeScale = share(opts, 'time-scale');
  // The load bench's second run: waiters get a released lock in seeded random order (runtime/host/locks.ts).
  const lockOrder = String(opts['lock-order'] ?? 'fifo');
  if (!/^(fifo|random(:\d+)?)$/.test(lockOrder)) throw new UsageError('--lock-order must be fifo or random[:SEED]');
  // The language of a previewed page whose URL names none (?locale=ja|en), as the user's locale would.
  const locale = String(opts.locale ?? 'ja');
  if (!/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/.test(locale)) throw new UsageError('--locale must look like ja or en');
  // A folder that is missing or not writable is refused before anything is made (exit 2 naming it).
  writableWorkbook(file);
  const unmark = markServed(file);
  let opened: Awaited<ReturnType<typeof openWorkbook>>;
  try {
    opened = await openWorkbook(file, keysFromEnv(), [], {
      triggerDelays: afterMaxMs === undefined ? {} : { afterMaxMs },
      // The preview's clock is the wall clock; answers wait for their executions' ends (runtime/web/exec.ts).
      wallClock: true,
      ...(timeScale === undefined ? {} : { timeModel: { scale: timeScale } }),
      ...(lockOrder === 'fifo' ? {} : { lockOrder: { order: 'random', seed: Number(lockOrder.split(':')[1] ?? 1) } }),
    });
  } catch (e) {
    unmark();
    throw e;
  }
  const { rt, fresh } = opened;
  // The demo team goes into a workbook without a team only: one with a team of its own (the demo's, or a real one a
  // person entered) is served as it is.
  const seeded = demo && membersOf(rt).length === 0;
  const log = (text: string) => void warn(`kaigi serve: ${text}`);
  const dialogs = Object.fromEntries(Object.entries(DIALOGS).map(([name, d]) => [name, d.fn]));
  const web = new WebServer(rt, {
    host,
    port,
    log,
    pages: { locale, dialogs, sidebar: 'openSidebar' },
    index: previewIndex(rt, file),
  });
  const loop = new TriggerLoop(rt, log);
  const saver = new Saver(rt, file, () => web.executions + loop.executions);
  // Listened for before the address is printed, so a supervisor's signal right after it is not lost.
  const signal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  let periodic: NodeJS.Timeout | undefined;
  try {
    await allowSavedModelServer(rt);
    if (seeded) await call(rt, DEMO_LOADER);
    // A new workbook is saved at once, so it exists for `kaigi token create` while this runs and the journal has a
    // snapshot to follow; a journal replayed on opening (after a kill) is folded into the workbook at once.
    if (fresh || seeded || rt.replayed > 0) await saver.save(true);
    // Every change is journaled and fsync'd before the request that made it is answered; saves compact the journal.
    await rt.attachJournal(file);
    let url = '';
    try {
      url = await web.start();
    } catch (e) {
      throw new InputError(`cannot listen on ${host}:${port}: ${(e as Error).message}`);
    }
    loop.start();
    periodic = setInterval(() => {
      saver.save().catch((e: Error) => log(`saving ${file} failed: ${e.message}`));
      for (const records of [rt.executions, rt.logs])
        if (records.length > KEEP_RECORDS) records.splice(0, records.length - KEEP_RECORDS);
    }, SAVE_EVERY_MS);
    await print(`listening on ${url}`);
    if (demo)
      await warn(
        `kaigi serve: ${fresh ? 'made' : 'opened'} the demo workbook ${file}` +
          (seeded ? ' and loaded the demo team' : ` (its team: ${membersOf(rt).length})`),
      );
    await warn(
      `kaigi serve: preview ${url}/ (the index of these, in Japanese and English, and of the API and MCP), ` +
        `${url}/sidebar, ${url}/dialog/{${Object.keys(DIALOGS).join(',')}}, ${url}/dashboard`,
    );
    await warn(`kaigi serve: ${await signal}: finishing running executions, saving ${file}`);
    clearInterval(periodic);
    await Promise.all([web.stop(), loop.stop()]);
    await saver.save(true);
    return 0;
  } finally {
    clearInterval(periodic);
    await Promise.all([web.stop(0), loop.stop()]);
    await rt.close();
    unmark();
  }
}

export const serveCommand: Command = {
  name: 'serve',
  options: ['workbook', 'port', 'host', 'after-max-ms', 'locale', 'time-scale', 'lock-order'],
  flags: ['demo'],
  run: ({ opts }) => serve(opts),
};
