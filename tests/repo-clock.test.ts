// The use cases read time and chance from the ports (clock, ids), never from the host's globals.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './source-files.js';

const root = path.resolve(__dirname, '..');
const APP = path.join(root, 'src', 'app');

// A clock read or a draw of chance the simulated clock and a test could not steer: Date.now(), Date() and new Date
// without an argument (new Date(x) turns a number into a Date and reads no clock), and Math.random().
const GLOBAL_READS: { what: string; re: RegExp }[] = [
  { what: 'Date.now()', re: /\bDate\.now\s*\(/ },
  { what: 'new Date()', re: /\bnew\s+Date\s*(\(\s*\)|(?![\s(]))/ },
  { what: 'Date()', re: /(?<!\bnew\s+)(?<![\w.])Date\s*\(\s*\)/ },
  { what: 'Math.random()', re: /\bMath\.random\s*\(/ },
  { what: 'performance.now()', re: /\bperformance\.now\s*\(/ },
];

// Each offending line as "file:line: what", comment lines left out (a comment may name what it avoids).
function globalReads(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    for (const g of GLOBAL_READS) if (g.re.test(line)) out.push(`${file}:${i + 1}: ${g.what}`);
  });
  return out;
}

describe("src/app's time and ids", () => {
  const files = tsFiles(APP);

  it('are found (the walk reaches the use cases)', () => {
    expect(files.map((f) => path.relative(root, f))).toContain(path.join('src', 'app', 'sheet-council.ts'));
    expect(files.length).toBeGreaterThan(50);
  });

  it('come from the injected clock and id source, not Date.now(), new Date() or Math.random()', () => {
    const found = files.flatMap((f) => globalReads(path.relative(root, f), fs.readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('tells a clock read from a date made of a number', () => {
    const code = [
      'const a = Date.now();',
      'const b = new Date();',
      'const c = new Date;',
      'const d = Date();',
      'const e = Math.random();',
      'const f = new Date(council.now()).toISOString();',
      'const g = new Date(row.at);',
      '// Date.now() is not read here',
      'const h = council.now();',
    ].join('\n');
    expect(globalReads('x.ts', code)).toEqual([
      'x.ts:1: Date.now()',
      'x.ts:2: new Date()',
      'x.ts:3: new Date()',
      'x.ts:4: Date()',
      'x.ts:5: Math.random()',
    ]);
  });
});
