// Builds dist/ before the tests when it is missing or older than anything it is built from, so no run tests a stale bundle.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

// Everything scripts/build.mjs reads: the bundle's sources, the runtime, the CLI and the tools it bundles, the build itself.
const INPUTS = [
  'src',
  'runtime',
  'cli',
  'sheets-schema',
  'tools',
  'bench',
  'scripts',
  'package.json',
  'appsscript.json',
];

// What scripts/build.mjs writes; bench.js only exists when bench/ does.
function outputs(): string[] {
  const out = [
    'dist/gas/Code.js',
    'dist/gas/appsscript.json',
    'dist/gas/entry-points.json',
    'dist/node/apps-script-globals.js',
    'dist/node/worker.js',
    'dist/node/cli.js',
  ];
  if (fs.existsSync(path.join(root, 'bench', 'bench.ts'))) out.push('dist/node/bench.js');
  return out.map((p) => path.join(root, p));
}

// The newest file under the inputs, by modification time; only stats are read, so this stays cheap.
function newestInput(): { file: string; mtime: number } {
  let newest = { file: '', mtime: 0 };
  const visit = (p: string): void => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p))
        if (!name.startsWith('.') && name !== 'node_modules') visit(path.join(p, name));
    } else if (st.mtimeMs > newest.mtime) newest = { file: p, mtime: st.mtimeMs };
  };
  for (const p of INPUTS) visit(path.join(root, p));
  return newest;
}

// Why dist/ must be rebuilt, or null when every output is newer than every input.
function staleReason(): string | null {
  let oldest = Number.POSITIVE_INFINITY;
  for (const f of outputs()) {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    if (!st) return `${path.relative(root, f)} is missing`;
    oldest = Math.min(oldest, st.mtimeMs);
  }
  const input = newestInput();
  return input.mtime > oldest ? `${path.relative(root, input.file)} is newer than dist/` : null;
}

export default function setup(): void {
  const reason = staleReason();
  if (!reason) return;
  console.log(`rebuilding: ${reason}`);
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
