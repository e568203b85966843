// The worker loads the next execution's context ahead of it: an execution must not be able to tell.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCached } from '../../runtime/code-cache.js';
import { findRoot } from '../../runtime/runtime.js';
import { withRuntime } from '../helpers.js';

const root = findRoot();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-preload-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// A project of the built file's manifest and worker, with the given global code and its functions as entry points.
function project(name: string, code: string, entries: string[]): string {
  const to = path.join(dir, name);
  const gasDir = path.join(to, 'dist', 'gas');
  fs.mkdirSync(gasDir, { recursive: true });
  fs.copyFileSync(path.join(root, 'dist', 'gas', 'appsscript.json'), path.join(gasDir, 'appsscript.json'));
  fs.writeFileSync(path.join(gasDir, 'Code.js'), code);
  fs.writeFileSync(path.join(gasDir, 'entry-points.json'), JSON.stringify(entries));
  fs.symlinkSync(path.join(root, 'dist', 'node'), path.join(to, 'dist', 'node'));
  return to;
}

describe('contexts loaded ahead of their execution', () => {
  it('global code that reads the clock runs at its own execution start, however long before the worker was idle', async () => {
    const to = project(
      'clock',
      // A load ahead of the execution finds no clock to read; one that caught that and went on must not be kept.
      'var LOADED; try { LOADED = Date.now(); } catch (e) { LOADED = -1; }\n' +
        'var N = (globalThis.n = (globalThis.n || 0) + 1); function when() { return [LOADED, Date.now(), N]; }',
      ['when'],
    );
    await withRuntime(
      async (rt) => {
        for (let i = 0; i < 4; i++) {
          const r = await rt.run('when', [], { kind: 'menu' });
          expect(r.ok, r.error?.message).toBe(true);
          const [loaded, now, n] = r.value as number[];
          expect(now - loaded).toBeGreaterThanOrEqual(0);
          expect(now - loaded).toBeLessThan(1000);
          expect(loaded).toBeGreaterThanOrEqual(r.startedAt);
          expect(n).toBe(1);
          rt.clock.advance(3_600_000);
        }
      },
      { root: to },
    );
  });

  it('runs every execution, back to back, in a context of its own loaded without any service call', async () => {
    const to = project(
      'fresh',
      'var SEEN = globalThis.seen; globalThis.seen = true; function fresh() { var s = SEEN; SEEN = "used"; return s === undefined; }',
      ['fresh'],
    );
    await withRuntime(
      async (rt) => {
        const runs = await Promise.all([1, 2, 3].map(() => rt.run('fresh', [], { kind: 'menu' })));
        for (let i = 0; i < 5; i++) runs.push(await rt.run('fresh', [], { kind: 'menu' }));
        expect(runs.map((r) => [r.ok, r.value])).toEqual(runs.map(() => [true, true]));
      },
      { root: to },
    );
  });
});

describe('the code cache after an execution', () => {
  it('keeps what a long execution compiled, even when the runtime closes as soon as it ends', async () => {
    // Functions the global code never calls: compiled only when `all` runs them (hundreds of KB of bytecode).
    const fns = Array.from({ length: 3000 }, (_, i) => {
      const body = Array.from({ length: 12 }, (_, k) => `s = (s * ${k + 3} + n + ${i}) % 1000003;`).join(' ');
      return `function f${i}(n) { var s = ${i}; ${body} return s; }`;
    });
    const code = `${fns.join('\n')}\nfunction all() { var t = 0; ${fns.map((_, i) => `t += f${i}(${i});`).join(' ')} return t; }`;
    const to = project('grow', code, ['all']);
    // What a cache made right after the global code weighs, made here in a folder of its own.
    const alone = compileCached(code, 'Code.js', path.join(dir, 'grow-alone'));
    alone.script.runInNewContext({});
    alone.save();
    const [name] = fs.readdirSync(path.join(dir, 'grow-alone'));
    const topLevelOnly = fs.statSync(path.join(dir, 'grow-alone', name)).size;
    const hash = crypto.createHash('sha256').update(code).digest('hex').slice(0, 16);
    const file = path.join(root, 'dist', 'node', 'code-cache', `Code.js.${hash}.v8cache`);
    fs.rmSync(file, { force: true });
    await withRuntime(
      async (rt) => {
        const r = await rt.run('all', [], { kind: 'menu' });
        expect(r.ok, r.error?.message).toBe(true);
      },
      { root: to },
    );
    expect(fs.statSync(file).size).toBeGreaterThan(topLevelOnly + 100 * 1024);
    fs.rmSync(file, { force: true });
  });
});
