// The project's own documents: the README and docs/ link only inside the repository, the README stays a short guide
// naming every command, CONTRIBUTING's registries exist, and the data model's tab table and CONTRIBUTING's route groups
// are what sheets-schema/ and src/app/routes/ define (KAIGI_UPDATE_DOCS=1 rewrites them).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli/commands/index.js';
import { TABS, type TabSpec } from '../sheets-schema/index.js';
import { OPERATIONS } from '../src/app/routes/registry.js';
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
const GROUPS_BEGIN = '<!-- route groups: generated from src/app/routes/ -->';
const GROUPS_END = '<!-- end of route groups -->';
// A citation of the product contract (its sections, its file) or of a design note (docs/sources.md): written with
// escapes so that this file does not match it.
const CITATION = /\bSPEC\s*§|\bSPEC\.md\b|\bseed\s*00\d|\bseeds\//i;
// The folders of the project's own code, checked for CITATION (node_modules and dist left out), and eval/: the
// scenarios' names and reasons are read in eval reports and docs/judgment.md.
const CODE_DIRS = ['src', 'sheets-schema', 'cli', 'runtime', 'bench', 'tools', 'scripts', 'tests', 'eval'];
// Files that spell the citations they look for: the browser scan rejects them on the pages.
const SPELLS_CITATIONS = [path.join('tests', 'browser', 'scan.test.ts')];

// Each folder of src/app/routes/ with the operations its index.ts lists, read from the folder's files by name so
// that an operation in no folder, or a folder the registry leaves out, shows.
function routeGroups(): string {
  const dir = path.join(root, 'src', 'app', 'routes');
  const registry = fs.readFileSync(path.join(dir, 'registry.ts'), 'utf8');
  const groups = fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).isDirectory());
  const listed = new Set<string>();
  const rows = groups.map((g) => {
    expect(registry, `src/app/routes/registry.ts gathers ${g}/`).toContain(`'./${g}/index.js'`);
    const files = fs.readdirSync(path.join(dir, g)).map((f) => fs.readFileSync(path.join(dir, g, f), 'utf8'));
    const ops = OPERATIONS.filter((o) => files.some((t) => t.includes(`name: '${o.name}'`)));
    for (const o of ops) listed.add(o.name);
    const where = (o: (typeof ops)[number]) => [o.http && `\`${o.http.method} ${o.http.path}\``, o.tool && 'tool'];
    const names = ops.map((o) => `\`${o.name}\` (${where(o).filter(Boolean).join(', ')})`);
    return `| \`${g}/\` | ${names.join(', ')} |`;
  });
  expect(OPERATIONS.map((o) => o.name).filter((n) => !listed.has(n))).toEqual([]);
  return [GROUPS_BEGIN, '| group | operations |', '|---|---|', ...rows, GROUPS_END].join('\n');
}

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
      if (/shared\/SPEC|\.\.\/shared|\bSPEC\s*§/.test(text))
        bad.push(`${doc}: names a document outside the repository`);
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1].split('#')[0];
        if (!target || /^(https?:|mailto:)/.test(m[1])) continue;
        const resolved = path.resolve(path.dirname(path.join(root, doc)), decodeURI(target));
        if (!resolved.startsWith(root + path.sep) || !fs.existsSync(resolved)) bad.push(`${doc}: ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('leave the code free of citations: a comment or a Settings description states the rule, docs/sources.md the source', () => {
    const bad: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'node_modules' && e.name !== 'dist') walk(rel);
        } else if (/\.(ts|mjs|cjs|js|html|json)$/.test(e.name) && !SPELLS_CITATIONS.includes(rel)) {
          const text = fs.readFileSync(path.join(root, rel), 'utf8');
          text.split('\n').forEach((line, i) => {
            if (CITATION.test(line)) bad.push(`${rel}:${i + 1}: ${line.trim()}`);
          });
        }
      }
    };
    for (const dir of CODE_DIRS) walk(dir);
    // The tab and column descriptions a person sees in the sheet.
    for (const t of TABS as readonly TabSpec[]) {
      if (CITATION.test(t.description)) bad.push(`tab ${t.name}: ${t.description}`);
      for (const c of t.columns) if (CITATION.test(c.description)) bad.push(`${t.name}.${c.key}: ${c.description}`);
    }
    expect(bad).toEqual([]);
    // The sources page is reached from the architecture page, as every page in docs/ is from another.
    expect(fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')).toMatch(/\]\(sources\.md\)/);
  });

  it('keep the README a guide of at most 300 lines that links to docs/ and CONTRIBUTING.md', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(300);
    for (const f of ['docs/architecture.md', 'docs/api.md', 'docs/runtime.md', 'docs/data-model.md', 'CONTRIBUTING.md'])
      expect(readme).toContain(`](${f}`);
  });

  it('name every command of the command line in the README, from its registry', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const names = COMMANDS.map((c) => c.name);
    expect(names).toContain('queue');
    expect(names.filter((n) => !readme.includes(`\`kaigi ${n} `) && !readme.includes(`\`kaigi ${n}\``))).toEqual([]);
  });

  it('name in CONTRIBUTING.md extension points whose files and registries exist', () => {
    const text = fs.readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
    const from = text.indexOf('| to add | write |');
    const rows = text.slice(from, text.indexOf('\n\n', from)).split('\n').slice(2);
    expect(rows.length).toBeGreaterThan(5);
    const bad: string[] = [];
    for (const row of rows) {
      const [, write, line] = row
        .split(/(?<!\\)\|/)
        .map((c) => c.trim())
        .filter(Boolean);
      // A path with a placeholder (NAME, GROUP, *) names its folder; the registry is `LIST` in `file`.
      for (const m of `${write} ${line}`.matchAll(/`((?:src|cli|runtime|sheets-schema)\/[^`]*)`/g)) {
        const known = m[1].split('/').filter((seg) => !/NAME|GROUP|\*/.test(seg));
        if (!fs.existsSync(path.join(root, ...known))) bad.push(`${row.slice(0, 40)}: ${m[1]}`);
      }
      for (const m of line.matchAll(/`([A-Z_]+)` in `([^`]+)`/g)) {
        const file = path.join(root, m[2]);
        if (!fs.existsSync(file) || !new RegExp(`\\b${m[1]}\\b`).test(fs.readFileSync(file, 'utf8')))
          bad.push(`${m[1]} is not in ${m[2]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('list the route groups in CONTRIBUTING.md as src/app/routes/ holds them', () => {
    checkGenerated('CONTRIBUTING.md', GROUPS_BEGIN, GROUPS_END, routeGroups());
  });

  it('list every tab of sheets-schema/ in docs/data-model.md, as the schema says', () => {
    checkGenerated('docs/data-model.md', BEGIN, END, tabTable());
  });
});
