// kaigi serve: the web app on the local runtime as Apps Script serves it (runtime/web/), the sidebar, dialogs and
// Dashboard as preview pages, triggers firing on the real clock (not the simulated one a `kaigi run` saved, which is
// kept as it was: cli/shared.ts), every change journaled before it is acknowledged, the workbook saved (and the
// journal compacted) periodically and on SIGINT/SIGTERM. Nothing it prints holds a token.
import path from 'node:path';
import type { Runtime } from '../../runtime/runtime.js';
import { TriggerLoop } from '../../runtime/web/trigger-loop.js';
import { WebServer } from '../../runtime/web/server.js';
import {
  allowLocalModel,
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
} from '../shared.js';

const SAVE_EVERY_MS = 30_000;
// /dialog/NAME → the entry point a menu item runs to show it (src/entries/dialogs.ts).
const DIALOGS: Record<string, string> = {
  start: 'showStartDialog',
  settings: 'showSettings',
  'api-clients': 'showApiClients',
};
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
  const file = path.resolve(need(opts, 'workbook'));
  const port = integer(opts, 'port', 8080, 65535)!;
  const host = String(opts.host ?? '127.0.0.1');
  const afterMaxMs = integer(opts, 'after-max-ms', undefined, 24 * 3600_000);
  const timeScale = share(opts, 'time-scale');
  // The language of a previewed page whose URL names none (?locale=ja|en), as the user's locale would.
  const locale = String(opts.locale ?? 'ja');
  if (!/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/.test(locale)) throw new UsageError('--locale must look like ja or en');
  const unmark = markServed(file);
  let opened: Awaited<ReturnType<typeof openWorkbook>>;
  try {
    opened = await openWorkbook(file, keysFromEnv(), [], {
      triggerDelays: afterMaxMs === undefined ? {} : { afterMaxMs },
      // The preview's clock is the wall clock; answers wait for their executions' ends (runtime/web/exec.ts).
      wallClock: true,
      ...(timeScale === undefined ? {} : { timeModel: { scale: timeScale } }),
    });
  } catch (e) {
    unmark();
    throw e;
  }
  const { rt, fresh } = opened;
  const log = (text: string) => void warn(`kaigi serve: ${text}`);
  const web = new WebServer(rt, { host, port, log, pages: { locale, dialogs: DIALOGS, sidebar: 'openSidebar' } });
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
    // A new workbook is saved at once, so it exists for `kaigi token create` while this runs and the journal has a
    // snapshot to follow; a journal replayed on opening (after a kill) is folded into the workbook at once.
    if (fresh || rt.replayed > 0) await saver.save(true);
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
    await warn(
      `kaigi serve: preview ${url}/sidebar, ${url}/dialog/{${Object.keys(DIALOGS).join(',')}}, ${url}/dashboard`,
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
  options: ['workbook', 'port', 'host', 'after-max-ms', 'locale', 'time-scale'],
  run: ({ opts }) => serve(opts),
};
