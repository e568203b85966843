// objection.process: an objection re-opens the discussion where it applies, and its row takes the judged state.
import { applyStep, needsReview } from '../../core/engine.js';
import { runObjection } from '../../core/orders/objections.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { inExecutionText, orderInExecution } from '../orders/order-execution.js';
import { assignDecisionId, PENDING_OBJECTION, replaceDeep } from '../discussions/pending-ids.js';
import { objectionOpen, settleObjectionRow } from '../discussions/objection-records.js';
import { defineTask } from './task.js';

export const processObjection = defineTask(TASK_KINDS.objection, {
  run(_item, input, { council }) {
    // A withdrawn objection is judged no more: its task ends with nothing written.
    if (!objectionOpen(council, input.objection_id)) return { kind: 'done' };
    const l = council.discussions.load(input.discussion_id);
    // An objection queued before objections were filed as rows has no id yet: it is given one inside the commit, like
    // a decision id.
    const run = (late: string) =>
      runObjection(
        l.d,
        { ...input, objection_id: input.objection_id || PENDING_OBJECTION },
        council.env(),
        new Date(council.now()).toISOString(),
        late,
      );
    const tooLate = () => {
      const o = orderInExecution(council, input.discussion_id);
      return o ? inExecutionText(input.discussion_id, o) : '';
    };
    const before = tooLate();
    const computed = run(before);
    council.store.withLock((state) => {
      // A report may have moved an order on while the objection was judged: then it is refused instead, so a
      // revised decision never replaces an order already being carried out.
      // Withdrawn while it was judged: nothing is written.
      if (!objectionOpen(council, input.objection_id)) return;
      const late = before ? '' : tooLate();
      const result = late ? run(late) : computed;
      const c = council.store.begin(state);
      const id = input.objection_id || `OBJ-${c.nextSeq('objection')}`;
      const named = replaceDeep(result, PENDING_OBJECTION, id);
      const { r, alongside } = assignDecisionId(c, council.tz, named.result, named.objection);
      const objection = alongside ?? named.objection;
      council.discussions.commitStep(c, l, r, (cc) => {
        // A revised order is a new decision: the agent review reads it too, within the same limit.
        if (needsReview(applyStep(l.d, r)))
          council.queue.append(cc, council.now(), {
            task: TASK_KINDS.advance,
            payload: { discussion_id: l.d.discussion_id },
            priority: l.d.priority,
            from: 'council',
            availableAt: council.now(),
          });
        // The row filed OPEN with the task takes its judged state.
        settleObjectionRow(council, cc, objection);
      });
    });
    return { kind: 'done' };
  },
});
