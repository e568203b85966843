// The KPI watcher: a metric that fell N days in a row (thresholds in Settings) opens a discussion, once.
import { rowsOf } from '../../sheets-schema/index.js';
import { declineRun, recentChange, series } from '../core/kpi.js';
import type { Priority } from '../core/types.js';
import type { Council } from './council.js';
import { requestDiscussion } from './requests.js';

export interface WatchReport {
  opened: { member: string; metric: string; change: number; task_id: string; duplicate: boolean }[];
}

const TRIGGER_TYPE = 'kpi_decline';
// A discussion that has not ended is still the council's answer to the decline it was opened for.
const ENDED = ['CLOSED', 'TIMEOUT'];
const logCols = rowsOf('discussions');
// Only the log's first columns are read: id, status, priority, trigger type, member, trigger context.
const LOG_WIDTH = logCols.index('trigger_context_json') + 1;

function aboutMetric(context: unknown, metric: string): boolean {
  return !!context && typeof context === 'object' && (context as Record<string, unknown>).metric === metric;
}

// Members who already have the council's attention for this metric, with what holds it: a discussion that has not
// ended, or a request to open one that is still in the queue (queued, or being opened right now). The queue's own
// dedupe key only sees items still queued, so without this a second run the same day opens a second discussion.
function pendingAbout(council: Council, metric: string): Record<string, string> {
  const out: Record<string, string> = {};
  const state = council.store.readState();
  for (const item of council.queue.read(state)) {
    if (item.type !== 'discussion.open' || item.status === 'done' || item.status === 'dead') continue;
    const trigger = (item.payload?.trigger ?? null) as { type?: string; target_user_id?: string; context?: unknown };
    if (trigger && trigger.type === TRIGGER_TYPE && aboutMetric(trigger.context, metric) && trigger.target_user_id)
      out[trigger.target_user_id] = item.id;
  }
  const last = state.tails.discussions?.last ?? 1;
  if (last < 2) return out;
  const rows = council.store
    .sheet('discussions')
    .getRange(2, 1, last - 1, LOG_WIDTH)
    .getValues()
    .map((v) => logCols.read(v))
    .filter((r) => r.trigger_type === TRIGGER_TYPE && ENDED.indexOf(String(r.status)) < 0);
  // Contexts come back whole (an overflowed one through its pointer) only for the few candidate rows.
  const contexts = council.store.resolveOverflow(rows.map((r) => [r.trigger_context_json]));
  rows.forEach((r, i) => {
    let context: unknown = null;
    try {
      context = (JSON.parse(String(contexts[i][0])) as { context?: unknown }).context;
    } catch (e) {
      throw new Error(
        `Discussion ${String(r.discussion_id)} has a trigger context that is not JSON: ${(e as Error).message}`,
      );
    }
    if (aboutMetric(context, metric)) out[String(r.trigger_target_user)] = String(r.discussion_id);
  });
  return out;
}

export function runWatcher(council: Council): WatchReport {
  const s = council.settings();
  const metric = s.raw('watcher.metric');
  const days = s.number('watcher.consecutive_days');
  const minDrop = s.number('watcher.min_drop_ratio');
  const env = council.env();
  const opened: WatchReport['opened'] = [];
  const pending = pendingAbout(council, metric);
  const ids: string[] = [];
  for (const r of env.kpi) if (ids.indexOf(r.member_id) < 0) ids.push(r.member_id);
  for (const id of ids) {
    const points = series(env.kpi, id, metric);
    const run = declineRun(points);
    const change = recentChange(points, run);
    if (run < days || !change || -change.ratio < minDrop) continue;
    if (pending[id]) {
      opened.push({ member: id, metric, change: change.ratio, task_id: pending[id], duplicate: true });
      continue;
    }
    const priority: Priority = -change.ratio >= 0.5 ? 'HIGH' : 'MEDIUM';
    const member = env.members.find((m) => m.member_id === id);
    const summary =
      env.lang === 'ja'
        ? `${member?.name ?? id}さんの${metric}が${run}日連続低下`
        : `${member?.name ?? id}: ${metric} fell ${run} days in a row`;
    const r = requestDiscussion(
      {
        type: 'kpi_decline',
        source: 'watcher',
        target_user_id: id,
        context: {
          metric,
          summary,
          previous: change.from,
          current: change.to,
          days: run,
          last_date: points[points.length - 1].date,
        },
        priority,
        dedupe_key: `watch:${id}:${metric}:${points[points.length - 1].date}`,
      },
      council,
    );
    opened.push({ member: id, metric, change: change.ratio, task_id: r.task_id, duplicate: r.duplicate });
  }
  return { opened };
}
