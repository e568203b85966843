// V8's code cache for the built script: used only for the very text it was made from, and it changes no result.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCached } from '../../runtime/code-cache.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-code-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Runs the script's top level in a fresh context and returns its `result`.
function run(script: vm.Script): unknown {
  const context = vm.createContext({});
  script.runInContext(context);
  return vm.runInContext('result()', context);
}

describe('the code cache', () => {
  it('is written once after the first run, then used by the next compile with the same result', () => {
    const cacheDir = path.join(dir, 'once');
    const source = 'function result() { return [1, 2, 3].map(function (n) { return n * 7; }); }';
    const first = compileCached(source, 'Code.js', cacheDir);
    expect(fs.existsSync(cacheDir)).toBe(false);
    expect(run(first.script)).toEqual([7, 14, 21]);
    first.save();
    const files = fs.readdirSync(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^Code\.js\.[0-9a-f]{16}\.v8cache$/);
    const written = fs.statSync(path.join(cacheDir, files[0])).mtimeMs;

    const second = compileCached(source, 'Code.js', cacheDir);
    expect(second.script.cachedDataRejected).toBe(false);
    second.save();
    expect(fs.statSync(path.join(cacheDir, files[0])).mtimeMs).toBe(written);
    expect(run(second.script)).toEqual([7, 14, 21]);
  });

  it('never gives one text the bytecode of another of the same length (V8 checks only the length)', () => {
    const cacheDir = path.join(dir, 'other');
    const a = compileCached('function result() { return "a"; }', 'Code.js', cacheDir);
    run(a.script);
    a.save();
    // The next build's file under the same name, same length: it must run its own text.
    const b = compileCached('function result() { return "b"; }', 'Code.js', cacheDir);
    expect(run(b.script)).toBe('b');
  });

  it('compiles afresh over a cache file whose header is not its text', () => {
    const cacheDir = path.join(dir, 'torn');
    const source = 'function result() { return 42; }';
    const a = compileCached(source, 'Code.js', cacheDir);
    run(a.script);
    a.save();
    const [name] = fs.readdirSync(cacheDir);
    const bytes = fs.readFileSync(path.join(cacheDir, name));
    bytes[0] ^= 0xff;
    fs.writeFileSync(path.join(cacheDir, name), bytes);
    const again = compileCached(source, 'Code.js', cacheDir);
    expect(again.script.cachedDataRejected).toBeUndefined();
    expect(run(again.script)).toBe(42);
    again.save();
    expect(fs.readFileSync(path.join(cacheDir, name)).subarray(0, 1)).not.toEqual(bytes.subarray(0, 1));
  });

  it('saves nothing, and throws nothing, where the cache cannot be written', () => {
    // A file where the cache's folder would be: the folder cannot be made.
    const blocked = path.join(dir, 'blocked');
    fs.writeFileSync(blocked, '');
    const c = compileCached('function result() { return 7; }', 'Code.js', blocked);
    expect(run(c.script)).toBe(7);
    expect(() => c.save()).not.toThrow();
    expect(fs.readFileSync(blocked, 'utf8')).toBe('');
  });

  it('grows with the functions executions compiled, and never shrinks a larger cache on disk', () => {
    const cacheDir = path.join(dir, 'grow');
    // Many functions the top level does not call: compiled only when result() runs them.
    const fns = Array.from({ length: 400 }, (_, i) => {
      const body = Array.from({ length: 20 }, (_, k) => `s = (s * ${k + 3} + n + ${i}) % 1000003;`).join(' ');
      return `function f${i}(n) { var s = ${i}; ${body} return s; }`;
    });
    const source = `${fns.join('\n')}\nfunction result() { var t = 0; ${fns.map((_, i) => `t += f${i}(${i});`).join(' ')} return t; }`;
    const first = compileCached(source, 'Code.js', cacheDir);
    const context = vm.createContext({});
    first.script.runInContext(context);
    first.save();
    const [name] = fs.readdirSync(cacheDir);
    const file = path.join(cacheDir, name);
    const before = fs.statSync(file).size;
    expect(first.wantsGrow()).toBe(false);
    const value = vm.runInContext('result()', context);
    expect(first.wantsGrow()).toBe(true);
    first.grow();
    const grown = fs.statSync(file).size;
    expect(grown).toBeGreaterThan(before + 32 * 1024);
    expect(first.wantsGrow()).toBe(false);

    // Another thread's larger cache written meanwhile (here: the same one with padding) stays as it is.
    fs.appendFileSync(file, Buffer.alloc(1 << 20));
    first.grow();
    expect(fs.statSync(file).size).toBe(grown + (1 << 20));
    fs.truncateSync(file, grown);
    // The grown cache runs the same text to the same result.
    expect(run(compileCached(source, 'Code.js', cacheDir).script)).toBe(value);
  });
});
