// escalation.resolve: a person approved, returned or rejected an escalated discussion.
import { type ResolutionInput, runResolution } from '../../core/orders/objections.js';
import { assignDecisionId } from '../discussions/pending-ids.js';
import type { TaskHandler } from './task.js';

export const resolveEscalation: TaskHandler = {
  type: 'escalation.resolve',
  run(item, { council }) {
    const input = item.payload as unknown as ResolutionInput;
    const l = council.discussions.load(input.discussion_id);
    const computed = runResolution(l.d, input, council.env());
    council.store.withLock((state) => {
      const c = council.store.begin(state);
      council.discussions.commitStep(c, l, assignDecisionId(c, council.tz, computed).r);
    });
    return { kind: 'done' };
  },
};
