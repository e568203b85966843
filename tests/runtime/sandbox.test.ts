// The built file and the context it runs in: only Apps Script's globals, no side effects at load.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { findRoot } from '../../runtime/runtime.js';
import { gas, withRuntime } from '../helpers.js';

const root = findRoot();
const code = fs.readFileSync(path.join(root, 'dist', 'gas', 'Code.js'), 'utf8');
const SERVICES = [
  'SpreadsheetApp',
  'PropertiesService',
  'CacheService',
  'LockService',
  'UrlFetchApp',
  'Utilities',
  'ScriptApp',
  'HtmlService',
  'ContentService',
  'Session',
  'Logger',
  'console',
  'Charts',
  'MimeType',
];

describe('the built Apps Script file', () => {
  it('declares every entry point Apps Script calls as a top-level function', () => {
    for (const name of [
      'onOpen',
      'setup',
      'teardown',
      'tick',
      'doGet',
      'doPost',
      'getSidebarData',
      'saveApiKey',
      'getApiKeyStatus',
      'openSidebar',
    ]) {
      expect(code).toMatch(new RegExp(`^function ${name}\\(`, 'm'));
    }
  });

  it('contains no import or export statement and sits next to the manifest and HTML', () => {
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    const files = fs.readdirSync(path.join(root, 'dist', 'gas'));
    expect(files).toEqual(expect.arrayContaining(['Code.js', 'appsscript.json', 'sidebar.html', 'settings.html']));
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'gas', 'appsscript.json'), 'utf8'));
    expect(manifest.runtimeVersion).toBe('V8');
    expect(manifest.timeZone).toBe('Asia/Tokyo');
  });

  it('loads into an empty V8 context without touching any service', () => {
    const touched: string[] = [];
    const sandbox: Record<string, unknown> = {};
    for (const name of SERVICES) {
      sandbox[name] = new Proxy(
        {},
        {
          get: (_t, p) => {
            touched.push(`${name}.${String(p)}`);
            return undefined;
          },
        },
      );
    }
    const context = vm.createContext(sandbox);
    vm.runInContext(code, context);
    expect(touched).toEqual([]);
    expect(typeof vm.runInContext('typeof setup', context)).toBe('string');
    expect(vm.runInContext('typeof setup', context)).toBe('function');
    // A context without any service at all also loads it: nothing is called at load time.
    expect(() => vm.runInContext(code, vm.createContext({}))).not.toThrow();
  });

  // Every execution runs the top level in a fresh context: schemas are built on first use (src/core/lazy.ts), since
  // building them at load cost every execution about half of its load (issues 28, 29). Counted in zod's base class.
  it('builds no zod schema at load', () => {
    const BASE = /\$constructor\("\$ZodType", \(inst, def\) => \{/g;
    expect(code.match(BASE)).toHaveLength(1);
    const counted = code.replace(BASE, (m) => `${m} globalThis.schemasBuilt = (globalThis.schemasBuilt || 0) + 1;`);
    const context = vm.createContext({});
    vm.runInContext(counted, context);
    expect(vm.runInContext('globalThis.schemasBuilt || 0', context)).toBe(0);
  });
});

describe('the execution context', () => {
  it('has none of the Web or Node globals Apps Script lacks', async () => {
    await withRuntime(async (rt) => {
      const names = [
        'URL',
        'URLSearchParams',
        'atob',
        'btoa',
        'TextEncoder',
        'TextDecoder',
        'setTimeout',
        'setInterval',
        'fetch',
        'crypto',
        'process',
        'structuredClone',
        'require',
        'performance',
        'Buffer',
        'module',
        'global',
        'SharedArrayBuffer',
        'WebAssembly',
      ];
      const types = await gas(
        rt,
        `return ${JSON.stringify(names)}.map(function (n) { return [n, typeof globalThis[n]]; });`,
      );
      for (const [name, type] of types) expect({ name, type }).toEqual({ name, type: 'undefined' });
    });
  });

  it('has the Apps Script services as globals', async () => {
    await withRuntime(async (rt) => {
      const types = await gas(
        rt,
        `return ${JSON.stringify(SERVICES)}.map(function (n) { return typeof globalThis[n]; });`,
      );
      expect(new Set(types)).toEqual(new Set(['object']));
    });
  });

  it('gives each execution a fresh global scope', async () => {
    await withRuntime(async (rt) => {
      await gas(rt, 'globalThis.leftover = 42; return true;');
      expect(await gas(rt, 'return typeof leftover;')).toBe('undefined');
    });
  });

  it('runs Date on the runtime clock', async () => {
    await withRuntime(async (rt) => {
      rt.clock.advance(10 * 24 * 3600_000);
      const t = await gas(
        rt,
        'var d = new Date(); return [d.getTime(), Date.now(), d instanceof Date, Object.prototype.toString.call(d), typeof Date()];',
      );
      expect(Math.abs(t[0] - rt.clock.now())).toBeLessThan(5000);
      expect(Math.abs(t[1] - t[0])).toBeLessThan(1000);
      expect(t.slice(2)).toEqual([true, '[object Date]', 'string']);
    });
  });
});
