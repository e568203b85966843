// Reading rooms from their tabs: free rooms, members, the message index (short columns, one range), message texts
// for a page, and the discussions, which are read-only rooms under their ids.
import { rowsOf, rowsOfAny, type TabKey } from '../../../sheets-schema/index.js';
import { isDate } from '../../store/records.js';
import type { Store, StoreState } from '../../store/store.js';
import { parsePointer } from '../../core/cells.js';
import type { RoomProfile } from '../../core/api/rooms.js';

const roomCols = rowsOf('rooms');
const memberCols = rowsOf('room_members');
const messageCols = rowsOf('room_messages');
const logCols = rowsOf('discussions');
const discussionMessageCols = rowsOf('messages');

export interface RoomRecord {
  row: number;
  values: unknown[];
  name: string;
  description: string;
  createdBy: string;
  createdAt: string;
  clearedThrough: number;
}

export interface MemberRecord {
  row: number;
  values: unknown[];
  key: string;
  room: string;
  agentName: string;
  client: string;
  inRoom: boolean;
  profile: RoomProfile | null;
  joinedAt: string;
}

// A room message without its text and metadata, which a page reads separately.
export interface IndexRecord {
  row: number;
  id: string;
  room: string;
  seq: number;
  agentName: string;
  client: string;
  mentions: string[];
  replyTo: string;
  requestKey: string;
  timestamp: string;
  sizeChars: number;
}

export interface DiscussionRoom {
  id: string;
  status: string;
  triggerType: string;
  target: string;
  participants: string[];
}

function iso(v: unknown): string {
  if (isDate(v)) return v.toISOString();
  return v === '' || v === null || v === undefined ? '' : String(v);
}

function json<T>(v: unknown, fallback: T): T {
  if (typeof v !== 'string' || v === '') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

function blank(values: readonly unknown[]): boolean {
  return values.every((v) => v === '' || v === null || v === undefined);
}

// Columns first..last (by name) of every committed row of an append tab, in one range.
function readColumns(store: Store, state: StoreState, tab: TabKey, first: string, last: string): unknown[][] {
  const end = state.tails[tab]?.last ?? 1;
  if (end < 2) return [];
  const cols = rowsOfAny(tab);
  const from = cols.index(first);
  const width = cols.index(last) - from + 1;
  return store
    .sheet(tab)
    .getRange(2, from + 1, end - 1, width)
    .getValues();
}

// Widens rows read from column `first` on to the tab's full width, so the tab's mapper reads them by name.
function widen(tab: TabKey, first: string, rows: unknown[][]): unknown[][] {
  const cols = rowsOfAny(tab);
  const from = cols.index(first);
  return rows.map((r) => {
    const out = new Array(cols.width).fill('');
    r.forEach((v, i) => {
      out[from + i] = v;
    });
    return out;
  });
}

export function readRooms(store: Store, state: StoreState): RoomRecord[] {
  const out: RoomRecord[] = [];
  store.readTail(state, 'rooms', 2).forEach((values, i) => {
    if (blank(values)) return;
    const r = roomCols.read(values);
    out.push({
      row: i + 2,
      values,
      name: String(r.room_name),
      description: String(r.description),
      createdBy: String(r.created_by),
      createdAt: iso(r.created_at),
      clearedThrough: Number(r.cleared_through) || 0,
    });
  });
  return out;
}

export function readMembers(store: Store, state: StoreState): MemberRecord[] {
  const out: MemberRecord[] = [];
  store.readTail(state, 'room_members', 2).forEach((values, i) => {
    if (blank(values)) return;
    const r = memberCols.read(values);
    out.push({
      row: i + 2,
      values,
      key: String(r.member_key),
      room: String(r.room_name),
      agentName: String(r.agent_name),
      client: String(r.client),
      inRoom: r.status === 'in',
      profile: json<RoomProfile | null>(r.profile_json, null),
      joinedAt: iso(r.joined_at),
    });
  });
  return out;
}

// Every room message's short columns (all but the text and metadata), in one range.
export function readIndex(store: Store, state: StoreState): IndexRecord[] {
  const out: IndexRecord[] = [];
  const rows = widen(
    'room_messages',
    'message_id',
    readColumns(store, state, 'room_messages', 'message_id', 'size_chars'),
  );
  rows.forEach((values, i) => {
    const r = messageCols.read(values);
    if (r.message_id === '') return;
    out.push({
      row: i + 2,
      id: String(r.message_id),
      room: String(r.room_name),
      seq: Number(r.seq) || 0,
      agentName: String(r.agent_name),
      client: String(r.client),
      mentions: json<string[]>(r.mentions_json, []),
      replyTo: String(r.reply_to),
      requestKey: String(r.request_key),
      timestamp: iso(r.timestamp),
      sizeChars: Number(r.size_chars) || 0,
    });
  });
  return out;
}

// Rows closer than this are read in one range with the rows between them: one read instead of several.
const GAP = 50;

// The text and metadata of the given messages, overflowed values reassembled; rows far apart are read apart.
export function readTexts(
  store: Store,
  records: readonly IndexRecord[],
): Record<string, { message: string; metadata: Record<string, unknown> | null }> {
  const rows = records.map((r) => r.row).sort((a, b) => a - b);
  const from = messageCols.index('message') + 1;
  const width = messageCols.width - from + 1;
  const byRow: Record<number, unknown[]> = {};
  let i = 0;
  while (i < rows.length) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] - rows[j] <= GAP) j++;
    const values = store.resolveOverflow(
      store
        .sheet('room_messages')
        .getRange(rows[i], from, rows[j] - rows[i] + 1, width)
        .getValues(),
    );
    values.forEach((v, k) => {
      byRow[rows[i] + k] = v;
    });
    i = j + 1;
  }
  const out: Record<string, { message: string; metadata: Record<string, unknown> | null }> = {};
  for (const r of records) {
    const v = byRow[r.row];
    out[r.id] = { message: String(v[0]), metadata: json<Record<string, unknown> | null>(v[1], null) };
  }
  return out;
}

// The discussions: id, status, what opened them and who spoke (columns A–E and I of the log).
export function readDiscussions(store: Store, state: StoreState): DiscussionRoom[] {
  const head = widen(
    'discussions',
    'discussion_id',
    readColumns(store, state, 'discussions', 'discussion_id', 'trigger_target_user'),
  );
  const parts = readColumns(store, state, 'discussions', 'participants_json', 'participants_json');
  const out: DiscussionRoom[] = [];
  head.forEach((values, i) => {
    const r = logCols.read(values);
    if (r.discussion_id === '') return;
    out.push({
      id: String(r.discussion_id),
      status: String(r.status),
      triggerType: String(r.trigger_type),
      target: String(r.trigger_target_user),
      participants: json<string[]>(parts[i]?.[0], []),
    });
  });
  return out;
}

// Messages per discussion, counted from the Messages tab's first chunk rows (one range of three columns).
export function discussionMessageCounts(store: Store, state: StoreState): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const values of widen(
    'messages',
    'discussion_id',
    readColumns(store, state, 'messages', 'discussion_id', 'chunk'),
  )) {
    const r = discussionMessageCols.read(values);
    if (r.discussion_id === '' || Number(r.chunk) !== 0) continue;
    const id = String(r.discussion_id);
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

// Characters each discussion's messages take, from the log's messages column: its length, or the length a
// pointer to the Messages tab records.
export function discussionSizes(store: Store, state: StoreState): Record<string, number> {
  const ids = readColumns(store, state, 'discussions', 'discussion_id', 'discussion_id');
  const cells = readColumns(store, state, 'discussions', 'messages_json', 'messages_json');
  const out: Record<string, number> = {};
  ids.forEach((v, i) => {
    const id = String(v[0]);
    if (!id) return;
    const cell = cells[i]?.[0];
    const p = parsePointer(cell);
    out[id] = p ? p.length : typeof cell === 'string' ? cell.length : 0;
  });
  return out;
}
