// The workbook's journal (<workbook>.journal): every change to the shared state, appended in the order it was applied
// and fsync'd before `kaigi serve` acknowledges a request, so a kill loses nothing it answered. A save compacts it.
import fs from 'node:fs';
import path from 'node:path';
import { FormatError } from './format-errors.js';
import { frame, JOURNAL_VERSION, type JournalEntry, parseJournal } from './journal-records.js';
import { shiftTriggers } from './triggers.js';

export function journalFile(workbookFile: string): string {
  return `${workbookFile}.journal`;
}

// Only the account running the runtime may read it: it holds Script Properties (API keys, token hashes).
export const PRIVATE_MODE = 0o600;

// What the host's service handlers and the runtime write changes through (HostState.journal).
export interface JournalSink {
  append(entry: JournalEntry): void;
}

// A directory's entries (a rename, a new file) are durable only once the directory itself is fsync'd.
export async function syncDir(dir: string): Promise<void> {
  const h = await fs.promises.open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

export interface JournalOptions {
  // The bound workbook's id, written in the header.
  workbook: string;
  // The last record number the state already holds (the sidecar's, plus what was replayed).
  after: number;
  // The saved (simulated) clock's offset now, recorded again whenever it changes (saved-clock.ts).
  clockOffset: () => number;
  // What to add to a trigger time to have it on that clock, as the sidecar keeps them: 0 unless the runtime runs on
  // real time while a simulation's offset is kept (`kaigi serve` after `kaigi run` moved the clock).
  triggerShift: () => number;
  // Script Properties that are never saved (API keys from the environment): never journaled either.
  secretKeys: readonly string[];
}

export class Journal implements JournalSink {
  // The last record number handed out.
  seq: number;
  // Records since the last compaction, in order; those before `written` are in the file.
  private lines: { n: number; text: string }[] = [];
  private written = 0;
  private durable: number;
  private io: Promise<void> = Promise.resolve();
  private failed?: Error;
  private lastClock: number;

  private constructor(
    readonly file: string,
    private handle: fs.promises.FileHandle,
    private readonly o: JournalOptions,
    last: number,
  ) {
    this.seq = last;
    this.durable = last;
    this.lastClock = o.clockOffset();
  }

  // Opens the journal for appending: a torn last line is cut off first; a missing journal is created with its header.
  static async open(file: string, o: JournalOptions): Promise<Journal> {
    let last = o.after;
    if (fs.existsSync(file)) {
      const parsed = parseJournal(fs.readFileSync(file), file);
      if (parsed && parsed.header.workbook !== o.workbook)
        throw new FormatError(
          file,
          'the journal',
          `it belongs to workbook ${parsed.header.workbook}, not ${o.workbook}`,
        );
      if (parsed) {
        const handle = await fs.promises.open(file, 'r+');
        await handle.truncate(parsed.validBytes);
        await handle.chmod(PRIVATE_MODE);
        await handle.sync();
        await handle.close();
        for (const r of parsed.records) last = Math.max(last, r.n);
        return new Journal(file, await fs.promises.open(file, 'a', PRIVATE_MODE), o, last);
      }
    }
    return new Journal(file, await Journal.rewrite(file, o.workbook, o.after, ''), o, last);
  }

  // A new journal file with its header and `body`, written to a temporary name, fsync'd and renamed into place;
  // returned open for appending.
  private static async rewrite(
    file: string,
    workbook: string,
    after: number,
    body: string,
  ): Promise<fs.promises.FileHandle> {
    const tmp = `${file}.kaigi-tmp`;
    const h = await fs.promises.open(tmp, 'w', PRIVATE_MODE);
    try {
      await h.chmod(PRIVATE_MODE);
      await h.writeFile(frame({ journal: JOURNAL_VERSION, workbook, after }) + body);
      await h.sync();
    } finally {
      await h.close();
    }
    await fs.promises.rename(tmp, file);
    await syncDir(path.dirname(file));
    return fs.promises.open(file, 'a', PRIVATE_MODE);
  }

  append(entry: JournalEntry): void {
    const offset = this.o.clockOffset();
    if (offset !== this.lastClock) {
      this.lastClock = offset;
      this.push({ k: 'clock', offset });
    }
    const shift = this.o.triggerShift();
    if (entry.k === 'triggers' && shift !== 0) this.push({ k: 'triggers', list: shiftTriggers(entry.list, shift) });
    else if (entry.k === 'props' && entry.store === 'script') {
      const entries = { ...entry.entries };
      for (const k of this.o.secretKeys) delete entries[k];
      this.push({ ...entry, entries });
    } else if (entry.k !== 'props-delete' || entry.store !== 'script' || !this.o.secretKeys.includes(entry.key))
      this.push(entry);
  }

  private push(entry: JournalEntry): void {
    const n = ++this.seq;
    this.lines.push({ n, text: frame({ ...entry, n }) });
  }

  // Resolves once every record appended before the call is on disk; records appended meanwhile by other executions
  // go in the same write (one fsync for all of them).
  sync(): Promise<void> {
    const target = this.seq;
    return this.queue(async () => {
      const batch = this.lines.slice(this.written);
      if (this.durable >= target || batch.length === 0) return;
      await this.handle.write(batch.map((l) => l.text).join(''));
      await this.handle.datasync();
      this.written += batch.length;
      this.durable = batch[batch.length - 1].n;
    });
  }

  // A snapshot holding every record up to `upTo` is on disk: the journal keeps only the records after it.
  compact(upTo: number): Promise<void> {
    return this.queue(async () => {
      const keep = this.lines.filter((l) => l.n > upTo);
      const fresh = await Journal.rewrite(this.file, this.o.workbook, upTo, keep.map((l) => l.text).join(''));
      const old = this.handle;
      this.handle = fresh;
      await old.close();
      // Records appended while the file was rewritten follow the kept ones, not yet written.
      this.lines = this.lines.filter((l) => l.n > upTo);
      this.written = keep.length;
      // Records up to `upTo` are on disk in the snapshot, the kept ones in the new file.
      this.durable = Math.max(this.durable, upTo, keep.length ? keep[keep.length - 1].n : 0);
    });
  }

  async close(): Promise<void> {
    await this.sync().catch(() => {});
    await this.io;
    await this.handle.close().catch(() => {});
  }

  // One file operation at a time; after a failed one, every later sync fails too: nothing is acknowledged that is
  // not on disk.
  private queue(step: () => Promise<void>): Promise<void> {
    const next = this.io.then(() => {
      if (this.failed) throw this.failed;
      return step().catch((e: Error) => {
        this.failed = e;
        throw e;
      });
    });
    this.io = next.catch(() => {});
    return next;
  }
}
