// discussion.open: allocate the id, write the log row, and turn the task into discussion.advance.
import { dayOf, logRow } from '../../adapters/gas/records.js';
import { discussionId } from '../../core/ids.js';
import { inProgressCount, type QueueItem } from '../../core/queue.js';
import { transition } from '../../core/state-machine.js';
import { validateTrigger } from '../../core/trigger-input.js';
import type { Discussion, Priority, Trigger } from '../../core/types.js';
import type { TaskHandler } from './task.js';

export const openDiscussion: TaskHandler = {
  type: 'discussion.open',
  run(item, { council, inProgress }) {
    const p = item.payload as { trigger: Trigger; priority?: Priority };
    const trigger = validateTrigger(p.trigger);
    const max = council.settings().number('limits.max_concurrent_discussions');
    return council.store.withLock((state) => {
      // Counted again under the lock: executions that claimed at the same time must not all start.
      const start = inProgress < max && inProgressCount(council.queue.read(state)) < max;
      const now = Date.now();
      const c = council.store.begin(state);
      const day = dayOf(now, council.tz);
      const id = discussionId(day, c.nextDaily('disc', day));
      const d: Discussion = {
        discussion_id: id,
        status: 'OPEN',
        priority: p.priority ?? item.priority,
        trigger,
        created_at: new Date(now).toISOString(),
        closed_at: '',
        participants: [],
        messages: [],
        final_decision: null,
        execution_status: 'NOT_STARTED',
        outcome_evaluated: '',
        notes: [],
      };
      // Starting now, the discussion is in progress from its first row on, so the log never shows more than the limit.
      const status = start ? transition('OPEN', 'IN_PROGRESS') : 'OPEN';
      const placed = c.appendOne('discussions', logRow({ ...d, status }, '[]'), `Discussion Log:${id}`);
      const row = placed.row;
      c.audit({
        actor: trigger.source,
        event: 'log_row',
        tab: 'Discussion Log',
        row_key: id,
        payload: { row, status, sha256: c.digest(placed.values) },
      });
      if (start)
        c.audit({
          actor: 'kaigi',
          event: 'status',
          tab: 'Discussion Log',
          row_key: id,
          payload: { from: 'OPEN', to: 'IN_PROGRESS' },
        });
      // With room under the in-progress limit the same execution goes straight on; otherwise it waits queued.
      const advance = { ...item, type: 'discussion.advance', updated_at: now, attempts: 0 };
      const next: QueueItem = start
        ? { ...advance, payload: { discussion_id: id, row, started: true } }
        : {
            ...advance,
            payload: { discussion_id: id, row, started: false },
            status: 'queued',
            lease_owner: '',
            lease_until: 0,
          };
      council.queue.write(c, next, true);
      c.run(new Date(now).toISOString());
      return start
        ? { kind: 'continue', item: { ...next, rawPayload: undefined } as QueueItem }
        : { kind: 'converted' };
    });
  },
};
