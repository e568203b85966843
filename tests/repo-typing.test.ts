// Typing rules on the sources: no `as unknown as` in src/app, and queue task types spelled only where they are defined.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './source-files.js';
import { TASK_KINDS } from '../src/core/queue-tasks.js';

const root = path.resolve(__dirname, '..');

const rel = (f: string) => path.relative(root, f);
const read = (f: string) => fs.readFileSync(f, 'utf8');

// Lines of `text` that match `re`, as `file:line: text`.
function hits(files: readonly string[], re: RegExp): string[] {
  return files.flatMap((f) =>
    read(f)
      .split('\n')
      .flatMap((l, i) => (re.test(l) ? [`${rel(f)}:${i + 1}: ${l.trim()}`] : [])),
  );
}

describe('src/app', () => {
  const app = tsFiles(path.join(root, 'src/app'));

  it('is found (the walk reaches the use cases)', () => {
    expect(app.length).toBeGreaterThan(100);
  });

  // A double cast hides a type the code should state: a typed mapper (rowsOfAny), a task kind, a type alias.
  it('has no `as unknown as`', () => {
    expect(hits(app, /\bas unknown as\b/)).toEqual([]);
  });
});

describe('queue task types', () => {
  const defined = path.join(root, 'src/core/queue-tasks.ts');
  const files = ['src', 'sheets-schema', 'cli']
    .flatMap((d) => tsFiles(path.join(root, d)))
    .filter((f) => f !== defined);
  const types = Object.values(TASK_KINDS).map((k) => k.type);

  it('are each defined once', () => {
    expect(new Set(types).size).toBe(types.length);
    expect(types).toContain('discussion.open');
  });

  // A producer queues through its kind (TASK_KINDS.x) and a reader compares with TASK_KINDS.x.type, so a renamed
  // type or a reshaped payload is one change in src/core/queue-tasks.ts.
  it('are spelled as string literals only in src/core/queue-tasks.ts', () => {
    const quoted = new RegExp(`['"\`](${types.map((t) => t.replace('.', '\\.')).join('|')})['"\`]`);
    expect(hits(files, quoted)).toEqual([]);
  });
});
