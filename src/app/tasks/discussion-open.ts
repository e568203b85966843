// discussion.open: take the id reserved at enqueue (or allocate one), write the log row, and turn the task into
// discussion.advance.
import { dayOf, logRow } from '../../store/records.js';
import type { Estimate } from '../../core/engine/estimate.js';
import { DISCUSSION_ID } from '../../core/api/api-schemas.js';
import { discussionId } from '../../core/discussion/ids.js';
import { inProgressCount, type QueueItem } from '../../core/queue.js';
import { transition } from '../../core/discussion/state-machine.js';
import { validateTrigger } from '../../core/discussion/trigger-input.js';
import { newDiscussion } from '../../core/types.js';
import { type OpenPayload, payloadRow, TASK_KINDS } from '../../core/queue-tasks.js';
import { Notices } from '../notices.js';
import { pricedEstimate } from '../discussions/start-estimate.js';
import type { Commit } from '../../store/store.js';
import type { Council } from '../sheet-council.js';
import type { Outcome } from '../queue/work-queue.js';
import { defineTask } from './task.js';

// The forecast, in the notes column of the log row; past the limit it says what happens, once, at creation.
function estimateNote(e: Estimate, lang: 'ja' | 'en'): string {
  if (lang === 'ja')
    return e.over
      ? `見積り: 約${e.tokens}トークン（上限${e.limit}を超過。上限を超えた時点で以前の発言を要約して続行）`
      : `見積り: 約${e.tokens}トークン（上限${e.limit}）`;
  return e.over
    ? `estimate: ~${e.tokens} tokens, over the limit of ${e.limit} (earlier messages will be summarised once it is passed)`
    : `estimate: ~${e.tokens} tokens (limit ${e.limit})`;
}

function overNotice(id: string, e: Estimate, input: number, lang: 'ja' | 'en') {
  return lang === 'ja'
    ? {
        title: `${id}: 見積り約${e.tokens}トークンが上限${e.limit}を超えています`,
        body: `この議論は${e.prompts}回のプロンプトで約${e.tokens}トークンと見積もられ、1議論の上限 limits.max_tokens_per_discussion（${e.limit}）を超えます。各プロンプトが運ぶデータは約${e.data}トークン（入力は1件あたり limits.input_tokens = ${input} に制限済み）。上限を超えると以前の発言を要約して続けます。コストを抑えるにはトリガーの context を短くするか、上限を見直してください。`,
      }
    : {
        title: `${id}: estimated ~${e.tokens} tokens, over the limit of ${e.limit}`,
        body: `This discussion is estimated at ~${e.tokens} tokens over ${e.prompts} prompts, more than limits.max_tokens_per_discussion (${e.limit}). Each prompt carries ~${e.data} tokens of data (every input already bounded to limits.input_tokens = ${input}). Once past the limit, earlier messages are summarised. To spend less, shorten the trigger's context or review the limit.`,
      };
}

// Writes the log row and turns the task into discussion.advance, in `c` (under the lock), with the item's row as the
// commit point; the caller runs the commit. `items`: the queue as read under this lock.
function open(
  council: Council,
  item: QueueItem,
  p: OpenPayload,
  inProgress: number,
  items: QueueItem[],
  c: Commit,
): Outcome {
  // discussion_id: reserved when the task was queued (POST /tasks answers with it); actor: who asked, for the audit.
  const reserved = typeof p.discussion_id === 'string' && DISCUSSION_ID.test(p.discussion_id) ? p.discussion_id : '';
  const trigger = validateTrigger(p.trigger);
  const max = council.settings().number('limits.max_concurrent_discussions');
  // The configuration the forecast needs (discussion.advance uses the same, cached).
  const env = council.env();
  // Counted under the lock: executions that claimed at the same time must not all start.
  const start = inProgress < max && inProgressCount(items) < max;
  const now = council.now();
  const id = reserved || discussionId(c.nextDaily('disc', dayOf(now, council.tz)));
  const d = newDiscussion(id, trigger, p.priority ?? item.priority, new Date(now).toISOString());
  // The forecast before it starts counts every input bounded, as the prompts will carry it.
  const estimate = pricedEstimate(d, env);
  d.notes = [estimateNote(estimate, env.lang)];
  // Starting now, the discussion is in progress from its first row on, so the log never shows more than the limit.
  const status = start ? transition('OPEN', 'IN_PROGRESS') : 'OPEN';
  const placed = c.appendOne('discussions', logRow({ ...d, status }, '[]', estimate), `Discussion Log:${id}`);
  const row = placed.row;
  c.audit({
    actor: typeof p.actor === 'string' && p.actor ? p.actor : trigger.source,
    event: 'log_row',
    tab: 'Discussion Log',
    row_key: id,
    payload: { row, status },
  });
  if (start)
    c.audit({
      actor: 'kaigi',
      event: 'status',
      tab: 'Discussion Log',
      row_key: id,
      payload: { from: 'OPEN', to: 'IN_PROGRESS' },
    });
  if (estimate.over)
    new Notices(council.store).write(c, {
      ...overNotice(id, estimate, env.settings.number('limits.input_tokens'), env.lang),
      priority: 'normal',
      discussion_id: id,
    });
  // With room under the in-progress limit the same execution goes straight on; otherwise it waits queued.
  const advance = { ...item, type: TASK_KINDS.advance.type, updated_at: now, attempts: 0 };
  const next: QueueItem = start
    ? { ...advance, payload: payloadRow(TASK_KINDS.advance, { discussion_id: id, row, started: true }) }
    : {
        ...advance,
        payload: payloadRow(TASK_KINDS.advance, { discussion_id: id, row, started: false }),
        status: 'queued',
        lease_owner: '',
        lease_until: 0,
      };
  council.queue.write(c, next, true);
  // Held for discussion.advance, which goes on in this execution once the commit is written (a commit that fails
  // ends the execution, and the next one loads the row from the sheet).
  if (start) council.discussions.noteOpened(id, row, placed.values);
  return start ? { kind: 'continue', item: { ...next, rawPayload: undefined } as QueueItem } : { kind: 'converted' };
}

export const openDiscussion = defineTask(TASK_KINDS.open, {
  // Claimed by a tick, the log row is written in the claim's own commit: one lock, one read of the queue, one flush.
  // Only once this execution holds the configuration: reading it under the claim's lock would hold every other
  // execution's claim behind a dozen reads (twelve ticks at once then wait past LockService's 30 s).
  atClaim(item, p, { council, inProgress, items, commit }) {
    return council.hasEnv() ? open(council, item, p, inProgress, items, commit) : null;
  },
  run(item, p, { council, inProgress }) {
    // The configuration is read before the lock is taken, for the same reason.
    council.env();
    return council.store.withLock((state) => {
      const c = council.store.begin(state);
      const outcome = open(council, item, p, inProgress, council.queue.read(state), c);
      c.run(new Date(council.now()).toISOString());
      return outcome;
    });
  },
});
