// Builds dist/ before the tests when it is missing, so `npx vitest` works on a fresh clone too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(__dirname, '..');
  if (
    !fs.existsSync(path.join(root, 'dist', 'gas', 'Code.js')) ||
    !fs.existsSync(path.join(root, 'dist', 'node', 'worker.js'))
  ) {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  }
}
