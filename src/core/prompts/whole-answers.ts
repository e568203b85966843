// Earlier answers as a later phase reads them: each one's digest, or the whole answer where the phase weighs it.
import type { Message } from '../discussion/messages.js';
import { digestLines } from './digest.js';

// Every field on its own line, lists as items, objects one level in: the whole answer in fewer tokens than its JSON
// (no quotes, braces or escapes), and nothing of it left out. Line breaks inside a text become spaces so a field stays
// one line.
const flat = (v: unknown) => String(v).replace(/\s+/g, ' ').trim();

function fieldLines(key: string, v: unknown, indent: string): string[] {
  if (v === undefined || v === null || v === '') return [];
  if (Array.isArray(v)) {
    if (!v.length) return [];
    const items = v.map((x) =>
      x && typeof x === 'object'
        ? `${indent}- ${Object.entries(x as Record<string, unknown>)
            .filter(([, y]) => y !== undefined && y !== null && y !== '')
            .map(([k, y]) => `${k}: ${typeof y === 'object' ? JSON.stringify(y) : flat(y)}`)
            .join('; ')}`
        : `${indent}- ${flat(x)}`,
    );
    return [`${indent}${key}:`, ...items];
  }
  if (typeof v === 'object') {
    const inner = Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => fieldLines(k, x, `${indent}  `));
    return inner.length ? [`${indent}${key}:`, ...inner] : [];
  }
  return [`${indent}${key}: ${flat(v)}`];
}

// One answer whole: its digest line (who, what, how sure, the marks Kaigi put on it), then every field.
export function wholeAnswer(m: Message, digest: string): string {
  const head = digest.slice(0, digest.indexOf(' | ') < 0 ? digest.length : digest.indexOf(' | '));
  const fields = Object.entries(m.content as Record<string, unknown>).flatMap(([k, v]) => fieldLines(k, v, '  '));
  return [head, ...fields].join('\n');
}

// The earlier answers' block: the digest of each, and the whole of those `whole` names (message ids, or 'all').
export function earlierText(messages: readonly Message[], whole: readonly string[] | 'all'): string {
  const lines = digestLines(messages);
  return messages
    .map((m, i) => (whole === 'all' || whole.indexOf(m.message_id) >= 0 ? wholeAnswer(m, lines[i]) : lines[i]))
    .join('\n');
}
