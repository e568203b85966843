// No import cycles among the sources: a walk over relative imports finds every strongly connected group of files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const DIRS = ['src', 'runtime', 'cli', 'tools', 'bench'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : sources(p);
    return /\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

// Static imports and re-exports, `import type` included: a type-only cycle costs nothing at run time, but it still
// ties two modules together for whoever changes one of them, so it counts. `import('…')` counts too.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(js|mjs|ts)$/, '');
  const tries = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.mjs`, `${stem}.js`, path.join(base, 'index.ts')];
  return tries.find((t) => fs.existsSync(t) && fs.statSync(t).isFile());
}

function graph(files: string[]): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const deps = [...text.matchAll(IMPORT)].map((m) => resolve(f, m[1])).filter((d): d is string => !!d);
    g.set(f, [...new Set(deps)]);
  }
  return g;
}

/** Tarjan's strongly connected components; every component of more than one file (or a self-import) is a cycle. */
function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
    }
    if (low.get(v) !== idx.get(v)) return;
    const comp: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      on.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1 || (g.get(v) ?? []).includes(v)) out.push(comp.sort());
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const rel = (f: string) => path.relative(root, f);
const files = DIRS.filter((d) => fs.existsSync(path.join(root, d))).flatMap((d) => sources(path.join(root, d)));

describe('the import graph', () => {
  it('reaches the sources and their imports', () => {
    const g = graph(files);
    expect(g.size).toBeGreaterThan(300);
    expect(g.get(path.join(root, 'src', 'main.ts'))?.length).toBeGreaterThan(0);
  });

  it('finds a cycle when there is one (the walk can fail)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
  });

  it('reads `import type` and re-exports as edges (a type-only cycle is found)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-imports-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B[];\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "export type { A } from './a.js';\nexport type B = string;\n");
      const g = graph([path.join(dir, 'a.ts'), path.join(dir, 'b.ts')]);
      expect(cycles(g).map((c) => c.map((f) => path.basename(f)))).toEqual([['a.ts', 'b.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no cycle in src, runtime, cli, tools or bench', () => {
    const found = cycles(graph(files)).map((c) => c.map(rel));
    expect(found.map((c) => c.join(' ↔ '))).toEqual([]);
  });
});
