// kaigi queue: the debug view of the work queue — the items (optionally of one type or state) and their
// counts by type and state, read through the script's own export (logical rows, long payloads reassembled).
import { type Command, InputError, print, UsageError, withExisting } from '../shared.js';

const STATES = ['queued', 'processing', 'done', 'failed', 'dead'];

interface Item {
  id: string;
  type: string;
  priority: string;
  status: string;
  attempts: number;
  available_at: string;
  from: string;
  last_error: string;
}

// Counts by type, then by state, in the order of STATES; every state is a column, so a table reads at a glance.
function counts(items: Item[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const i of items) {
    out[i.type] ??= Object.fromEntries(STATES.map((s) => [s, 0]));
    out[i.type][i.status] = (out[i.type][i.status] ?? 0) + 1;
  }
  return out;
}

function table(items: Item[], byType: Record<string, Record<string, number>>): string {
  const lines = [`${'type'.padEnd(22)}${STATES.map((s) => s.padStart(11)).join('')}`];
  for (const [type, c] of Object.entries(byType))
    lines.push(`${type.padEnd(22)}${STATES.map((s) => String(c[s] ?? 0).padStart(11)).join('')}`);
  lines.push('');
  for (const i of items) {
    const err = i.last_error ? `  ${String(i.last_error).replace(/\s+/g, ' ').slice(0, 100)}` : '';
    lines.push(
      `${i.id.padEnd(8)} ${i.type.padEnd(22)} ${i.status.padEnd(10)} ${i.priority.padEnd(8)} attempts=${i.attempts} available=${i.available_at} from=${i.from}${err}`,
    );
  }
  return lines.join('\n');
}

export const queueCommand: Command = {
  name: 'queue',
  options: ['workbook', 'type', 'state'],
  flags: ['json'],
  run: ({ opts }) => {
    const state = opts.state === undefined ? undefined : String(opts.state);
    if (state !== undefined && STATES.indexOf(state) < 0)
      throw new UsageError(`--state must be ${STATES.join(', ')}; got ${state}`);
    const type = opts.type === undefined ? undefined : String(opts.type);
    return withExisting(opts, async (rt) => {
      const r = await rt.run('exportTab', ['Queue'], { kind: 'editor' });
      if (!r.ok) throw new InputError(r.error!.message);
      const all = (r.value as { rows: Item[] }).rows;
      const items = all.filter((i) => (!type || i.type === type) && (!state || i.status === state));
      const byType = counts(items);
      await print(opts.json ? JSON.stringify({ counts: byType, items }) : table(items, byType));
      return 0;
    });
  },
};
