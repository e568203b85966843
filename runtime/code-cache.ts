// V8's code cache for the built script, kept on disk so each worker thread and each process skips compiling Code.js.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import v8 from 'node:v8';
import { threadId } from 'node:worker_threads';

// A cache file is the source's SHA-256 followed by V8's cached data. V8 itself checks only the source's length and its
// own version and flags, so the hash is what ties a cache to the very text it was made from: another Code.js (a test
// project's, the next build's) never runs on bytecode compiled from a different one.
const HASH_BYTES = 32;

export interface CompiledScript {
  script: vm.Script;
  // Call after the script's top level has run once: the cache then holds the functions that run compiled too.
  // Does nothing when the cache on disk was used, or after the first call.
  save(): void;
  // V8 compiles a function when it is first called. A cache made after the top level holds only what the top level
  // ran, so every new thread compiled the engine's functions again during its first discussion (about 25 ms of a
  // tick's 120 ms CPU on the 2-core machine). After an execution, wantsGrow says whether this thread has compiled
  // enough since its last save to be worth a larger cache, and grow writes one when it holds more than the cache on
  // disk. Threads that start from the grown cache compile little, so they stop growing it.
  wantsGrow(): boolean;
  grow(): void;
}

// New bytecode (bytes, this thread's isolate) that makes a larger cache worth writing: one discussion's tick compiles
// about 300 KB on a thread that started from the top level's cache; a menu function a few KB.
const GROW_BYTES = 64 * 1024;

function bytecodeBytes(): number {
  return v8.getHeapCodeStatistics().bytecode_and_metadata_size;
}

// Compiles `source` with the cache in `dir` when it was made from the same text, else compiles it afresh and lets the
// caller save a new cache. Only real time changes: the script, its file name and what it does are the same.
export function compileCached(source: string, filename: string, dir: string): CompiledScript {
  const hash = crypto.createHash('sha256').update(source).digest();
  const file = path.join(dir, `${path.basename(filename)}.${hash.toString('hex').slice(0, 16)}.v8cache`);
  const stored = readCache(file, hash);
  const script = new vm.Script(source, { filename, ...(stored ? { cachedData: stored } : {}) });
  let fresh = !stored || script.cachedDataRejected === true;
  // The bytecode this thread held at its last save (or at the first run of the top level): the mark growth counts from.
  let mark = -1;
  return {
    script,
    save() {
      if (fresh) writeCache(file, hash, script.createCachedData());
      fresh = false;
      if (mark < 0) mark = bytecodeBytes();
    },
    wantsGrow: () => mark >= 0 && bytecodeBytes() - mark >= GROW_BYTES,
    grow() {
      mark = bytecodeBytes();
      const data = script.createCachedData();
      // Another thread may have written a larger cache meanwhile (made from what it compiled): that one stays.
      if (data.length + HASH_BYTES > sizeOnDisk(file)) writeCache(file, hash, data);
    },
  };
}

function sizeOnDisk(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch (e) {
    if (typeof (e as NodeJS.ErrnoException).code === 'string') return 0;
    throw e;
  }
}

function readCache(file: string, hash: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    // No cache yet (the first thread after a build), or none readable: the script is compiled from its source.
    if (typeof (e as NodeJS.ErrnoException).code === 'string') return undefined;
    throw e;
  }
  if (bytes.length <= HASH_BYTES || !bytes.subarray(0, HASH_BYTES).equals(hash)) return undefined;
  return bytes.subarray(HASH_BYTES);
}

// Written to a file of this thread's own and renamed into place, so threads and processes that start together never
// read a half-written cache; the last rename wins, and every one of them holds a cache of the same text.
function writeCache(file: string, hash: Buffer, data: Buffer): void {
  const tmp = `${file}.${process.pid}-${threadId}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, Buffer.concat([hash, data]));
    fs.renameSync(tmp, file);
  } catch (e) {
    // A cache that cannot be written (a read-only install, or dist/ removed by a rebuild meanwhile) costs only the
    // compile time it would have saved, and must not fail the load it follows: a file-system error ends here.
    if (typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
    if (fs.existsSync(tmp)) fs.rmSync(tmp, { force: true });
  }
}
