// What the sidebar's list needs besides the log: who each discussion is about (Members), and what waits for a person
// (unread Inbox items, objections to judge), each from one read of the columns it needs. Only a poll that found a
// change reads them; an idle poll reads nothing (docs/web-cost.md).
import { rowsOf } from '../../../sheets-schema/index.js';
import { objectionState } from '../../core/orders/objection-state.js';
import type { Council } from '../sheet-council.js';
import { text } from '../steer/plain.js';

// The newest rows looked at, as the Inbox's unread count always did: older items are not news.
const RECENT = 200;

export interface ListNeeds {
  unread: number;
  // Per discussion id: unread Inbox items about it, and objections still waiting for a judgement.
  inbox: Record<string, number>;
  objections: Record<string, number>;
  // member_id → name, as a person wrote it in the Members tab.
  names: Record<string, string>;
}

type TabKey = 'inbox' | 'objections' | 'members';

// The newest rows of a tab between two of its columns (inclusive), in one read.
function recent(
  council: Council,
  key: TabKey,
  [first, last]: [string, string],
  rows = RECENT,
): Record<string, unknown>[] {
  const cols = rowsOf(key);
  // Members is a data tab a person edits: its own last row, not the store's tail.
  const tail =
    key === 'members' ? council.store.sheet(key).getLastRow() : (council.store.readState().tails[key]?.last ?? 1);
  if (tail < 2) return [];
  const from = Math.max(2, tail - rows + 1);
  const a = cols.index(first as never);
  const b = cols.index(last as never);
  const values = council.store
    .sheet(key)
    .getRange(from, a + 1, tail - from + 1, b - a + 1)
    .getValues();
  // The columns before the first one read are blank to the mapper.
  const blank: unknown[] = new Array(a).fill('');
  return values.map((v) => cols.read(blank.concat(v)) as Record<string, unknown>);
}

const count = (into: Record<string, number>, id: string) => {
  if (id) into[id] = (into[id] ?? 0) + 1;
};

export function listNeeds(council: Council, present: (key: TabKey) => boolean): ListNeeds {
  const out: ListNeeds = { unread: 0, inbox: {}, objections: {}, names: {} };
  if (present('inbox'))
    for (const r of recent(council, 'inbox', ['discussion_id', 'status']))
      if (r.status === 'unread') {
        out.unread++;
        count(out.inbox, text(r.discussion_id));
      }
  if (present('objections'))
    for (const r of recent(council, 'objections', ['discussion_id', 'status']))
      if (objectionState(r.status) === 'OPEN') count(out.objections, text(r.discussion_id));
  // Every member, the id and name only.
  if (present('members'))
    for (const r of recent(council, 'members', ['member_id', 'name'], 5000))
      if (text(r.member_id)) out.names[text(r.member_id)] = text(r.name);
  return out;
}
