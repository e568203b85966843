// Whether anything is queued or running, and the discussions waiting to open: the sidebar keeps polling while
// anything is, and lists a discussion started anywhere (the API, the watcher, another person) as soon as it is queued.
import { rowsOf } from '../../../sheets-schema/index.js';
import type { Store } from '../../store/store.js';
import { text } from './plain.js';
import { ports } from '../../ports.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';

const cols = rowsOf('queue');
// One read of the columns from the task id to when it was queued.
const WIDTH = cols.index('created_at') + 1;

// A discussion the queue has not opened yet, as the sidebar's list shows one: by its reserved id (the API, the
// start dialog) or else by its task id, with what its trigger says.
interface QueuedDiscussion {
  id: string;
  // Always QUEUED: a status of the sidebar's list, not of the Discussion Log.
  status: string;
  priority: string;
  target: string;
  createdAt: string;
}

export interface QueueActivity {
  // Any task queued or being processed.
  busy: boolean;
  // Discussion ids named in the payload of such a task (a raw payload moved to Overflow names none; the
  // discussion's own status covers the discussion steps).
  discussions: string[];
  // discussion.open tasks queued or being processed, oldest first.
  queued: QueuedDiscussion[];
}

function payloadOf(cell: unknown): Record<string, unknown> {
  try {
    const p = JSON.parse(String(cell)) as unknown;
    return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
  } catch {
    // A payload moved to Overflow is a pointer, not JSON of a payload: the task is listed by its id alone.
    return {};
  }
}

function queuedOf(r: ReturnType<typeof cols.read>, payload: Record<string, unknown>): QueuedDiscussion {
  const trigger = (payload.trigger ?? {}) as Record<string, unknown>;
  const created = r.created_at;
  return {
    id: text(payload.discussion_id) || text(r.id),
    status: 'QUEUED',
    priority: text(r.priority),
    target: text(trigger.target_user_id),
    createdAt: created instanceof Date ? created.toISOString() : text(created),
  };
}

// One read of the rows from the queue head (rows before it are finished) to the tail. Work scheduled for later (an
// escalation's timer, a retry's back-off) is not activity now; a discussion waiting to open is listed either way.
export function queueActivity(store: Store): QueueActivity {
  const state = store.readState();
  const head = Math.max(2, state.queueHead);
  const last = state.tails.queue?.last ?? 1;
  if (last < head) return { busy: false, discussions: [], queued: [] };
  const values = store
    .sheet('queue')
    .getRange(head, 1, last - head + 1, WIDTH)
    .getValues();
  const now = ports().clock.now();
  const discussions: string[] = [];
  const queued: QueuedDiscussion[] = [];
  let busy = false;
  for (const v of values) {
    const r = cols.read(v);
    if (r.status !== 'queued' && r.status !== 'processing') continue;
    if (r.type === TASK_KINDS.open.type) queued.push(queuedOf(r, payloadOf(r.payload_json)));
    const at = r.available_at;
    if (r.status === 'queued' && at instanceof Date && at.getTime() > now) continue;
    busy = true;
    const m = /"discussion_id":"(DISC-[0-9-]+)"/.exec(String(r.payload_json));
    if (m && discussions.indexOf(m[1]) < 0) discussions.push(m[1]);
  }
  return { busy, discussions, queued };
}
