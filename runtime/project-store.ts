// A runtime's project on disk: saved as one snapshot (the workbook's .xlsx, each created spreadsheet's, the sidecar;
// snapshot-commit.ts) and opened again with the journal's later changes replayed on it (host/journal.ts).
import fs from 'node:fs';
import path from 'node:path';
import { FormatError } from './host/format-errors.js';
import { journalFile } from './host/journal.js';
import { parseJournal } from './host/journal-records.js';
import { replayJournal } from './host/journal-replay.js';
import type { Clock } from './host/clock.js';
import type { HostState } from './host/handler.js';
import type { Journal } from './host/journal.js';
import type { PropertyStore } from './host/properties-store.js';
import type { SpreadsheetFiles } from './host/spreadsheets.js';
import { shiftTriggers, type TriggerStore } from './host/triggers.js';
import { zoneOffsetMinutes } from './host/values.js';
import type { Workbook } from './host/workbook.js';
import { loadXlsx, xlsxBytes } from './host/xlsx.js';
import { projectFile, projectText, readProject, spreadsheetFile } from './project-file.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { SavedClock } from './saved-clock.js';
import { commitNote, commitSnapshot, recoverSnapshot, type SnapshotPart } from './snapshot-commit.js';

// The part of a Runtime (runtime.ts) that a save reads and an open fills in. Runtime builds itself with openProject
// and saves with saveProject, so this module names what it needs instead of importing Runtime back.
interface ProjectRuntime {
  workbook: Workbook;
  readonly spreadsheets: SpreadsheetFiles;
  readonly savedClock: SavedClock;
  readonly clock: Clock;
  readonly scriptProperties: PropertyStore;
  readonly documentProperties: PropertyStore;
  readonly userPropertyStores: Map<string, PropertyStore>;
  userProperties(user: string): PropertyStore;
  readonly triggers: TriggerStore;
  readonly secretKeys: readonly string[];
  readonly manifest: { timeZone: string };
  journal: Journal | undefined;
  journalSeq: number;
  replayed: number;
  hostState(): HostState;
  close(): Promise<void>;
}

const JOURNAL = 'the journal';

// The workbook goes to .xlsx, and each spreadsheet the scripts created to its own .xlsx beside it; project state that
// is not part of a spreadsheet (script properties, triggers, the clock, who owns which spreadsheet) goes to a
// versioned sidecar next to it (project-file.ts), never into a cell. The clock saved is the simulated one, with the
// trigger times on it, whichever clock the runtime runs on (saved-clock.ts). All of it is taken before the first
// await, so the snapshot is one instant of the state: the one after journal record `seq`.
export async function saveProject(rt: ProjectRuntime, file: string): Promise<void> {
  const seq = rt.journal?.seq ?? rt.journalSeq;
  const xlsxPart = (to: string, wb: Workbook): SnapshotPart => {
    const x = xlsxBytes(wb);
    return { to, bytes: async () => x };
  };
  const parts = [xlsxPart(file, rt.workbook)];
  const spreadsheets = [];
  for (const [id, f] of rt.spreadsheets.all()) {
    const to = spreadsheetFile(file, id);
    parts.push(xlsxPart(to, f.workbook));
    spreadsheets.push({
      id,
      owner: f.owner,
      file: path.basename(to),
      ...(f.editors.length ? { editors: f.editors } : {}),
    });
  }
  const sidecar = projectText({
    spreadsheets,
    clockOffset: rt.savedClock.offset(),
    scriptProperties: Object.fromEntries(
      Object.entries(rt.scriptProperties.all()).filter(([k]) => rt.secretKeys.indexOf(k) < 0),
    ),
    documentProperties: rt.documentProperties.all(),
    userProperties: Object.fromEntries([...rt.userPropertyStores].map(([u, s]) => [u, s.all()])),
    triggers: shiftTriggers(rt.triggers.triggers, rt.savedClock.toSaved()),
    journalSeq: seq,
  });
  parts.push({ to: projectFile(file), bytes: async () => sidecar });
  await commitSnapshot(file, parts);
  const journal = journalFile(file);
  if (rt.journal?.file === journal) await rt.journal.compact(seq);
  else if (!rt.journal && fs.existsSync(journal)) {
    // A runtime that replayed the journal and saved everything in it: the journal is done with. One that belongs
    // to the workbook this save replaced is stale.
    const parsed = parseJournal(fs.readFileSync(journal), journal);
    if (!parsed || parsed.header.workbook !== rt.workbook.id || parsed.records.every((r) => r.n <= seq))
      await fs.promises.rm(journal, { force: true });
  }
}

// What a save changes: a reader that sees it change while reading reads again.
function stamp(file: string): string {
  const of = (f: string) => {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    return st ? [st.ino, st.size, st.mtimeMs] : null;
  };
  return JSON.stringify([fs.existsSync(commitNote(file)), of(file), of(projectFile(file))]);
}

// One read of the project; null when a save of a running `kaigi serve` changed it meanwhile.
async function readOnce<R extends ProjectRuntime>(
  file: string,
  opts: RuntimeOptions,
  make: (o: RuntimeOptions) => R,
): Promise<R | null> {
  const before = stamp(file);
  if (fs.existsSync(commitNote(file))) return null;
  const journal = journalFile(file);
  if (!fs.existsSync(file)) {
    if (fs.existsSync(journal)) throw new FormatError(journal, JOURNAL, `the workbook it follows is missing (${file})`);
    return make(opts);
  }
  const project = readProject(file);
  const rt = make({ ...opts, workbook: await loadXlsx(file) });
  try {
    if (project) {
      rt.savedClock.open(project.clockOffset);
      rt.scriptProperties.set(project.scriptProperties);
      rt.documentProperties.set(project.documentProperties);
      for (const [u, props] of Object.entries(project.userProperties)) rt.userProperties(u).set(props);
      rt.triggers.restore(project.triggers);
      // A listed spreadsheet that cannot be read stops the load too: starting without it would lose it at the next save.
      for (const saved of project.spreadsheets) {
        const from = path.join(path.dirname(file), saved.file);
        if (!fs.existsSync(from))
          throw new FormatError(file, 'the project', `the spreadsheet ${saved.id} it lists is missing (${from})`);
        const wb = await loadXlsx(from);
        if (wb.id !== saved.id)
          throw new FormatError(from, 'a spreadsheet of the project', `it holds ${wb.id}, not ${saved.id}`);
        rt.spreadsheets.adopt(wb, saved.owner, saved.editors);
      }
    }
    const saved = project?.journalSeq ?? 0;
    let seq = saved;
    const parsed = fs.existsSync(journal) ? parseJournal(fs.readFileSync(journal), journal) : null;
    if (parsed) {
      if (parsed.header.workbook !== rt.workbook.id)
        throw new FormatError(
          journal,
          JOURNAL,
          `it belongs to workbook ${parsed.header.workbook}, not ${rt.workbook.id}`,
        );
      if (parsed.header.after > seq) {
        if (opts.recover !== false)
          throw new FormatError(journal, JOURNAL, `it follows record ${parsed.header.after}; the sidecar holds ${seq}`);
        await rt.close();
        return null;
      }
      try {
        seq = replayJournal(rt.hostState(), parsed.records, seq, (offset) => rt.savedClock.replay(offset));
      } catch (e) {
        // Never a partial state: the changes after it were acknowledged too.
        throw new FormatError(journal, JOURNAL, (e as Error).message);
      }
    }
    if (stamp(file) !== before) {
      await rt.close();
      return null;
    }
    // Trigger times are saved on the simulated clock; a runtime on real time has them on its own.
    const zone = (time: number) => zoneOffsetMinutes(time, rt.manifest.timeZone) * 60000;
    rt.triggers.rebase(-rt.savedClock.toSaved(), rt.clock.now(), zone);
    rt.journalSeq = seq;
    rt.replayed = parsed ? parsed.records.filter((r) => r.n > saved).length : 0;
    return rt;
  } catch (e) {
    await rt.close();
    throw e;
  }
}

// A sidecar, metadata sheet or journal this runtime cannot read stops the load with a FormatVersionError or
// FormatError; it is never replaced by a fresh project. An interrupted save is finished (or its temporary files
// removed) first, unless `recover` is false: a reader beside a running `kaigi serve` then waits for its save instead.
export async function openProject<R extends ProjectRuntime>(
  file: string,
  opts: RuntimeOptions,
  make: (o: RuntimeOptions) => R,
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    if (opts.recover !== false) await recoverSnapshot(file);
    const rt = await readOnce(file, opts, make);
    if (rt) return rt;
    if (attempt >= 300) throw new Error(`${file} kept changing while it was read (saves of a running kaigi serve)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
