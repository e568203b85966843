// The bundle's cost to every execution: Code.js's size and the time a fresh V8 context takes to compile and run it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

export interface BundleResult {
  bytes: number;
  load_ms: number;
  // Each run's time, in order: the first pays for what a fresh process has not warmed yet.
  runs_ms: number[];
}

// dist/node/bench.js sits next to dist/gas/Code.js.
const CODE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'gas', 'Code.js');

// Apps Script compiles the project's files in a new context for every execution: a new vm.Script in a new context
// each run, as the local runtime's worker does. V8 keeps compiled scripts by source text within a process, so each
// run's source differs by a trailing comment: every run compiles afresh. The median of `runs` is load_ms.
export function bundleBench(runs = 9): BundleResult {
  const code = fs.readFileSync(CODE, 'utf8');
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const ctx = vm.createContext({});
    new vm.Script(`${code}\n// run ${i}`, { filename: 'Code.js' }).runInContext(ctx);
    times.push(performance.now() - t0);
    if (typeof (ctx as { tick?: unknown }).tick !== 'function') throw new Error('Code.js defined no tick function');
  }
  const sorted = times.slice().sort((a, b) => a - b);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { bytes: Buffer.byteLength(code, 'utf8'), load_ms: r2(sorted[Math.floor(runs / 2)]), runs_ms: times.map(r2) };
}

export function printBundle(b: BundleResult): void {
  console.log(`\nBundle: Code.js ${b.bytes} bytes, ${b.load_ms} ms to compile and run in a fresh V8 context (median)`);
}
