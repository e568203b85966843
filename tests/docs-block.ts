// A generated block of a document: the text between two markers is what a function writes (KAIGI_UPDATE_DOCS=1 writes it).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

const root = path.resolve(__dirname, '..');

export function checkGenerated(doc: string, begin: string, end: string, made: string): void {
  const file = path.join(root, doc);
  const text = fs.readFileSync(file, 'utf8');
  const at = text.indexOf(begin);
  const to = text.indexOf(end);
  expect(at, `${begin} in ${doc}`).toBeGreaterThanOrEqual(0);
  expect(to, `${end} in ${doc}`).toBeGreaterThan(at);
  const current = text.slice(at, to + end.length);
  if (process.env.KAIGI_UPDATE_DOCS) fs.writeFileSync(file, text.replace(current, made));
  else expect(current, 'run KAIGI_UPDATE_DOCS=1 npx vitest run on this test').toBe(made);
}

// A table cell: pipes escaped, one line.
export const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
