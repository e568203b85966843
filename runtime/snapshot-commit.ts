// Writing a project's files (the workbook's .xlsx, each created spreadsheet's, the sidecar) as one step a kill cannot
// split: each file is written to a temporary name and fsync'd, a commit note lists them, then they are renamed into
// place. A runtime that finds the note at start finishes the renames (recoverSnapshot), so the files on disk are
// always one save's, never a mix of two, and the sidecar's journal position always matches the workbook beside it.
// Every file is written 0600 (its owner's alone), whatever the umask.
import fs from 'node:fs';
import path from 'node:path';
import { FormatError } from './host/format-errors.js';
import { journalFile, PRIVATE_MODE, syncDir } from './host/journal.js';
import { projectFile } from './project-file.js';

const TMP = '.kaigi-tmp';

export interface SnapshotPart {
  // Where the file goes.
  to: string;
  bytes: () => Promise<Buffer | string>;
}

export function commitNote(workbookFile: string): string {
  return `${workbookFile}.commit`;
}

// Every file is its owner's alone (PRIVATE_MODE), whatever the umask and whatever mode the file had: the sidecar holds
// Script Properties (token hashes), and a workbook holds the team's KPI, the council's discussions and the audit.
async function writeDurably(file: string, data: Buffer | string): Promise<void> {
  const h = await fs.promises.open(file, 'w', PRIVATE_MODE);
  try {
    // open() applies the mode only to a file it creates, and through the umask: chmod sets it as it is meant.
    await h.chmod(PRIVATE_MODE);
    await h.writeFile(data);
    await h.sync();
  } finally {
    await h.close();
  }
}

export async function commitSnapshot(workbookFile: string, parts: SnapshotPart[]): Promise<void> {
  const dir = path.dirname(workbookFile);
  for (const part of parts) await writeDurably(part.to + TMP, await part.bytes());
  const note = commitNote(workbookFile);
  const renames = parts.map((p) => [path.basename(p.to + TMP), path.basename(p.to)]);
  await writeDurably(note + TMP, JSON.stringify({ renames }));
  await fs.promises.rename(note + TMP, note);
  await syncDir(dir);
  await finish(dir, renames, false);
  await fs.promises.rm(note, { force: true });
}

// The renames a note lists; when recovering, a temporary file already gone was renamed before the kill.
async function finish(dir: string, renames: string[][], recovering: boolean): Promise<void> {
  for (const [from, to] of renames)
    if (!recovering || fs.existsSync(path.join(dir, from)))
      await fs.promises.rename(path.join(dir, from), path.join(dir, to));
  await syncDir(dir);
}

function readNote(note: string): string[][] {
  let renames: unknown;
  try {
    renames = JSON.parse(fs.readFileSync(note, 'utf8')).renames;
  } catch (e) {
    throw new FormatError(note, 'a save in progress', (e as Error).message);
  }
  const ok = (r: unknown) =>
    Array.isArray(r) && r.length === 2 && r.every((x) => typeof x === 'string' && x === path.basename(x));
  if (!Array.isArray(renames) || !renames.every(ok))
    throw new FormatError(note, 'a save in progress', 'it should list [temporary, final] file names');
  return renames as string[][];
}

// Before a project is opened: a save the note says was complete is finished; the temporary files of one that was not
// are removed (the files in place are then still the previous save's, which the journal follows).
export async function recoverSnapshot(workbookFile: string): Promise<void> {
  const dir = path.dirname(workbookFile);
  const note = commitNote(workbookFile);
  if (fs.existsSync(note)) {
    await finish(dir, readNote(note), true);
    await fs.promises.rm(note, { force: true });
  }
  if (!fs.existsSync(dir)) return;
  // This project's temporary files only: the workbook's, its sidecar's, note's and journal's, and its created
  // spreadsheets' (spreadsheetFile: <base>.<44-character id>.xlsx). Another workbook's in the folder are left alone.
  const file = path.basename(workbookFile);
  const own = new Set([file, projectFile(file), commitNote(file), journalFile(file)].map((f) => f + TMP));
  const base = file.replace(/\.xlsx$/i, '');
  const created = (name: string) =>
    name.startsWith(`${base}.`) && /^1[A-Za-z0-9_-]{43}\.xlsx$/.test(name.slice(base.length + 1, -TMP.length));
  for (const name of await fs.promises.readdir(dir))
    if (name.endsWith(TMP) && (own.has(name) || created(name)))
      await fs.promises.rm(path.join(dir, name), { force: true });
}
