// The .ts files under a folder, for the repository's rule tests that scan sources (clock, layers, typing, vocabulary).
import fs from 'node:fs';
import path from 'node:path';

export function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}
