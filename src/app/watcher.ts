// The KPI watcher: a metric that fell N days in a row (thresholds in Settings) opens a discussion.
import { declineRun, recentChange, series } from '../core/kpi.js';
import type { Priority } from '../core/types.js';
import type { Council } from './council.js';
import { requestDiscussion } from './requests.js';

export interface WatchReport {
  opened: { member: string; metric: string; change: number; task_id: string; duplicate: boolean }[];
}

export function runWatcher(council: Council): WatchReport {
  const s = council.settings();
  const metric = s.raw('watcher.metric');
  const days = s.number('watcher.consecutive_days');
  const minDrop = s.number('watcher.min_drop_ratio');
  const env = council.env();
  const opened: WatchReport['opened'] = [];
  const ids: string[] = [];
  for (const r of env.kpi) if (ids.indexOf(r.member_id) < 0) ids.push(r.member_id);
  for (const id of ids) {
    const points = series(env.kpi, id, metric);
    const run = declineRun(points);
    const change = recentChange(points, run);
    if (run < days || !change || -change.ratio < minDrop) continue;
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
