// The daily check of past cases: the case rows whose context cell no longer holds a case, named to a person once.
import { unreadableCases } from '../../core/memory/recall.js';
import type { Learning } from '../../core/memory/memory.js';
import type { Council } from '../sheet-council.js';
import { type Notice, Notices, quote } from '../notices.js';

// Rows named in the body; the rest are counted. The Inbox body holds 3,000 characters.
const NAMED = 15;

// One notice for all of them: a paste over the column can break hundreds of rows, and a remembered notice per row
// would outgrow the one Script Property every notice shares.
function unreadableCasesNotice(bad: readonly Learning[]): Notice {
  const named = bad.slice(0, NAMED).map((l) => `row ${l.row} (${l.learning_id}): ${quote(l.context, 80)}`);
  if (bad.length > NAMED) named.push(`and ${bad.length - NAMED} more`);
  return {
    key: 'case-context',
    condition: bad.map((l) => `${l.learning_id}\n${l.context}`).join('\n'),
    priority: 'normal',
    title: `${bad.length} case${bad.length === 1 ? '' : 's'} in Learnings with a context Kaigi cannot read`,
    body:
      `These case rows hold a context that is not a case (JSON with discussion_id, decision_id, member, actions ` +
      `and verdict): ${named.join('; ')}. Until a row is fixed its case is not recalled in discussions. If its ` +
      'decision is reviewed meanwhile, the verdict is written only to the Outcomes tab: copy it into the ' +
      "context's verdict when you fix the row. The rows are kept as they are.",
  };
}

// Returns the ids of the unreadable cases (told now or before); when the rows or their cells change it is told
// again, and when none is left the notice is forgotten, so a row that breaks later is told.
export function tellUnreadableCases(council: Council): string[] {
  const bad = unreadableCases(council.recall.memory().rows());
  new Notices(council.store).sync('case-context', bad.length ? [unreadableCasesNotice(bad)] : []);
  return bad.map((l) => l.learning_id);
}
