// The rule-based situation report (phase 1): the target member's KPI movement and the data around it.
import { pct } from '../orders/kpi.js';
import type { ContentOf } from '../discussion/messages.js';
import type { AgentContext } from '../provider.js';
import { changeText, type Facts } from './facts.js';
import { round2, type L } from './shared.js';

export function situationReport(ctx: AgentContext, f: Facts, t: L): ContentOf<'SITUATION_REPORT'> {
  const sev = !f.change ? 'LOW' : f.change.ratio <= -0.5 ? 'HIGH' : f.change.ratio <= -0.3 ? 'MEDIUM' : 'LOW';
  const points: ContentOf<'SITUATION_REPORT'>['data_points'] = [];
  if (f.change)
    points.push({
      metric: f.metric,
      value: f.change.to,
      change: pct(f.change.ratio),
      note: t(
        `前回${f.change.from}、${f.declineDays}日連続低下`,
        `previously ${f.change.from}, ${f.declineDays} days of decline`,
      ),
    });
  // The metric the trigger is about, flagged when it cannot be measured: the analyst's review checks the order's
  // success criteria against this flag.
  else
    points.push({
      metric: f.metric,
      value: t('データ不足', 'insufficient data'),
      change: '',
      note: t(`データ点${f.points}件`, `${f.points} data points`),
    });
  if (f.loginStreak !== null)
    points.push({
      metric: 'login_streak',
      value: f.loginStreak,
      change: '',
      note: t(`最高${f.bestStreak ?? '-'}日`, `best ${f.bestStreak ?? '-'} days`),
    });
  if (f.praise !== null)
    points.push({
      metric: 'praise_count_last_7d',
      value: f.praise,
      change: '',
      note: t(`チーム平均${round2(f.teamPraise)}`, `team mean ${round2(f.teamPraise)}`),
    });
  points.push({
    metric: 'overtime_hours_7d_mean',
    value: round2(f.overtimeRecent),
    change: f.overtimeBefore ? pct((f.overtimeRecent - f.overtimeBefore) / f.overtimeBefore) : '',
    note: '',
  });
  for (const n of ctx.dataNotes) points.push({ metric: 'data_note', value: n.slice(0, 200), change: '', note: '' });
  return {
    summary: f.hasData
      ? t(`${f.name}さんの${changeText(f, 'ja')}。`, `${f.name}: ${changeText(f, 'en')}.`)
      : t(
          `${f.name}さんの KPI データを取得できなかったため、トリガー情報のみで報告します。`,
          `No KPI data could be read for ${f.name}; reporting from the trigger alone.`,
        ),
    data_points: points,
    severity: ctx.priority === 'CRITICAL' ? 'CRITICAL' : sev,
  };
}
