// The rooms protocol's get_status: per room its online users, messages and storage, and the totals.
import type { Store } from '../../store/store.js';
import { Configuration } from '../discussions/configuration.js';
import { onlineKeys } from './presence.js';
import { discussionSizes } from './room-data.js';
import { withStorage } from './room-lock.js';
import { isActiveDiscussion, RoomSnapshot } from './room-snapshot.js';

interface RoomStatus {
  name: string;
  onlineUsers: number;
  // Messages in the room's view (a cleared room's hidden messages are not counted).
  totalMessages: number;
  // Characters its messages take in storage, the cleared ones too (they are kept).
  storageSize: number;
}

export interface RoomsStatus {
  rooms: RoomStatus[];
  totalRooms: number;
  totalOnlineUsers: number;
  totalMessages: number;
}

// Every room (free rooms, then the discussions' rooms), or only `roomName`; ROOM_NOT_FOUND for an unknown name.
// A discussion's agents count as online while it is being deliberated.
export function roomsStatus(store: Store, roomName?: string): RoomsStatus {
  return withStorage(() => status(store, roomName));
}

function status(store: Store, roomName?: string): RoomsStatus {
  const windowSeconds = new Configuration(store, store.timeZone).settings().number('rooms.presence_seconds');
  const snap = new RoomSnapshot(store, store.readState());
  const only = roomName ? snap.need(roomName) : null;
  const free = only ? (only.kind === 'free' ? [only.room] : []) : snap.rooms();
  const discussions = only ? (only.kind === 'discussion' ? [only.d] : []) : snap.discussions();
  const names = free.map((r) => r.name).concat(discussions.map((d) => d.id));
  const members = snap.members().filter((m) => m.inRoom && names.indexOf(m.room) >= 0);
  const online = onlineKeys(members, windowSeconds);
  // Distinct names online anywhere, for the total: one client in two rooms is one user.
  const everyone = new Set<string>();
  const onlineIn = (room: string, agents: readonly string[] = []) => {
    const here = members.filter((m) => m.room === room && online.has(m.key)).map((m) => m.agentName);
    for (const n of here.concat(agents)) everyone.add(n);
    return here.length + agents.length;
  };
  const rooms: RoomStatus[] = free.map((r) => ({
    name: r.name,
    onlineUsers: onlineIn(r.name),
    totalMessages: snap.visible(r).length,
    storageSize: snap.stored(r).reduce((a, m) => a + m.sizeChars, 0),
  }));
  if (discussions.length) {
    const counts = snap.discussionCounts();
    const sizes = discussionSizes(store, snap.state);
    for (const d of discussions)
      rooms.push({
        name: d.id,
        onlineUsers: onlineIn(d.id, isActiveDiscussion(d) ? d.participants : []),
        totalMessages: counts[d.id] ?? 0,
        storageSize: sizes[d.id] ?? 0,
      });
  }
  return {
    rooms,
    totalRooms: rooms.length,
    totalOnlineUsers: everyone.size,
    totalMessages: rooms.reduce((a, r) => a + r.totalMessages, 0),
  };
}
