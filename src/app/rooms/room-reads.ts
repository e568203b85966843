// What clients read of rooms: the list, who is in one (with presence), and its messages a page at a time. No lock:
// reads see the rows committed up to the tails in the state they start from.
import {
  discussionMessageView,
  mentioning,
  pageFromNewest,
  type RoomMessageView,
  type RoomProfile,
} from '../../core/api/rooms.js';
import type { Message } from '../../core/discussion/messages.js';
import { onlineKeys, touchPresence } from './presence.js';
import { readTexts } from './room-data.js';
import { withStorage } from './room-lock.js';
import { isActiveDiscussion, RoomSnapshot } from './room-snapshot.js';
import type { RoomCall } from './room-writes.js';

function snapshot(call: RoomCall): RoomSnapshot {
  return new RoomSnapshot(call.council.store, call.council.store.readState());
}

export function listRooms(call: RoomCall, input: { agentName?: string; joinedOnly?: boolean }) {
  return withStorage(() => roomList(call, input));
}

export function listRoomUsers(call: RoomCall, input: { roomName: string }) {
  return withStorage(() => roomUsers(call, input));
}

export function getMessages(call: RoomCall, input: GetInput) {
  return withStorage(() => messagePage(call, input));
}

function windowOf(call: RoomCall): number {
  return call.council.settings().number('rooms.presence_seconds');
}

interface RoomListing {
  name: string;
  description?: string;
  userCount: number;
  messageCount: number;
  isJoined?: boolean;
  // A discussion's room: readable, never written to by clients.
  readOnly: boolean;
}

// A read marks only its own client present: an agentName given to a read is a filter, never who is calling.
function roomList(call: RoomCall, input: { agentName?: string; joinedOnly?: boolean }) {
  touchPresence(call.caller.name, undefined, windowOf(call));
  const snap = snapshot(call);
  const joined = (room: string) =>
    input.agentName ? snap.inRoom(room).some((m) => m.agentName === input.agentName) : undefined;
  const withJoin = (r: RoomListing): RoomListing => {
    const j = joined(r.name);
    return j === undefined ? r : { ...r, isJoined: j };
  };
  const rooms: RoomListing[] = snap.rooms().map((r) =>
    withJoin({
      name: r.name,
      description: r.description || undefined,
      userCount: snap.inRoom(r.name).length,
      messageCount: snap.visible(r).length,
      readOnly: false,
    }),
  );
  const counts = snap.discussionCounts();
  for (const d of snap.discussions())
    rooms.push(
      withJoin({
        name: d.id,
        description: `Discussion ${d.id} (${d.status}): ${d.triggerType}${d.target ? ` about ${d.target}` : ''}`,
        userCount: d.participants.length + snap.inRoom(d.id).length,
        messageCount: counts[d.id] ?? 0,
        readOnly: true,
      }),
    );
  return { rooms: input.joinedOnly && input.agentName ? rooms.filter((r) => r.isJoined) : rooms };
}

interface RoomUser {
  name: string;
  status: 'online' | 'offline';
  messageCount: number;
  profile?: RoomProfile;
  // A council agent speaking in its discussion, rather than an API client's member.
  council?: boolean;
}

function roomUsers(call: RoomCall, input: { roomName: string }) {
  touchPresence(call.caller.name, undefined, windowOf(call));
  const snap = snapshot(call);
  const found = snap.need(input.roomName);
  const members = snap.inRoom(found.name);
  const online = onlineKeys(members, windowOf(call));
  let spoke: { agentName: string }[];
  const users: RoomUser[] = [];
  if (found.kind === 'free') spoke = snap.visible(found.room);
  else {
    const d = call.council.discussions.load(found.name).d;
    spoke = d.messages.map((m) => ({ agentName: m.speaker }));
    const agents = call.council.config.agents();
    for (const id of d.participants) {
      const a = agents.find((x) => x.agent_id === id);
      users.push({
        name: id,
        status: isActiveDiscussion(found.d) ? 'online' : 'offline',
        messageCount: 0,
        profile: a
          ? { role: a.group, description: a.name_en || a.name_ja, capabilities: a.phases.map((p) => `phase ${p}`) }
          : undefined,
        council: true,
      });
    }
  }
  for (const m of members)
    users.push({
      name: m.agentName,
      status: online.has(m.key) ? 'online' : 'offline',
      messageCount: 0,
      profile: m.profile ?? undefined,
    });
  for (const u of users) u.messageCount = spoke.filter((s) => s.agentName === u.name).length;
  return { roomName: found.name, users, onlineCount: users.filter((u) => u.status === 'online').length };
}

export interface GetInput {
  roomName: string;
  agentName?: string;
  limit: number;
  offset: number;
  mentionsOnly: boolean;
}

function messagePage(call: RoomCall, input: GetInput) {
  touchPresence(call.caller.name, undefined, windowOf(call));
  const snap = snapshot(call);
  const found = snap.need(input.roomName);
  const only = <T extends { mentions: string[] }>(all: T[]) =>
    input.mentionsOnly && input.agentName ? mentioning(all, input.agentName) : all;
  let messages: RoomMessageView[];
  let hasMore: boolean;
  if (found.kind === 'discussion') {
    const all: Message[] = call.council.discussions.load(found.name).d.messages;
    const page = pageFromNewest(only(all.map(discussionMessageView)), input.limit, input.offset);
    messages = page.items;
    hasMore = page.hasMore;
  } else {
    const page = pageFromNewest(only(snap.visible(found.room)), input.limit, input.offset);
    const texts = readTexts(call.council.store, page.items);
    messages = page.items.map((m) => {
      const t = texts[m.id];
      const view: RoomMessageView = {
        id: m.id,
        agentName: m.agentName,
        message: t.message,
        timestamp: m.timestamp,
        mentions: m.mentions,
      };
      if (t.metadata) view.metadata = t.metadata;
      if (m.replyTo) view.replyTo = m.replyTo;
      return view;
    });
    hasMore = page.hasMore;
  }
  return { roomName: found.name, messages, count: messages.length, hasMore };
}
