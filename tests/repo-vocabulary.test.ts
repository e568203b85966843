// One vocabulary: each enum column of the sheet schema holds exactly the values of the core list it stands for, and no
// list of values is declared twice in src/core or sheets-schema (a copy drifts: it once lost CANCELLED unnoticed).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './source-files.js';
import { TABS } from '../sheets-schema/index.js';
import * as V from '../src/core/discussion/vocab.js';
import { EXECUTION_STATUSES, ORDER_STATUSES } from '../src/core/orders/order-status.js';
import { SETTING_TYPES } from '../src/core/setting-def.js';
import { OBJECTION_STATUSES } from '../src/core/types.js';

// `tab.column` → the core list it stands for. A column that keeps values older rows hold beside the live ones says so
// in its core list (OBJECTION_STATUSES is OBJECTION_STATES and the two values older rows hold), never in the sheet.
const STANDS_FOR: Record<string, readonly string[]> = {
  'discussions.status': V.STATUSES,
  'discussions.priority': V.PRIORITIES,
  'discussions.execution_status': EXECUTION_STATUSES,
  'queue.priority': V.PRIORITIES,
  'queue.status': V.QUEUE_STATUSES,
  'orders.status': ORDER_STATUSES,
  'objections.source': V.OBJECTION_SOURCES,
  'objections.urgency': V.PRIORITIES,
  'objections.status': OBJECTION_STATUSES,
  'outcomes.verdict': V.VERDICTS,
  'outcomes.order_status': EXECUTION_STATUSES,
  'outcomes.effect': V.EFFECTS,
  'learnings.scope': V.LEARNING_SCOPES,
  'inbox.type': V.INBOX_TYPES,
  'inbox.priority': V.INBOX_PRIORITIES,
  'inbox.status': V.INBOX_STATUSES,
  'directives.priority': V.INBOX_PRIORITIES,
  'directives.status': V.DIRECTIVE_STATUSES,
  'agents.group': V.AGENT_GROUPS,
  'prompts.language': V.LANGUAGES,
  'settings.type': SETTING_TYPES,
  'room_members.status': V.MEMBER_STATUSES,
};

const enumColumns = TABS.flatMap((t) =>
  (t.columns as readonly { key: string; type: string; values?: readonly string[] }[])
    .filter((c) => c.type === 'enum')
    .map((c) => ({ at: `${t.key}.${c.key}`, values: c.values ?? [] })),
);

describe('the sheet schema’s enum columns', () => {
  it('are found', () => {
    expect(enumColumns.length).toBeGreaterThan(15);
  });

  it('each stand for a core list, named above', () => {
    expect(enumColumns.map((c) => c.at).filter((at) => !STANDS_FOR[at])).toEqual([]);
    expect(Object.keys(STANDS_FOR).filter((at) => !enumColumns.some((c) => c.at === at))).toEqual([]);
  });

  it('hold exactly the values of that list, in its order', () => {
    const differ = enumColumns
      .filter((c) => STANDS_FOR[c.at] && c.values.join() !== STANDS_FOR[c.at].join())
      .map((c) => ({ column: c.at, sheet: c.values, core: STANDS_FOR[c.at] }));
    expect(differ).toEqual([]);
  });
});

const root = path.resolve(__dirname, '..');

// Every `const NAME = ['a', 'b', …]` in src/core, sheets-schema and src/app (exported or not) of string literals only,
// with where it is declared.
function declaredLists(): { name: string; at: string; values: string[]; exported: boolean }[] {
  const decl = /(?:^|\n)\s*(export\s+)?const\s+([A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=\s*\[([^\]]*)\]/g;
  return ['src/core', 'sheets-schema', 'src/app'].flatMap((d) =>
    tsFiles(path.join(root, d)).flatMap((f) => {
      const out: { name: string; at: string; values: string[]; exported: boolean }[] = [];
      for (const m of fs.readFileSync(f, 'utf8').matchAll(decl)) {
        const items = m[3]
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (items.length < 2 || !items.every((s) => /^'[^']*'$/.test(s))) continue;
        const values = items.map((s) => s.slice(1, -1));
        out.push({ name: m[2], at: path.relative(root, f), values, exported: !!m[1] });
      }
      return out;
    }),
  );
}

describe('lists of values in src/core, sheets-schema and src/app', () => {
  const lists = declaredLists();

  it('are found', () => {
    expect(lists.some((l) => l.name === 'ORDER_STATUSES')).toBe(true);
  });

  // A list with the same values as another, or exported under another's name, is a copy: import the first instead.
  // (Two modules' private lists may share a name for different things: each vendor's KEEP.)
  it('are each declared once', () => {
    const key = (l: { values: string[] }) => l.values.slice().sort().join('|');
    const copies = lists.flatMap((a, i) =>
      lists
        .slice(i + 1)
        .filter((b) => (a.name === b.name && (a.exported || b.exported)) || key(a) === key(b))
        .map((b) => `${a.name} (${a.at}) and ${b.name} (${b.at})`),
    );
    expect(copies).toEqual([]);
  });
});
