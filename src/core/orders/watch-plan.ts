// What the KPI watcher does with a decline: open a discussion, add evidence to the open one, or nothing.
import type { Decline } from './kpi.js';
import { parseInstant } from '../instant.js';
import { SETTLED_STATUSES } from '../discussion/vocab.js';

// A discussion that has ended can take no evidence; a TIMEOUT one never answered, so it does not hold a decline.
// Column L values after which the decision is being (or was) carried out: new evidence is noted, not deliberated.
const NOT_EXECUTED = ['', 'NOT_STARTED', 'PENDING', 'ACKNOWLEDGED'];

// An evidence line in the notes column. The date is the signal's last KPI day; "for re-discussion" marks the
// lines a later deliberation of the discussion is given (src/core/engine/requests.ts).
const EVIDENCE = /^evidence (\d{4}-\d{2}-\d{2}) \(watcher, (for re-discussion|after execution)\): /;

export interface KnownDiscussion {
  discussion_id: string;
  status: string;
  trigger_type: string;
  member: string;
  context: Record<string, unknown>;
  execution_status: string;
  notes: string[];
}

export type WatchAction =
  | { kind: 'open' }
  // A request for this decline is still in the queue.
  | { kind: 'queued'; task_id: string }
  // The open discussion about it takes the new evidence.
  | { kind: 'evidence'; discussion_id: string; note: string }
  // The open discussion has already seen this much of the decline.
  | { kind: 'seen'; discussion_id: string }
  // A closed discussion already answered this decline run.
  | { kind: 'discussed'; discussion_id: string };

// The day a discussion was opened, from its id (DISC-YYYY-MM-DD-SEQ, the day in the script's time zone).
function dayOfId(id: string): string {
  const m = /^DISC-(\d{4}-\d{2}-\d{2})-/.exec(id);
  return m ? m[1] : '';
}

function isExecuted(executionStatus: string): boolean {
  return NOT_EXECUTED.indexOf(executionStatus) < 0;
}

// The latest KPI day the discussion has seen: its trigger's last day (the watcher's triggers name it), else the day
// before it opened (a day's figures are complete only once it is over, as the demo data and most teams keep them),
// or the day of its latest evidence line.
export function seenUpTo(d: KnownDiscussion): string {
  const last = d.context.last_date;
  const opened = dayOfId(d.discussion_id);
  let seen =
    typeof last === 'string' && last
      ? last
      : opened && new Date(parseInstant(`${opened}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  for (const n of d.notes) {
    const m = EVIDENCE.exec(n);
    if (m && m[1] > seen) seen = m[1];
  }
  return seen;
}

// The notes a re-discussion is given: the evidence added while the decision had not been carried out.
export function evidenceForRediscussion(notes: readonly string[]): string[] {
  return notes.filter((n) => {
    const m = EVIDENCE.exec(n);
    return !!m && m[2] === 'for re-discussion';
  });
}

function evidenceNote(decline: Decline, summary: string, executed: boolean): string {
  const c = decline.change;
  return `evidence ${decline.last} (watcher, ${executed ? 'after execution' : 'for re-discussion'}): ${summary} (${c.from} → ${c.to}, since ${decline.start})`;
}

function about(d: KnownDiscussion, type: string, member: string, metric: string): boolean {
  // A context that names no metric (a person's request) is about the member's decline whatever the metric.
  const m = d.context.metric;
  return d.trigger_type === type && d.member === member && (m === undefined || m === '' || m === metric);
}

// One member's decline against what is already known about it. Several open discussions about one member (left
// by releases before this rule) give the evidence to the newest.
export function planWatch(
  type: string,
  member: string,
  metric: string,
  decline: Decline,
  summary: string,
  queuedTask: string | undefined,
  known: readonly KnownDiscussion[],
): WatchAction {
  if (queuedTask) return { kind: 'queued', task_id: queuedTask };
  const mine = known
    .filter((d) => about(d, type, member, metric))
    .sort((a, b) => (a.discussion_id < b.discussion_id ? 1 : -1));
  const open = mine.find((d) => SETTLED_STATUSES.indexOf(d.status) < 0);
  if (open)
    return decline.last > seenUpTo(open)
      ? {
          kind: 'evidence',
          discussion_id: open.discussion_id,
          note: evidenceNote(decline, summary, isExecuted(open.execution_status)),
        }
      : { kind: 'seen', discussion_id: open.discussion_id };
  // Opened on or after the run's first day of falling, a closed discussion answered this decline run.
  const closed = mine.find((d) => d.status === 'CLOSED' && dayOfId(d.discussion_id) >= decline.start);
  if (closed) return { kind: 'discussed', discussion_id: closed.discussion_id };
  return { kind: 'open' };
}
