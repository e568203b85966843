// The KPI watcher: a metric that fell N days in a row (thresholds in Settings) opens one discussion per decline, and
// a value of any metric far from its member's recent mean is told in the Inbox (src/app/queue/anomaly-alerts.ts).
import { SETTLED_STATUSES } from '../../core/discussion/vocab.js';
import { metricTableOf } from '../../core/orders/metric-table.js';
import { rowsOf } from '../../../sheets-schema/index.js';
import { discussionFromRow } from '../../store/records.js';
import { type Decline, declineOf, series } from '../../core/orders/kpi.js';
import { StateError } from '../../core/errors.js';
import { type AnomalyReport, tellAnomalies } from './anomaly-alerts.js';
import type { Priority } from '../../core/types.js';
import { type KnownDiscussion, planWatch, type WatchAction } from '../../core/orders/watch-plan.js';
import type { Council } from '../sheet-council.js';
import { requestDiscussion } from '../discussions/requests.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';

export interface WatchReport {
  // `duplicate` when no discussion was opened; then `action` says why and task_id names what holds the decline.
  opened: {
    member: string;
    metric: string;
    change: number;
    task_id: string;
    duplicate: boolean;
    action: WatchAction['kind'] | 'deferred';
  }[];
  // Every metric's latest value more than watcher.anomaly_sigma σ from its member's mean, told once each.
  anomalies: AnomalyReport[];
}

const TRIGGER_TYPE = 'kpi_decline';
const logCols = rowsOf('discussions');
// The log's first columns: id, status, priority, trigger type, member, trigger context.
const LOG_WIDTH = logCols.index('trigger_context_json') + 1;
const ENDED = SETTLED_STATUSES;

interface Signal {
  member: string;
  decline: Decline;
  summary: string;
}

// Requests still in the queue to open a discussion about a member's decline (queued, or being opened right now).
// The queue's own dedupe key only sees items still queued, and only for the same last day.
function queuedAbout(council: Council, metric: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of council.queue.read(council.store.readState())) {
    if (item.type !== TASK_KINDS.open.type || item.status === 'done' || item.status === 'dead') continue;
    const t = (item.payload?.trigger ?? null) as { type?: string; target_user_id?: string; context?: unknown } | null;
    // As for a logged discussion (src/core/orders/watch-plan.ts), a request that names no metric is about any of them.
    const m = t?.context && typeof t.context === 'object' ? (t.context as Record<string, unknown>).metric : undefined;
    if (t && t.type === TRIGGER_TYPE && t.target_user_id && (m === undefined || m === '' || m === metric))
      out[t.target_user_id] = item.id;
  }
  return out;
}

// Every logged discussion about the members with a signal, open or closed, as the plan needs it. One read of the
// log's first columns for all rows; overflowed contexts of the few rows about those members in one more read; the
// notes and column L only of the ones still open (at most one per member, unless older releases left more).
function knownAbout(council: Council, members: readonly string[]): (KnownDiscussion & { row: number })[] {
  const last = council.store.readState().tails.discussions?.last ?? 1;
  if (last < 2 || !members.length) return [];
  const rows: number[] = [];
  const heads: unknown[][] = [];
  council.store
    .sheet('discussions')
    .getRange(2, 1, last - 1, LOG_WIDTH)
    .getValues()
    .forEach((v, i) => {
      const r = logCols.read(v);
      if (r.trigger_type !== TRIGGER_TYPE || members.indexOf(String(r.trigger_target_user)) < 0) return;
      rows.push(i + 2);
      heads.push(v);
    });
  const resolved = council.store.resolveOverflow(heads);
  return rows.map((row, i) => {
    const r = logCols.read(resolved[i]);
    const id = String(r.discussion_id);
    let context: Record<string, unknown> = {};
    try {
      context = (JSON.parse(String(r.trigger_context_json)) as { context?: Record<string, unknown> }).context ?? {};
    } catch (e) {
      throw new StateError(
        `Discussion ${id} (Discussion Log row ${row}) has a trigger_context_json that is not JSON: ${(e as Error).message}`,
      );
    }
    const known: KnownDiscussion & { row: number } = {
      row,
      discussion_id: id,
      status: String(r.status),
      trigger_type: String(r.trigger_type),
      member: String(r.trigger_target_user),
      context,
      execution_status: '',
      notes: [],
    };
    if (ENDED.indexOf(known.status) >= 0) return known;
    const d = discussionFromRow(council.store.resolveOverflow(council.store.readRows('discussions', row, 1))[0]);
    return { ...known, execution_status: d.execution_status, notes: d.notes };
  });
}

// Adds the evidence note to the open discussion in one commit, with an audit event saying what the watcher saw.
// A task holding the discussion's lease right now writes the whole log row from what it loaded, which would drop
// the note; then it waits for the next watch, which finds the evidence still new.
function addEvidence(
  council: Council,
  metric: string,
  at: KnownDiscussion & { row: number },
  s: Signal,
  note: string,
): boolean {
  return council.store.withLock((state) => {
    const now = council.now();
    const busy = council.queue
      .read(state)
      .some((i) => i.status === 'processing' && i.lease_until > now && i.payload?.discussion_id === at.discussion_id);
    if (busy) return false;
    const l = council.discussions.load(at.discussion_id, at.row);
    // Checked again under the lock: the discussion may have ended, or another watch added this evidence.
    const again = planWatch(TRIGGER_TYPE, at.member, metric, s.decline, s.summary, '', [
      { ...at, status: l.d.status, execution_status: l.d.execution_status, notes: l.d.notes },
    ]);
    if (again.kind !== 'evidence') return false;
    const c = council.store.begin(state);
    council.discussions.commitStep(
      c,
      l,
      { messages: [], status: l.d.status, transitions: [], orders: [], inbox: [], notes: [note] },
      (cc) =>
        cc.audit({
          actor: 'watcher',
          event: 'evidence',
          tab: 'Discussion Log',
          row_key: at.discussion_id,
          payload: {
            member: s.member,
            from: s.decline.change.from,
            to: s.decline.change.to,
            days: s.decline.run,
            start: s.decline.start,
            last_date: s.decline.last,
          },
        }),
    );
    return true;
  });
}

// Declines first: an anomaly alert that cannot be written does not hold back a discussion.
export function runWatcher(council: Council): WatchReport {
  const opened = watchDeclines(council);
  return { opened, anomalies: tellAnomalies(council, council.env()) };
}

function watchDeclines(council: Council): WatchReport['opened'] {
  const s = council.settings();
  const metric = s.raw('watcher.metric');
  const days = s.number('watcher.consecutive_days');
  const minDrop = s.number('watcher.min_drop_ratio');
  const opened: WatchReport['opened'] = [];
  // Only a bad swing of a watched metric opens a discussion: a fall of a metric whose good way is down is good news.
  const def = metricTableOf(s).find((m) => m.name === metric);
  if (!def?.watched || def.good !== 'up') return opened;
  const env = council.env();
  const signals: Signal[] = [];
  const ids: string[] = [];
  for (const r of env.kpi) if (ids.indexOf(r.member_id) < 0) ids.push(r.member_id);
  for (const id of ids) {
    const points = series(env.kpi, id, metric);
    const decline = declineOf(points, days, minDrop);
    if (!decline) continue;
    const member = env.members.find((m) => m.member_id === id);
    const summary =
      env.lang === 'ja'
        ? `${member?.name ?? id}さんの${metric}が${decline.run}日連続低下`
        : `${member?.name ?? id}: ${metric} fell ${decline.run} days in a row`;
    signals.push({ member: id, decline, summary });
  }
  if (!signals.length) return opened;
  const queued = queuedAbout(council, metric);
  const known = knownAbout(
    council,
    signals.map((x) => x.member),
  );
  for (const sig of signals) {
    const { member: id, decline } = sig;
    const action = planWatch(TRIGGER_TYPE, id, metric, decline, sig.summary, queued[id], known);
    const report = { member: id, metric, change: decline.change.ratio };
    if (action.kind === 'queued' || action.kind === 'seen' || action.kind === 'discussed') {
      const holder = action.kind === 'queued' ? action.task_id : action.discussion_id;
      opened.push({ ...report, task_id: holder, duplicate: true, action: action.kind });
      continue;
    }
    if (action.kind === 'evidence') {
      const at = known.find((k) => k.discussion_id === action.discussion_id)!;
      const added = addEvidence(council, metric, at, sig, action.note);
      opened.push({ ...report, task_id: at.discussion_id, duplicate: true, action: added ? 'evidence' : 'deferred' });
      continue;
    }
    const priority: Priority = -decline.change.ratio >= 0.5 ? 'HIGH' : 'MEDIUM';
    const r = requestDiscussion(
      {
        type: TRIGGER_TYPE,
        source: 'watcher',
        target_user_id: id,
        context: {
          metric,
          summary: sig.summary,
          previous: decline.change.from,
          current: decline.change.to,
          days: decline.run,
          start_date: decline.start,
          last_date: decline.last,
        },
        priority,
        dedupe_key: `watch:${id}:${metric}:${decline.last}`,
      },
      council,
    );
    opened.push({ ...report, task_id: r.task_id, duplicate: r.duplicate, action: 'open' });
  }
  return opened;
}
