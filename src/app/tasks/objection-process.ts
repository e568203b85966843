// objection.process: an objection re-opens the discussion where it applies and is stored with its outcome.
import { objectionRow } from '../../adapters/gas/records.js';
import { applyStep, needsReview } from '../../core/engine.js';
import { type ObjectionInput, runObjection } from '../../core/orders/objections.js';
import { inExecutionText, orderInExecution } from '../orders/order-execution.js';
import { assignDecisionId, PENDING_OBJECTION, replaceDeep } from '../discussions/pending-ids.js';
import type { TaskHandler } from './task.js';

export const processObjection: TaskHandler = {
  type: 'objection.process',
  run(item, { council }) {
    const input = item.payload as unknown as ObjectionInput;
    const l = council.discussions.load(input.discussion_id);
    // The objection's id is only known inside the commit; it is filled in there like a decision id.
    const run = (late: string) =>
      runObjection(
        l.d,
        { ...input, objection_id: input.objection_id || PENDING_OBJECTION },
        council.env(),
        new Date(Date.now()).toISOString(),
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
          council.queue.append(cc, Date.now(), {
            type: 'discussion.advance',
            payload: { discussion_id: l.d.discussion_id },
            priority: l.d.priority,
            from: 'council',
            availableAt: Date.now(),
          });
        cc.appendOne('objections', objectionRow(objection), `Objections:${id}`);
        cc.audit({
          actor: objection.objector,
          event: 'objection',
          tab: 'Objections',
          row_key: id,
          payload: { status: objection.status },
        });
      });
    });
    return { kind: 'done' };
  },
};
