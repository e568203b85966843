// Whether anything is queued or running: the sidebar keeps polling while it is, and stops once all is idle.
import { rowsOf } from '../../../sheets-schema/index.js';
import type { Store } from '../../adapters/gas/store.js';

const cols = rowsOf('queue');
const PAYLOAD = cols.index('payload_json');
const STATUS = cols.index('status');
const AVAILABLE = cols.index('available_at');

export interface QueueActivity {
  // Any task queued or being processed.
  busy: boolean;
  // Discussion ids named in the payload of such a task (a raw payload moved to Overflow names none; the
  // discussion's own status covers the discussion steps).
  discussions: string[];
}

// One read of the columns from payload to available_at, from the queue head (rows before it are finished) to the
// tail. Work scheduled for later (an escalation's timer, a retry's back-off) is not activity now.
export function queueActivity(store: Store): QueueActivity {
  const state = store.readState();
  const head = Math.max(2, state.queueHead);
  const last = state.tails.queue?.last ?? 1;
  if (last < head) return { busy: false, discussions: [] };
  const values = store
    .sheet('queue')
    .getRange(head, PAYLOAD + 1, last - head + 1, AVAILABLE - PAYLOAD + 1)
    .getValues();
  const now = Date.now();
  const discussions: string[] = [];
  let busy = false;
  for (const v of values) {
    const status = v[STATUS - PAYLOAD];
    if (status !== 'queued' && status !== 'processing') continue;
    const at = v[AVAILABLE - PAYLOAD];
    if (status === 'queued' && at instanceof Date && at.getTime() > now) continue;
    busy = true;
    const m = /"discussion_id":"(DISC-[0-9-]+)"/.exec(String(v[0]));
    if (m && discussions.indexOf(m[1]) < 0) discussions.push(m[1]);
  }
  return { busy, discussions };
}
