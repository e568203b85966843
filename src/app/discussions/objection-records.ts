// An objection's row in the Objections tab: written OPEN in the commit that queues its processing, so the objections
// waiting for a judgement are a query over the tab, and brought to the judged state by the commit that processes it.
import { rowsOf } from '../../../sheets-schema/index.js';
import type { Commit } from '../../store/commit.js';
import { cellDate, objectionRow } from '../../store/records.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { objectionState } from '../../core/orders/objection-state.js';
import { filedObjection, type ObjectionInput } from '../../core/orders/objections.js';
import type { ObjectionRow } from '../../core/types.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import type { Council } from '../sheet-council.js';

const OBJ = rowsOf('objections');

// Every state change of an objection is one audit event naming its row and the state it reached.
function audited(c: Commit, actor: string, id: string, status: ObjectionRow['status']): void {
  c.audit({ actor, event: 'objection', tab: 'Objections', row_key: id, payload: { status } });
}

// Files the objection in `c`: the next OBJ id and an OPEN row (the decision is named once it is judged). The payload
// queued with it carries the id, so its processing updates this row.
export function fileObjectionRow(c: Commit, o: ObjectionInput, nowIso: string): ObjectionInput {
  const filed = { ...o, objection_id: `OBJ-${c.nextSeq('objection')}` };
  c.appendOne('objections', objectionRow(filedObjection(filed, '', nowIso)), `Objections:${filed.objection_id}`);
  audited(c, o.objector, filed.objection_id, 'OPEN');
  return filed;
}

// The judged objection, in `c`: its filed row takes the decision, state and resolution (the filing time and what the
// objector wrote stay as filed). A task queued before objections were filed as rows has none: its row is appended.
export function settleObjectionRow(council: Council, c: Commit, judged: ObjectionRow): void {
  const id = judged.objection_id;
  const at = council.store.findRow('objections', id);
  if (at === null) c.appendOne('objections', objectionRow(judged), `Objections:${id}`);
  else {
    const { decision_id, status, resolution, resolved_by, resolved_at } = OBJ.read(objectionRow(judged));
    const filed = council.store.readRows('objections', at, 1)[0];
    c.update('objections', at, OBJ.write({ decision_id, status, resolution, resolved_by, resolved_at }, filed));
  }
  audited(c, judged.objector, id, judged.status);
}

// A person's objection (the sidebar, the CLI) or the engine's own: its OPEN row and its task in one commit of their
// own. Returns the task's id and the objection's (what a withdrawal names).
export function queueObjection(council: Council, o: ObjectionInput): { task_id: string; objection_id: string } {
  return council.store.withLock((state) => {
    const now = council.now();
    const c = council.store.begin(state);
    const payload = fileObjectionRow(c, o, new Date(now).toISOString());
    const id = council.queue.append(
      c,
      now,
      { task: TASK_KINDS.objection, payload, priority: o.urgency, from: o.objector, availableAt: now },
      true,
    );
    c.run(new Date(now).toISOString());
    return { task_id: id, objection_id: payload.objection_id };
  });
}

// Whether an objection still waits for a judgement: its task judges nothing once it was withdrawn. A task queued
// before objections were filed as rows (no id, or no row) is judged as before.
export function objectionOpen(council: Council, id: string): boolean {
  const at = id ? council.store.findRow('objections', id) : null;
  return at === null || objectionState(OBJ.read(council.store.readRows('objections', at, 1)[0]).status) === 'OPEN';
}

// Withdraws an OPEN objection: its row says WITHDRAWN and who withdrew it, audited; one already judged or withdrawn
// is refused naming its state, and nothing is written.
export function withdrawObjectionRow(
  council: Council,
  id: string,
  by: string,
): { objection_id: string; status: 'WITHDRAWN' } {
  if (!/^OBJ-\d+$/.test(id)) throw new ValidationError('objection_id must look like OBJ-n');
  return council.store.withLock((state) => {
    const at = council.store.findRow('objections', id);
    if (at === null) throw new NotFoundError(`objection ${id} was not found`, 'objection_not_found');
    const filed = council.store.readRows('objections', at, 1)[0];
    const current = objectionState(OBJ.read(filed).status);
    if (current !== 'OPEN')
      throw new ConflictError(`${id} is ${current}; only an OPEN objection can be withdrawn`, 'objection_not_open');
    const time = council.now();
    const c = council.store.begin(state);
    const resolution = `withdrawn by ${by}`;
    c.update(
      'objections',
      at,
      OBJ.write({ status: 'WITHDRAWN', resolution, resolved_by: by, resolved_at: cellDate(time) }, filed),
    );
    audited(c, by, id, 'WITHDRAWN');
    c.run(new Date(time).toISOString());
    return { objection_id: id, status: 'WITHDRAWN' as const };
  });
}
