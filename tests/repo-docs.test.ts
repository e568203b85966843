// The project's own documents: the README and docs/ link only inside the repository, the README stays a short guide,
// and the data model's tab table and the API's MCP tool table are the ones sheets-schema/ and the routes registry
// define (KAIGI_UPDATE_DOCS=1 rewrites both).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABS, type TabSpec } from '../sheets-schema/index.js';
import { OPERATIONS } from '../src/app/routes/registry.js';

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
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = TABS.map(
    (t) =>
      `| ${t.name} | ${t.nameJa} | ${t.kind} | ${t.columns.length} | ${(t as TabSpec).audit ? 'yes' : ''} | ${cell(t.description)} |`,
  );
  return [BEGIN, '| tab | 日本語 | kind | columns | audited | holds |', '|---|---|---|---|---|---|', ...rows, END].join(
    '\n',
  );
}

const TOOLS_BEGIN = '<!-- mcp tools: generated from src/app/routes/registry.ts -->';
const TOOLS_END = '<!-- end of mcp tools -->';

function toolTable(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = OPERATIONS.filter((o) => o.tool).map(
    (o) =>
      `| \`${o.name}\` | ${o.http ? `\`${o.http.method} ${o.http.path}\`` : ''} | ${o.roles.join(', ')} | ${cell(o.description)} |`,
  );
  return [TOOLS_BEGIN, '| tool | REST | roles | does |', '|---|---|---|---|', ...rows, TOOLS_END].join('\n');
}

// The text between `begin` and `end` in a document is what `make` writes; KAIGI_UPDATE_DOCS=1 writes it.
function generated(doc: string, begin: string, end: string, make: () => string): void {
  const file = path.join(root, doc);
  const text = fs.readFileSync(file, 'utf8');
  const at = text.indexOf(begin);
  const to = text.indexOf(end);
  expect(at, `${begin} in ${doc}`).toBeGreaterThanOrEqual(0);
  expect(to, `${end} in ${doc}`).toBeGreaterThan(at);
  const current = text.slice(at, to + end.length);
  if (process.env.KAIGI_UPDATE_DOCS) fs.writeFileSync(file, text.replace(current, make()));
  else expect(current, 'run KAIGI_UPDATE_DOCS=1 npx vitest run tests/repo-docs.test.ts').toBe(make());
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

  it('list every tab of sheets-schema/ in docs/data-model.md, as the schema says', () => {
    generated('docs/data-model.md', BEGIN, END, tabTable);
  });

  it('list every MCP tool of the routes registry in docs/api.md, as the registry says', () => {
    generated('docs/api.md', TOOLS_BEGIN, TOOLS_END, toolTable);
  });
});
