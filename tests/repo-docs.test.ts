// The project's own documents: the README and docs/ link only inside the repository, the README stays a short guide,
// and the data model's tab table is the one sheets-schema/ defines (KAIGI_UPDATE_DOCS=1 rewrites it).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABS, type TabSpec } from '../sheets-schema/index.js';
import { cell, checkGenerated } from './docs-block.js';

const root = path.resolve(__dirname, '..');
const docs = [
  'README.md',
  'CONTRIBUTING.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const BEGIN = '<!-- tabs: generated from sheets-schema/ -->';
const END = '<!-- end of tabs -->';

function tabTable(): string {
  const rows = TABS.map(
    (t) =>
      `| ${t.name} | ${t.nameJa} | ${t.kind} | ${t.columns.length} | ${(t as TabSpec).audit ? 'yes' : ''} | ${cell(t.description)} |`,
  );
  return [BEGIN, '| tab | 日本語 | kind | columns | audited | holds |', '|---|---|---|---|---|---|', ...rows, END].join(
    '\n',
  );
}

describe('the documents', () => {
  it('link only to files inside the repository, and every such file exists', () => {
    const bad: string[] = [];
    for (const doc of docs) {
      const text = fs.readFileSync(path.join(root, doc), 'utf8');
      if (/shared\/SPEC|\.\.\/shared|\bSPEC §/.test(text)) bad.push(`${doc}: names a document outside the repository`);
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1].split('#')[0];
        if (!target || /^(https?:|mailto:)/.test(m[1])) continue;
        const resolved = path.resolve(path.dirname(path.join(root, doc)), decodeURI(target));
        if (!resolved.startsWith(root + path.sep) || !fs.existsSync(resolved)) bad.push(`${doc}: ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('keep the README a guide of at most 300 lines that links to docs/ and CONTRIBUTING.md', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(300);
    for (const f of ['docs/architecture.md', 'docs/api.md', 'docs/runtime.md', 'docs/data-model.md', 'CONTRIBUTING.md'])
      expect(readme).toContain(`](${f}`);
  });

  it('name every command of the command line in the README', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const dir = path.join(root, 'cli', 'commands');
    const names = fs
      .readdirSync(dir)
      .map((f) => /\bname: '([a-z-]+)'/.exec(fs.readFileSync(path.join(dir, f), 'utf8'))?.[1])
      .filter((n): n is string => !!n);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !readme.includes(`\`kaigi ${n} `) && !readme.includes(`\`kaigi ${n}\``))).toEqual([]);
  });

  it('list every tab of sheets-schema/ in docs/data-model.md, as the schema says', () => {
    checkGenerated('docs/data-model.md', BEGIN, END, tabTable());
  });
});
