// What clients change in rooms: create, enter, leave, send and clear; each one commit under the lock, the client as
// the actor of its audit rows, and the room's rules checked against what the tabs hold at that moment.
import { rowsOf } from '../../../sheets-schema/index.js';
import { cellDate } from '../../store/records.js';
import { ConflictError, ForbiddenError, NotFoundError, TooLargeError, ValidationError } from '../../core/errors.js';
import { charCount, checkAgentName, checkRoomName, parseMentions, type RoomProfile } from '../../core/api/rooms.js';
import { touchPresence } from './presence.js';
import { nudge } from '../discussions/requests.js';
import { queueReply } from './reply-queue.js';
import { checkMentions, checkReplies, type RoomCall } from './room-limits.js';
import type { NumberSettingKey } from '../../core/settings.js';
import type { RoomRecord } from './room-data.js';
import type { FoundRoom } from './room-snapshot.js';
import { RoomSnapshot } from './room-snapshot.js';
import { withRoomLock } from './room-lock.js';
import { parseInstant } from '../../core/instant.js';

const roomCols = rowsOf('rooms');
const memberCols = rowsOf('room_members');
const messageCols = rowsOf('room_messages');

export type { RoomCall };

function actorOf(call: RoomCall): string {
  return `api:${call.caller.name}`;
}

// A room member is its API client: its name is the token's, whatever the request says. A request naming another
// member is refused, naming the field, so no client enters, speaks or leaves as another, nor holds another's name
// (which would then refuse the real client). The names of clients differ by more than case, so case does not matter.
function memberName(call: RoomCall, sent: string | undefined): string {
  const own = call.caller.name;
  if (sent !== undefined && sent.toLowerCase() !== own.toLowerCase())
    throw new ForbiddenError(
      `agentName: a room member is its API client, and this token's client is ${own}: send agentName ${own}, or leave it out.`,
      'AGENT_NAME_NOT_OWN',
    );
  return own;
}

function limit(call: RoomCall, key: NumberSettingKey): number {
  return call.council.settings().number(key);
}

function councilAgentIds(call: RoomCall): string[] {
  return call.council.config.agents().map((a) => a.agent_id);
}

// The free room a write goes to; a discussion's room is read-only.
function writable(found: FoundRoom, what: string): RoomRecord {
  if (found.kind === 'discussion')
    throw new ConflictError(
      `${found.name} is a discussion's room: it is read-only, so ${what} is not possible there.`,
      'ROOM_READ_ONLY',
    );
  return found.room;
}

// A JSON value within the message limit, or 413.
function jsonWithin(value: unknown, max: number, field: string): string {
  const text = value === undefined ? '' : JSON.stringify(value);
  if (charCount(text) > max)
    throw new TooLargeError(
      `${field} is longer than ${max} characters as JSON (Settings rooms.max_message_chars).`,
      'MESSAGE_TOO_LARGE',
    );
  return text;
}

export function createRoom(call: RoomCall, input: { roomName: string; description?: string }) {
  const name = checkRoomName(input.roomName, limit(call, 'rooms.max_name_chars'));
  const description = input.description ?? '';
  jsonWithin(description, limit(call, 'rooms.max_message_chars'), 'description');
  const max = limit(call, 'rooms.max_rooms');
  touchPresence(call.caller.name, undefined, limit(call, 'rooms.presence_seconds'));
  return withRoomLock(call.council.store, (state) => {
    const snap = new RoomSnapshot(call.council.store, state);
    const lower = name.toLowerCase();
    if (snap.rooms().some((r) => r.name.toLowerCase() === lower))
      throw new ConflictError(`A room named ${name} exists already.`, 'ROOM_ALREADY_EXISTS');
    if (snap.rooms().length >= max)
      throw new ConflictError(`Kaigi holds ${max} rooms already (Settings rooms.max_rooms).`, 'ROOM_LIMIT_REACHED');
    const now = call.council.now();
    const c = call.council.store.begin(state, actorOf(call));
    c.setMarker(
      'rooms',
      'append',
      roomCols.write({
        room_name: name,
        description,
        created_by: call.caller.name,
        created_at: cellDate(now),
        cleared_through: 0,
      }),
      `Rooms:${name}`,
    );
    c.audit({ actor: actorOf(call), event: 'room_created', tab: 'Rooms', row_key: name, payload: {} });
    c.run(new Date(now).toISOString());
    return { success: true, roomName: name, message: `Room ${name} was created.` };
  });
}

export function enterRoom(call: RoomCall, input: { roomName: string; agentName?: string; profile?: RoomProfile }) {
  const own = memberName(call, input.agentName);
  const agentName = checkAgentName(own, limit(call, 'rooms.max_name_chars'), councilAgentIds(call));
  const profile = input.profile ? jsonWithin(input.profile, limit(call, 'rooms.max_message_chars'), 'profile') : '';
  touchPresence(call.caller.name, undefined, limit(call, 'rooms.presence_seconds'));
  return withRoomLock(call.council.store, (state) => {
    const snap = new RoomSnapshot(call.council.store, state);
    const found = snap.need(input.roomName);
    const existing = snap.member(found.name, agentName);
    if (existing?.inRoom && existing.client === call.caller.name)
      throw new ConflictError(`${agentName} is in ${found.name} already.`, 'AGENT_ALREADY_IN_ROOM');
    // A row another client wrote under this name (before names were the clients'): the name is this client's, so
    // its row is taken over, and the audit row says from whom.
    const replaced = existing?.inRoom && existing.client !== call.caller.name ? existing.client : '';
    const now = call.council.now();
    const key = `${found.name}/${agentName}`;
    const values = memberCols.write(
      {
        member_key: key,
        room_name: found.name,
        agent_name: agentName,
        client: call.caller.name,
        status: 'in',
        profile_json: profile,
        joined_at: cellDate(now),
        left_at: '',
      },
      existing?.values,
    );
    const c = call.council.store.begin(state, actorOf(call));
    c.setMarker('room_members', existing ? existing.row : 'append', values, `Room Members:${key}`);
    c.audit({
      actor: actorOf(call),
      event: 'room_entered',
      tab: 'Room Members',
      row_key: key,
      payload: replaced ? { room: found.name, replaced_client: replaced } : { room: found.name },
    });
    c.run(new Date(now).toISOString());
    return { success: true, roomName: found.name, message: `${agentName} entered ${found.name}.` };
  });
}

// An admin may show any member out (a moderation, audited as the admin); any other client leaves as itself.
export function leaveRoom(call: RoomCall, input: { roomName: string; agentName?: string }) {
  const name =
    call.caller.role === 'admin' && input.agentName !== undefined ? input.agentName : memberName(call, input.agentName);
  touchPresence(call.caller.name, undefined, limit(call, 'rooms.presence_seconds'));
  return withRoomLock(call.council.store, (state) => {
    const snap = new RoomSnapshot(call.council.store, state);
    const found = snap.need(input.roomName);
    const m = snap.member(found.name, name);
    if (!m) throw new NotFoundError(`${name} has never entered ${found.name}.`, 'AGENT_NOT_FOUND');
    if (!m.inRoom) throw new ConflictError(`${name} is not in ${found.name}.`, 'AGENT_NOT_IN_ROOM');
    if (m.client !== call.caller.name && call.caller.role !== 'admin')
      throw new ConflictError(`${name} entered through another API client.`, 'AGENT_NOT_IN_ROOM');
    const now = call.council.now();
    const c = call.council.store.begin(state, actorOf(call));
    c.setMarker(
      'room_members',
      m.row,
      memberCols.write({ status: 'out', left_at: cellDate(now) }, m.values),
      `Room Members:${m.key}`,
    );
    c.audit({
      actor: actorOf(call),
      event: 'room_left',
      tab: 'Room Members',
      row_key: m.key,
      payload: { room: found.name },
    });
    c.run(new Date(now).toISOString());
    return { success: true, roomName: found.name, message: `${name} left ${found.name}.` };
  });
}

export interface SendInput {
  roomName: string;
  // The client's own name, or absent (memberName).
  agentName?: string;
  message: string;
  metadata?: Record<string, unknown>;
}

// A type, not an interface: routes hand it on as a plain record.
type SendAnswer = {
  success: true;
  messageId: string;
  roomName: string;
  timestamp: string;
  mentions: string[];
};

// What a message is checked for before the lock: its text, its metadata and the council agents it asks.
function checkedMessage(call: RoomCall, input: SendInput) {
  const maxChars = limit(call, 'rooms.max_message_chars');
  const nameChars = limit(call, 'rooms.max_name_chars');
  if (!input.message.trim()) throw new ValidationError('A message needs some text.', 'INVALID_MESSAGE_FORMAT');
  if (charCount(input.message) > maxChars)
    throw new TooLargeError(
      `The message is longer than ${maxChars} characters (Settings rooms.max_message_chars).`,
      'MESSAGE_TOO_LARGE',
    );
  const metadata = input.metadata === undefined ? '' : jsonWithin(input.metadata, maxChars, 'metadata');
  const mentions = parseMentions(input.message, nameChars);
  const agents = call.council.config.agents();
  // The council agents that will answer: at most rooms.max_mentions_per_message of them.
  const asked = agents.filter((a) => a.active && mentions.some((n) => n.toLowerCase() === a.agent_id.toLowerCase()));
  checkMentions(call, asked.length);
  return { metadata, mentions, agents, asked };
}

// A re-sent call (same client, same key) gets the first answer and stores nothing. Only within the replay window: a
// client's next MCP session numbers its ids from 0 again.
function replayed(call: RoomCall, snap: RoomSnapshot): SendAnswer | null {
  if (!call.requestKey) return null;
  const since = call.council.now() - limit(call, 'api.replay_seconds') * 1000;
  const first = snap
    .index()
    .find(
      (m) => m.requestKey === call.requestKey && m.client === call.caller.name && parseInstant(m.timestamp) >= since,
    );
  if (!first) return null;
  return {
    success: true,
    messageId: first.id,
    roomName: first.room,
    timestamp: first.timestamp,
    mentions: first.mentions,
  };
}

// The sender is in the room through this client, and the room has space for one more message.
function checkSender(call: RoomCall, snap: RoomSnapshot, roomName: string, room: RoomRecord, agentName: string): void {
  const m = snap.member(roomName, agentName);
  if (!m) throw new NotFoundError(`${agentName} has never entered ${roomName}: enter_room first.`, 'AGENT_NOT_FOUND');
  if (!m.inRoom || m.client !== call.caller.name)
    throw new ConflictError(
      `${agentName} is not in ${roomName} through this API client: enter_room first.`,
      'AGENT_NOT_IN_ROOM',
    );
  const max = limit(call, 'rooms.max_messages_per_room');
  if (snap.visible(room).length >= max)
    throw new ConflictError(
      `${roomName} holds ${max} messages (Settings rooms.max_messages_per_room); clear it first.`,
      'ROOM_FULL',
    );
}

export function sendMessage(call: RoomCall, input: SendInput) {
  const sender = memberName(call, input.agentName);
  const { metadata, mentions, agents, asked } = checkedMessage(call, input);
  touchPresence(call.caller.name, undefined, limit(call, 'rooms.presence_seconds'));
  const out = withRoomLock(call.council.store, (state) => {
    const snap = new RoomSnapshot(call.council.store, state);
    const found = snap.need(input.roomName);
    const first = replayed(call, snap);
    if (first) return { queued: [], answer: first };
    const room = writable(found, 'sending a message');
    checkSender(call, snap, found.name, room, sender);
    const seq = snap.stored(room).reduce((a, x) => Math.max(a, x.seq), 0) + 1;
    const now = call.council.now();
    const at = cellDate(now);
    if (asked.length) checkReplies(call, snap.index(), found.name, agents, asked.length, now);
    const c = call.council.store.begin(state, actorOf(call));
    const id = `RMSG-${c.nextSeq('room_message')}`;
    // Every enabled council agent the message mentions answers it (src/app/tasks/room-reply.ts), charged to this
    // client when it answers.
    const queued = asked.map((a) =>
      queueReply(
        c,
        { room: found.name, message_id: id, agent_id: a.agent_id, sender, client: call.caller.name },
        actorOf(call),
        now,
      ),
    );
    c.setMarker(
      'room_messages',
      'append',
      messageCols.write({
        message_id: id,
        room_name: found.name,
        seq,
        agent_name: sender,
        client: call.caller.name,
        mentions_json: JSON.stringify(mentions),
        reply_to: '',
        request_key: call.requestKey,
        timestamp: at,
        size_chars: input.message.length + metadata.length,
        message: input.message,
        metadata_json: metadata,
      }),
      `Room Messages:${id}`,
    );
    c.audit({
      actor: actorOf(call),
      event: 'room_message',
      tab: 'Room Messages',
      row_key: id,
      payload: { room: found.name, seq, mentions, replies_queued: queued },
    });
    c.run(new Date(now).toISOString());
    const answer: SendAnswer = {
      success: true,
      messageId: id,
      roomName: found.name,
      timestamp: at.toISOString(),
      mentions,
    };
    return { queued, answer };
  });
  if (out.queued.length) nudge(call.council);
  return out.answer;
}

export function clearRoom(call: RoomCall, input: { roomName: string; confirm?: unknown }) {
  if (input.confirm !== true)
    throw new ValidationError('Clearing a room needs confirm: true.', 'CONFIRMATION_REQUIRED');
  touchPresence(call.caller.name, undefined, limit(call, 'rooms.presence_seconds'));
  return withRoomLock(call.council.store, (state) => {
    const snap = new RoomSnapshot(call.council.store, state);
    const found = snap.need(input.roomName);
    const room = writable(found, 'clearing it');
    const visible = snap.visible(room);
    const through = snap.stored(room).reduce((a, x) => Math.max(a, x.seq), room.clearedThrough);
    const now = call.council.now();
    const c = call.council.store.begin(state, actorOf(call));
    c.setMarker(
      'rooms',
      room.row,
      roomCols.write(
        { cleared_through: through, cleared_at: cellDate(now), cleared_by: call.caller.name },
        room.values,
      ),
      `Rooms:${found.name}`,
    );
    c.audit({
      actor: actorOf(call),
      event: 'room_cleared',
      tab: 'Rooms',
      row_key: found.name,
      payload: { cleared: visible.length, through },
    });
    c.run(new Date(now).toISOString());
    return { success: true, roomName: found.name, clearedCount: visible.length };
  });
}
