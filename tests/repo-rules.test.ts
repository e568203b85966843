// The house rules on every source file (TypeScript, scripts, pages): at most 400 lines, a summary comment first.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const DIRS = ['src', 'runtime', 'tools', 'bench', 'tests', 'sheets-schema', 'cli', 'scripts', 'bin'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : sources(p);
    return /\.(ts|html|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

const files = DIRS.filter((d) => fs.existsSync(path.join(root, d))).flatMap((d) => sources(path.join(root, d)));
const rel = (f: string) => path.relative(root, f);

describe('every source file', () => {
  it('is found (the walk reaches the sources)', () => {
    expect(files.map(rel)).toContain(path.join('src', 'main.ts'));
    expect(files.length).toBeGreaterThan(300);
  });

  it('is at most 400 lines', () => {
    const long = files
      .map((f) => ({ f: rel(f), n: fs.readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter((x) => x.n > 400);
    expect(long).toEqual([]);
  });

  it("opens with a summary comment (after an HTML page's doctype or a script's #! line)", () => {
    const bare = files.filter((f) => {
      const lines = fs.readFileSync(f, 'utf8').split('\n');
      const first = /^(<!DOCTYPE|#!)/i.test(lines[0]) ? lines[1] : lines[0];
      return !/^(\/\/ |<!-- )\S/.test(first ?? '');
    });
    expect(bare.map(rel)).toEqual([]);
  });

  it('has a kebab-case name', () => {
    const bad = files.map(rel).filter((f) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/.test(path.basename(f)));
    expect(bad).toEqual([]);
  });
});

// zod's own `z` holds all of zod: imported as a value anywhere in src/, the bundle carries every part of zod again and
// builds a getter for each in every execution (src/core/zod.ts). Types may come from 'zod' directly.
describe("src/'s zod", () => {
  const ALLOWED = [path.join('src', 'core', 'zod-names.ts'), path.join('src', 'core', 'zod-setup.ts')];
  it('comes through src/core/zod.ts, not from zod itself', () => {
    const direct = files
      .filter((f) => rel(f).startsWith(`src${path.sep}`) && !ALLOWED.includes(rel(f)))
      .filter((f) => /^import\s+(?!type\b)[^;]*from\s+'zod(\/[^']*)?';/m.test(fs.readFileSync(f, 'utf8')));
    expect(direct.map(rel)).toEqual([]);
  });
});
