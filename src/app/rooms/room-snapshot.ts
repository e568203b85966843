// One call's view of the rooms: each tab read at most once, on first use, and the room a name refers to.
import { ACTIVE_STATUSES } from '../../core/discussion/vocab.js';
import type { Store, StoreState } from '../../store/store.js';
import { NotFoundError } from '../../core/errors.js';
import { isDiscussionRoom } from '../../core/api/rooms.js';
import {
  type DiscussionRoom,
  discussionMessageCounts,
  type IndexRecord,
  type MemberRecord,
  readDiscussions,
  readIndex,
  readMembers,
  readRooms,
  type RoomRecord,
} from './room-data.js';

export type FoundRoom =
  | { kind: 'free'; name: string; room: RoomRecord }
  | { kind: 'discussion'; name: string; d: DiscussionRoom };

// Discussions in these states are still being deliberated: their agents count as online in the room.
const ACTIVE = ACTIVE_STATUSES;

export function isActiveDiscussion(d: DiscussionRoom): boolean {
  return ACTIVE.indexOf(d.status) >= 0;
}

export class RoomSnapshot {
  private cache: {
    rooms?: RoomRecord[];
    members?: MemberRecord[];
    index?: IndexRecord[];
    discussions?: DiscussionRoom[];
    counts?: Record<string, number>;
  } = {};

  constructor(
    readonly store: Store,
    readonly state: StoreState,
  ) {}

  rooms(): RoomRecord[] {
    return (this.cache.rooms ??= readRooms(this.store, this.state));
  }

  members(): MemberRecord[] {
    return (this.cache.members ??= readMembers(this.store, this.state));
  }

  index(): IndexRecord[] {
    return (this.cache.index ??= readIndex(this.store, this.state));
  }

  discussions(): DiscussionRoom[] {
    return (this.cache.discussions ??= readDiscussions(this.store, this.state));
  }

  discussionCounts(): Record<string, number> {
    return (this.cache.counts ??= discussionMessageCounts(this.store, this.state));
  }

  // The room a name refers to: a free room by its exact name, or a discussion by its id; null when neither.
  find(name: string): FoundRoom | null {
    if (isDiscussionRoom(name)) {
      const d = this.discussions().find((x) => x.id === name);
      return d ? { kind: 'discussion', name, d } : null;
    }
    const room = this.rooms().find((r) => r.name === name);
    return room ? { kind: 'free', name, room } : null;
  }

  need(name: string): FoundRoom {
    const found = this.find(name);
    if (!found) throw new NotFoundError(`No room is named ${name}.`, 'ROOM_NOT_FOUND');
    return found;
  }

  // A free room's messages as its view shows them: after the last clear, in order.
  visible(room: RoomRecord): IndexRecord[] {
    return this.index()
      .filter((m) => m.room === room.name && m.seq > room.clearedThrough)
      .sort((a, b) => a.seq - b.seq);
  }

  // Every stored message of a free room, the cleared ones too.
  stored(room: RoomRecord): IndexRecord[] {
    return this.index().filter((m) => m.room === room.name);
  }

  // Members currently in a room (entered and not left).
  inRoom(name: string): MemberRecord[] {
    return this.members().filter((m) => m.room === name && m.inRoom);
  }

  member(room: string, agentName: string): MemberRecord | undefined {
    return this.members().find((m) => m.room === room && m.agentName === agentName);
  }
}
