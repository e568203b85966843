// The layers' imports: the use cases (src/app) reach the platform only through the store (src/store) and the ports
// (src/ports.ts), never an adapter; only src/adapters/gas names an Apps Script service; the store and core none.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './source-files.js';

const root = path.resolve(__dirname, '..');

const rel = (f: string) => path.relative(root, f);
// Comments may name a service or a path; only code counts.
const code = (f: string) =>
  fs
    .readFileSync(f, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/ .*$/gm, '');

// Every relative import (static, re-export, `import type`, `import('…')`) that lands in src/adapters.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
function adapterImports(f: string): string[] {
  const adapters = path.join(root, 'src', 'adapters') + path.sep;
  return [...code(f).matchAll(IMPORT)]
    .map((m) => path.resolve(path.dirname(f), m[1]))
    .filter((target) => target.startsWith(adapters))
    .map((target) => `${rel(f)} → ${rel(target)}`);
}

const SERVICES =
  /\b(SpreadsheetApp|PropertiesService|CacheService|LockService|UrlFetchApp|ScriptApp|Utilities|Session|HtmlService|ContentService|DriveApp|MailApp|GmailApp|Charts)\s*\./;

// A message may name a service ('Session.getEffectiveUser() has no email'); a call is outside any string.
const calls = (f: string) => code(f).replace(/'(?:[^'\\\n]|\\.)*'/g, "''");

const app = tsFiles(path.join(root, 'src', 'app'));
const outsideGas = tsFiles(path.join(root, 'src')).filter(
  (f) => !rel(f).startsWith(path.join('src', 'adapters', 'gas') + path.sep),
);

describe('src/app', () => {
  it('is found (the walk reaches the use cases)', () => {
    expect(app.length).toBeGreaterThan(100);
    expect(app.map(rel)).toContain(path.join('src', 'app', 'sheet-council.ts'));
  });

  // Was 188 imports in 73 files when the store still lived in src/adapters/gas.
  it('imports no adapter: the store and the ports only (the composition root wires the adapters in)', () => {
    expect(app.flatMap(adapterImports)).toEqual([]);
  });

  it('would see an import of an adapter (the check can fail)', () => {
    const f = path.join(root, 'src', 'app', 'x.ts');
    const found = [...`import { jsonOutput } from '../adapters/gas/json-output.js';`.matchAll(IMPORT)].map((m) =>
      rel(path.resolve(path.dirname(f), m[1])),
    );
    expect(found).toEqual([path.join('src', 'adapters', 'gas', 'json-output.js')]);
  });
});

describe('Apps Script services', () => {
  it('are named in code only in src/adapters/gas (the store, core, app and entries reach them through ports)', () => {
    const naming = outsideGas.filter((f) => SERVICES.test(calls(f))).map(rel);
    expect(naming).toEqual([]);
  });

  it('are named there (the check can fail)', () => {
    const gas = tsFiles(path.join(root, 'src', 'adapters', 'gas'));
    expect(gas.filter((f) => SERVICES.test(calls(f))).length).toBeGreaterThan(3);
  });
});
