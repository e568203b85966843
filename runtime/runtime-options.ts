// How a local runtime is made (its options), what a snapshot of it holds, and where the project it runs lives.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Entry as CacheEntry } from './host/cache-store.js';
import type { AccountType, QuotaSnapshot } from './host/quota.js';
import type { TimeModelOptions } from './host/time-model.js';
import type { SpreadsheetFiles } from './host/spreadsheets.js';
import type { TriggerDelays, TriggerModel } from './host/triggers.js';
import type { RuntimeUser } from './host/users.js';
import type { Workbook } from './host/workbook.js';
import type { ClockMode } from './saved-clock.js';
import { useScriptZone } from './script-zone.js';

export interface RuntimeOptions {
  root?: string;
  workbook?: Workbook;
  owner?: string;
  executionLimitMs?: number;
  // Test-only: the runtime's own tests shorten UrlFetchApp's fixed 60 s to see a time-out quickly. Host-side only:
  // nothing in Apps Script code (fetch parameters included) can change it.
  fetchTimeoutMs?: number;
  // Local origins (e.g. 'http://127.0.0.1:8080') UrlFetchApp may reach although Google's servers could not: set only
  // by the CLI for a local --base-url (and by tests and the bench that use tools/model-server.ts, the same way).
  // Without it, loopback, private and link-local addresses fail as they do in Apps Script (host/http.ts).
  allowLocalFetch?: readonly string[];
  echoLogs?: boolean;
  scriptProperties?: Record<string, string>;
  // Sets the clock so that "now" starts at this instant (epoch ms); time then runs on from there.
  startAt?: number;
  // Runtime.open: which clock runs (saved-clock.ts). 'simulated' (the default: tests and `kaigi run` move the clock)
  // applies the offset the project saved; 'real' (`kaigi serve` and the other commands) runs on the host's clock and
  // keeps the saved offset, untouched, for the next simulated run.
  clock?: ClockMode;
  // The runtime's clock stays the wall clock (`kaigi serve`, which answers each request at its execution's end):
  // an execution's modelled time (host/time-model.ts) moves only its own clock. Otherwise the runtime's clock
  // catches up with each execution's end, so what starts after an execution has ended starts after it on Apps
  // Script's clock too (the CLI's one-shot commands then find the work an execution queued as due).
  wallClock?: boolean;
  // Script properties for this process only (API keys from the environment): visible to executions, never saved.
  secrets?: Record<string, string>;
  // Which daily quotas apply: a consumer account's (the default) or a Workspace account's.
  accountType?: AccountType;
  // The time zone of a new workbook (the spreadsheet's own, which may differ from the script's
  // appsscript.json zone); defaults to the script's. Saved with the workbook; a loaded workbook keeps its own.
  spreadsheetTimeZone?: string;
  // Other accounts that use the spreadsheet (editors). Session.getActiveUser().getEmail() names a user only when the
  // runtime is told they share the owner's Workspace domain; everyone else gets '' as in Apps Script.
  users?: RuntimeUser[];
  // The bound spreadsheet lives on a shared drive, so it has no owner: Spreadsheet.getOwner() returns null.
  sharedDrive?: boolean;
  // How late after(ms) and daily triggers fire: a seed for the draws and the most an after() trigger is late
  // (host/triggers.ts; defaults DEFAULT_TRIGGER_DELAYS).
  triggerDelays?: Partial<TriggerDelays>;
  // What service calls cost on Apps Script's clock is always modelled (host/time-model.ts); this seeds the draws and
  // can make every UrlFetchApp call take longer (a slow model) without anyone waiting for it.
  timeModel?: Partial<TimeModelOptions>;
  // Cache entries lost early, as Google allows: each read of a live entry misses with this chance (seeded). Off by
  // default; the chaos bench and one end-to-end test turn it on.
  cacheMiss?: { rate: number; seed?: number };
  // Waiters get a released lock in seeded random order instead of first come first served (host/locks.ts).
  lockOrder?: { order: 'random'; seed: number };
  // Runtime.open only: an interrupted save is finished (or its temporary files removed) first. A reader beside a
  // running `kaigi serve` sets false and waits for the save under way instead (project-store.ts).
  recover?: boolean;
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

// The build's list of the script's top-level function declarations (dist/gas/entry-points.json): the only names an
// execution may start.
function readEntryPoints(file: string): string[] {
  const list: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(list) || !list.every((n) => typeof n === 'string'))
    throw new Error(`${file} should list the script's function names`);
  return list;
}

export interface Manifest {
  timeZone: string;
  oauthScopes: string[];
  webapp?: unknown;
}

// The built project (dist/gas): its manifest, its HTML files ({name: text}) as JSON, and its entry points. Reading
// the manifest makes the process's local time the script's zone (script-zone.ts), before any execution's thread starts.
export function readBuilt(gasDir: string): { manifest: Manifest; filesJson: string; entryPoints: string[] } {
  const file = path.join(gasDir, 'appsscript.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  useScriptZone(manifest.timeZone, file);
  const files: Record<string, string> = {};
  for (const f of fs.readdirSync(gasDir))
    if (f.endsWith('.html')) files[f.replace(/\.html$/, '')] = fs.readFileSync(path.join(gasDir, f), 'utf8');
  return {
    manifest,
    filesJson: JSON.stringify(files),
    entryPoints: readEntryPoints(path.join(gasDir, 'entry-points.json')),
  };
}

export interface RuntimeSnapshot {
  workbook: Workbook;
  spreadsheets: SpreadsheetFiles;
  script: Record<string, string>;
  document: Record<string, string>;
  triggers: TriggerModel[];
  clockOffset: number;
  caches: [string, [string, CacheEntry][]][];
  quota: QuotaSnapshot;
}
