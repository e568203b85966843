// Queues a council agent's answer to a room message inside the commit that stores the message, so a stored
// mention always has its answer queued; the caller then nudges the queue (src/app/discussions/requests.ts).
import { queueRow } from '../../store/records.js';
import type { Commit } from '../../store/store.js';
import type { QueueItem } from '../../core/queue.js';
import { payloadRow, type RoomReplyPayload, TASK_KINDS } from '../../core/queue-tasks.js';

const ROOM_REPLY = TASK_KINDS.roomReply.type;

// One queue row per mentioned agent, with a dedupe key naming the message and the agent.
export function queueReply(c: Commit, p: RoomReplyPayload, actor: string, now: number): string {
  const id = `Q-${c.nextSeq('queue')}`;
  const item: QueueItem = {
    row: 0,
    id,
    type: ROOM_REPLY,
    from: actor,
    to: p.agent_id,
    priority: 'HIGH',
    payload: payloadRow(TASK_KINDS.roomReply, p),
    status: 'queued',
    attempts: 0,
    available_at: now,
    lease_owner: '',
    lease_until: 0,
    dedupe_key: `${ROOM_REPLY}:${p.message_id}:${p.agent_id}`,
    created_at: now,
    updated_at: now,
    last_error: '',
  };
  const row = c.append('queue', [queueRow(item)], () => `Queue:${id}`);
  c.audit({
    actor,
    event: 'enqueue',
    tab: 'Queue',
    row_key: id,
    payload: { type: ROOM_REPLY, priority: item.priority, row, message_id: p.message_id, agent_id: p.agent_id },
  });
  return id;
}
