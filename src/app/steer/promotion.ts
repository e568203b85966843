// A person's answer to a promotion proposal: approved, the learning becomes shared; declined, it
// stays the agent's own and is not proposed again. The learning's promotion cell names the Inbox item it waits on.
import { rowsOf } from '../../../sheets-schema/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { successRate } from '../../core/memory/memory.js';
import type { Council } from '../sheet-council.js';
import { text } from './plain.js';
import { InboxRows } from '../../store/repositories/inbox-rows.js';

const inboxCols = rowsOf('inbox');
const learningCols = rowsOf('learnings');

// The Learnings rows whose promotion cell says they wait on `inboxId` (one column read): a promotion
// (`proposed INB-…`, one row) or the learnings a model wrote (`awaiting INB-…`, src/core/memory/review-learnings.ts).
function waiting(council: Council, inboxId: string): { promotion: number | null; awaiting: number[] } {
  const sheet = council.store.sheet('learnings');
  const last = sheet.getLastRow();
  if (last < 2) return { promotion: null, awaiting: [] };
  const cells = sheet.getRange(2, learningCols.index('promotion') + 1, last - 1, 1).getValues();
  const i = cells.findIndex((r) => text(r[0]) === `proposed ${inboxId}`);
  const awaiting = cells.flatMap((r, j) => (text(r[0]) === `awaiting ${inboxId}` ? [j + 2] : []));
  return { promotion: i < 0 ? null : i + 2, awaiting };
}

// In one commit: the learning shared (or marked declined), the Inbox item responded, both audited with who answered.
// `by` is who Apps Script says is calling (src/entries/steer.ts checks the role first).
export function answerPromotion(
  council: Council,
  input: { inbox_id: string; approve: boolean },
  by: string,
): { inbox_id: string; learning_id: string; scope: string } {
  const id = text(input?.inbox_id);
  if (!id) throw new ValidationError('inbox_id is required');
  if (typeof input?.approve !== 'boolean') throw new ValidationError('approve must be true or false', 'invalid_answer');
  const approve = input.approve;
  const out = council.store.withLock((state) => {
    const irow = new InboxRows(council.store).rowOf(id);
    const ivalues = irow ? council.store.readRows('inbox', irow, 1)[0] : null;
    if (!irow || !ivalues || text(inboxCols.read(ivalues).inbox_id) !== id)
      throw new NotFoundError(`no Inbox item ${id}`);
    const item = inboxCols.read(ivalues);
    if (text(item.type) !== 'proposal') throw new ValidationError(`${id} is not a proposal`, 'not_a_proposal');
    const rows = waiting(council, id);
    if (rows.awaiting.length)
      return approveWritten(council, state, { id, irow, ivalues, rows: rows.awaiting }, approve, by);
    const lrow = rows.promotion;
    if (!lrow) throw new ConflictError(`no learning waits on ${id}: it was answered already or is not a promotion`);
    const lvalues = council.store.readRows('learnings', lrow, 1)[0];
    const l = learningCols.read(lvalues);
    const learningId = text(l.learning_id);
    const active = l.is_active === true || text(l.is_active).toLowerCase() === 'true';
    if (approve && (!active || text(l.scope) !== 'individual'))
      throw new ConflictError(`${learningId} is no longer an active individual learning; it cannot be promoted`);
    const now = council.now();
    const c = council.store.begin(state, by);
    const promotion = `${approve ? 'approved' : 'declined'} ${id} by ${by}`;
    const scope = approve ? 'shared' : text(l.scope);
    c.updateAfter(
      'learnings',
      lrow,
      learningCols.write(
        {
          scope,
          agent_id: approve ? '' : l.agent_id,
          promotion,
          success_rate: successRate(Number(l.times_applied) || 0, Number(l.times_successful) || 0),
        },
        lvalues,
      ),
    );
    c.audit({
      actor: by,
      event: approve ? 'learning_promoted' : 'learning_promotion_declined',
      tab: 'Learnings',
      row_key: learningId,
      payload: { inbox_id: id, from_agent: text(l.agent_id), scope },
    });
    c.setMarker(
      'inbox',
      irow,
      inboxCols.write(
        { status: 'responded', response: approve ? 'approved' : 'declined', updated_at: new Date(now) },
        ivalues,
      ),
      `Inbox:${id}`,
    );
    c.audit({
      actor: by,
      event: 'inbox_answer',
      tab: 'Inbox',
      row_key: id,
      payload: { approve, learning_id: learningId },
    });
    c.run(new Date(now).toISOString());
    return { inbox_id: id, learning_id: learningId, scope };
  });
  // Retrieval reads the Learnings rows through a cache: the shared learning reaches the next discussion.
  council.recall.forget();
  return out;
}

// The learnings a model wrote from one verdict, answered together: approved, each becomes active (still its agent's
// own; sharing goes through promotion); declined, each stays inactive and says so. One commit, audited per row.
function approveWritten(
  council: Council,
  state: Parameters<Parameters<Council['store']['withLock']>[0]>[0],
  item: { id: string; irow: number; ivalues: unknown[]; rows: number[] },
  approve: boolean,
  by: string,
): { inbox_id: string; learning_id: string; scope: string } {
  const now = council.now();
  const c = council.store.begin(state, by);
  const ids: string[] = [];
  for (const row of item.rows) {
    const values = council.store.readRows('learnings', row, 1)[0];
    const l = learningCols.read(values);
    const learningId = text(l.learning_id);
    ids.push(learningId);
    c.updateAfter(
      'learnings',
      row,
      learningCols.write(
        { is_active: approve, promotion: `${approve ? 'approved' : 'declined'} ${item.id} by ${by}` },
        values,
      ),
    );
    c.audit({
      actor: by,
      event: approve ? 'learning_approved' : 'learning_declined',
      tab: 'Learnings',
      row_key: learningId,
      payload: { inbox_id: item.id, agent_id: text(l.agent_id) },
    });
  }
  c.setMarker(
    'inbox',
    item.irow,
    inboxCols.write(
      { status: 'responded', response: approve ? 'approved' : 'declined', updated_at: new Date(now) },
      item.ivalues,
    ),
    `Inbox:${item.id}`,
  );
  c.audit({ actor: by, event: 'inbox_answer', tab: 'Inbox', row_key: item.id, payload: { approve, learnings: ids } });
  c.run(new Date(now).toISOString());
  return { inbox_id: item.id, learning_id: ids.join(', '), scope: 'individual' };
}
