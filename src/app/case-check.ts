// The daily check of past cases: a case row whose context cell no longer holds a case is named to a person once.
import { unreadableCases } from '../core/recall.js';
import type { Learning } from '../core/memory.js';
import type { Council } from './council.js';
import { type Notice, Notices } from './notices.js';

function unreadableCaseNotice(l: Learning): Notice {
  const cell = l.context.length > 200 ? `${l.context.slice(0, 200)}…` : l.context;
  return {
    key: `case-context:${l.learning_id}`,
    condition: l.context,
    priority: 'normal',
    title: `Case ${l.learning_id} has a context Kaigi cannot read`,
    body:
      `Learnings row ${l.row} (${l.learning_id}) is a case, but its context cell holds ${JSON.stringify(cell)}, ` +
      'which is not a case (JSON with discussion_id, decision_id, member, actions and verdict). Until it is fixed ' +
      'the case is not recalled in discussions and the review cannot record its verdict; the row is kept as it is.',
  };
}

// Returns the ids of the unreadable cases (all of them, told or already told); a fixed row is forgotten, so it is
// told again if it breaks again.
export function tellUnreadableCases(council: Council): string[] {
  const bad = unreadableCases(council.recall.memory().rows());
  new Notices(council.store).sync('case-context:', bad.map(unreadableCaseNotice));
  return bad.map((l) => l.learning_id);
}
