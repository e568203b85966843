// The effect of a decision (beside the forecast verdict): did the monitored metrics move the intended way from
// where the member stood at the decision (outcomes.ts says which days)? It says whether the actions helped, which the
// forecast verdict does not: a member going from 5 to 12 contacts against a +20 % forecast missed the forecast by
// far, and the actions plainly worked.
import type { EFFECTS } from '../discussion/vocab.js';

export type Effect = (typeof EFFECTS)[number];

// A target change below this counts as this (a forecast of "hold steady" would make any wobble an effect).
const MIN_TARGET = 0.05;

interface EffectLine {
  metric: string;
  // Where the metric stood at the decision and what the review window measured (null: nothing measured).
  from: number | null;
  to: number | null;
  // The change against the baseline, signed so that the metric's good direction is positive; null when unmeasured.
  change: number | null;
  target: number;
  effect: Effect;
}

export interface EffectResult {
  effect: Effect;
  // The mean signed change and target over the metrics measured (null when none was).
  change: number | null;
  target: number;
  lines: EffectLine[];
}

export interface EffectRules {
  // s: the share of the target change that counts as an effect (outcome.effect_min_share).
  share: number;
  minPoints: number;
  // The metric's good direction from the metric table; a metric it lacks is judged by the criterion's direction.
  good: (metric: string) => 'up' | 'down' | null;
}

function judge(change: number, target: number, share: number): Effect {
  const t = Math.max(target, MIN_TARGET);
  return change >= share * t ? 'worked' : change <= -share * t ? 'worse' : 'no_effect';
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function effectOf(
  measured: readonly {
    metric: string;
    baseline: number;
    actual: number | null;
    points: number;
    direction: 'increase' | 'decrease';
    target_change: number;
  }[],
  r: EffectRules,
): EffectResult {
  const lines: EffectLine[] = measured.map((m) => {
    const good = r.good(m.metric) ?? (m.direction === 'decrease' ? 'down' : 'up');
    const from = Number.isFinite(m.baseline) ? round3(m.baseline) : null;
    if (m.actual === null || m.points < r.minPoints || !m.baseline)
      return { metric: m.metric, from, to: m.actual, change: null, target: m.target_change, effect: 'unclear' };
    const raw = (m.actual - m.baseline) / Math.abs(m.baseline);
    const change = round3(good === 'down' ? -raw : raw);
    const effect = judge(change, m.target_change, r.share);
    return { metric: m.metric, from, to: round3(m.actual), change, target: m.target_change, effect };
  });
  const known = lines.filter((l) => l.change !== null);
  if (!known.length) return { effect: 'unclear', change: null, target: 0, lines };
  const change = round3(known.reduce((a, l) => a + (l.change as number), 0) / known.length);
  const target = round3(known.reduce((a, l) => a + l.target, 0) / known.length);
  return { effect: judge(change, target, r.share), change, target, lines };
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${Math.round(x * 100)} %`;

// The manager's line: the effect first, the forecast beside it ("Worked — better than forecast: +140 % against
// +20 %"). A row from before the effect existed reads as its forecast verdict alone.
export function effectText(
  e: { effect: string; change: number | null; target: number },
  forecast: string,
  lang: 'ja' | 'en',
): string {
  const ja = lang === 'ja';
  const name: Record<string, [string, string]> = {
    worked: ['効果あり', 'Worked'],
    no_effect: ['効果なし', 'No effect'],
    worse: ['悪化', 'Worse'],
    unclear: ['判定不能（データ不足）', 'Unclear (too few data points)'],
  };
  const verdicts: Record<string, [string, string]> = {
    confirmed: ['予測どおり', 'forecast confirmed'],
    rejected: ['予測は外れ', 'forecast missed'],
    inconclusive: ['予測の判定は保留', 'forecast inconclusive'],
  };
  const v = verdicts[forecast] ?? [forecast, forecast];
  if (!e.effect || !name[e.effect]) return ja ? v[0] : v[1];
  const head = ja ? name[e.effect][0] : name[e.effect][1];
  if (e.change === null) return `${head} — ${ja ? v[0] : v[1]}`;
  const than =
    e.change > e.target * 1.1
      ? ['予測より良い', 'better than forecast']
      : e.change < e.target * 0.9
        ? ['予測に届かず', 'short of the forecast']
        : ['予測どおり', 'as forecast'];
  return ja
    ? `${head} — ${than[0]}：予測 ${pct(e.target)} に対し ${pct(e.change)}（${v[0]}）`
    : `${head} — ${than[1]}: ${pct(e.change)} against ${pct(e.target)} (${v[1]})`;
}
