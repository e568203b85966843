// The rule-based specialists (phase 2): each reads the facts through its own lens and recommends one action.
import { label } from '../labels.js';
import { pct } from '../orders/kpi.js';
import type { Action, ContentOf } from '../discussion/messages.js';
import type { AgentContext } from '../provider.js';
import { caseAdjustment } from '../memory/memory.js';
import { inLineWithRecord } from '../memory/stated-record.js';
import { changeText, cueText, type Facts, metricWord } from './facts.js';
import { LOAD_ACTIONS } from './note-cues.js';
import { actionWording } from './action-wording.js';
import { allowed, named, round2, type L, typeFields } from './shared.js';

// Confidence moved per unit of case evidence (a similar, recent case counts about 1).
const MEMORY_STEP = 0.1;

const rate = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)}%`);

interface Opinion {
  analysis: string;
  evidence: string[];
  hypothesis: string;
  confidence: number;
  type: string;
  // The action type `target` and `description` were written for; when the allow-list made `type` another one,
  // that type's own wording is used instead (src/core/rules/action-wording.ts).
  for: string;
  target: string;
  description: string;
  intensity: Action['intensity'];
}

function action(
  f: Facts,
  type: string,
  target: string,
  description: string,
  intensity: Action['intensity'],
  days = 7,
): Action {
  return {
    action_type: type,
    target,
    description,
    intensity,
    timing: f.contactTime,
    duration_days: days,
    ...typeFields(f, type, intensity),
  };
}

function opinion(ctx: AgentContext, f: Facts, o: Opinion, t: L): ContentOf<'SPECIALIST_OPINION'> {
  const feedback = ctx.feedbackQuestion ? 0.1 : 0;
  // Memory: similar past cases where this action was confirmed raise the stated confidence, rejected ones lower it.
  const recalled = MEMORY_STEP * caseAdjustment(o.type, ctx.memory?.cases ?? [], ctx.trigger.target_user_id);
  const words = o.type === o.for ? o : actionWording(o.type, t);
  return {
    analysis: o.analysis,
    evidence: o.evidence.length ? o.evidence : [changeText(f, ctx.lang)],
    hypothesis: o.hypothesis,
    // Stated in line with the agent's own record of how its stated confidence fared, as a model is asked to.
    confidence: inLineWithRecord(
      round2(Math.max(0.05, Math.min(0.95, o.confidence + feedback + recalled))),
      ctx.statedRecord ?? [],
    ),
    recommendation: action(f, o.type, words.target, words.description, o.intensity),
  };
}

const specialists: Record<string, (ctx: AgentContext, f: Facts, t: L) => Opinion> = {
  analyst(ctx, f, t) {
    const drop = f.change ? -f.change.ratio : 0;
    return {
      analysis: t(
        `${changeText(f, 'ja')}。チームの${f.team.members}人中${f.team.falling}人が同期間に低下（平均${pct(f.team.meanChange)}）。`,
        `${changeText(f, 'en')}. ${f.team.falling} of ${f.team.members} teammates fell over the same days (mean ${pct(f.team.meanChange)}).`,
      ),
      evidence: [changeText(f, ctx.lang), `team_mean_change: ${pct(f.team.meanChange)}`, `data_points: ${f.points}`],
      hypothesis:
        f.team.falling > f.team.members / 2
          ? t('チーム共通の要因による低下', 'A cause shared by the team')
          : t('本人固有の要因による活動量の低下', 'A drop in activity specific to this person'),
      confidence: f.hasData ? Math.min(0.9, 0.5 + drop * 0.6) : 0.2,
      type: allowed(ctx, 'GOAL_ADJUSTMENT'),
      for: 'GOAL_ADJUSTMENT',
      target: t('日次の活動目標', 'daily activity goal'),
      description: t(
        `当面の目標を現状（${f.change?.to ?? '-'}）から段階的に戻す設定にする`,
        `Set the near-term goal to climb back in steps from the current ${f.change?.to ?? '-'}`,
      ),
      intensity: 'medium',
    };
  },
  psychology(ctx, f, t) {
    const lowPraise = f.praise !== null && f.praise <= Math.max(2, f.teamPraise * 0.6);
    const publicPref = f.recognition === 'PUBLIC';
    return {
      analysis: lowPraise
        ? t(
            `直近7日の称賛が${f.praise}回でチーム平均${round2(f.teamPraise)}回を下回る。承認の好みは${label('recognition', f.recognition, 'ja')}。`,
            `Praise in the last 7 days is ${f.praise}, below the team mean of ${round2(f.teamPraise)}. Recognition preference: ${label('recognition', f.recognition, 'en')}.`,
          )
        : t(
            `称賛頻度（${f.praise ?? '-'}回）はチーム並みで、承認不足の兆候は弱い。`,
            `Praise (${f.praise ?? '-'}) is on par with the team; little sign of missing recognition.`,
          ),
      evidence: [
        `praise_count_last_7d: ${f.praise ?? 'n/a'}`,
        `recognition_preference: ${f.recognition}`,
        changeText(f, ctx.lang),
      ],
      hypothesis: lowPraise
        ? t('モチベーション低下の主因は承認不足', 'Missing recognition is the main cause of the drop in motivation')
        : t('承認以外の要因が大きい', 'Causes other than recognition dominate'),
      confidence: lowPraise ? (publicPref ? 0.75 : 0.62) : 0.35,
      type: lowPraise ? allowed(ctx, 'PRAISE_INCREASE') : allowed(ctx, 'ONE_ON_ONE', 'PRAISE_INCREASE'),
      for: 'PRAISE_INCREASE',
      target: t('行動ベースの称賛', 'praise for specific actions'),
      description: t(
        '具体的な行動（架電・訪問）に対して当日中に称賛を伝える',
        'Praise specific actions (calls, visits) on the same day',
      ),
      intensity: publicPref ? 'medium' : 'low',
    };
  },
  neuroscience(ctx, f, t) {
    const broken = f.loginStreak !== null && f.bestStreak !== null && f.loginStreak < f.bestStreak * 0.5;
    const tired = f.overtimeRecent > f.overtimeBefore * 1.3;
    return {
      analysis: t(
        `ログイン連続日数は${f.loginStreak ?? '-'}日（最高${f.bestStreak ?? '-'}日）。直近7日の残業は平均${round2(f.overtimeRecent)}時間（以前${round2(f.overtimeBefore)}時間）。`,
        `Login streak is ${f.loginStreak ?? '-'} days (best ${f.bestStreak ?? '-'}). Overtime averaged ${round2(f.overtimeRecent)} h over 7 days (before: ${round2(f.overtimeBefore)} h).`,
      ),
      evidence: [
        `login_streak: ${f.loginStreak ?? 'n/a'}`,
        `best_login_streak: ${f.bestStreak ?? 'n/a'}`,
        `overtime_7d_mean: ${round2(f.overtimeRecent)}`,
      ],
      hypothesis: broken
        ? t('習慣の手がかりが失われ、行動ループが途切れた', 'The habit cue was lost and the routine broke')
        : t('習慣は保たれており、疲労の影響が中心', 'The habit holds; fatigue is the main factor'),
      confidence: broken ? 0.68 : tired ? 0.55 : 0.4,
      type: broken ? allowed(ctx, 'MESSAGE_TIMING') : allowed(ctx, 'REST_RECOMMENDATION', 'MESSAGE_TIMING'),
      for: 'MESSAGE_TIMING',
      target: t('習慣の時間帯のリマインド', 'reminder at the habitual time'),
      description: t(
        `普段の活動開始時刻（${f.contactTime}）に短い声かけを送り、習慣の手がかりを戻す`,
        `Send a short note at the usual start time (${f.contactTime}) to restore the habit cue`,
      ),
      intensity: 'low',
    };
  },
  coaching(ctx, f, t) {
    const to = f.change?.to ?? 0;
    const goal = Math.max(1, Math.round(to * 1.2));
    return {
      analysis: t(
        `現状${to}件に対し通常水準は${f.change?.from ?? '-'}件。差が大きく、達成感を得にくい。`,
        `Current level ${to} against a usual ${f.change?.from ?? '-'}; the gap makes wins rare.`,
      ),
      evidence: [changeText(f, ctx.lang), `suggested_daily_goal: ${goal}`],
      hypothesis: t('小さな成功体験が不足している', 'Small wins are missing'),
      confidence: f.hasData ? 0.8 : 0.3,
      type: allowed(ctx, 'GOAL_ADJUSTMENT'),
      for: 'GOAL_ADJUSTMENT',
      target: t('日次目標', 'daily goal'),
      description: t(
        `3日間、日次目標を${goal}件に設定し、達成ごとに振り返る`,
        `For 3 days set the daily goal to ${goal} and review each success`,
      ),
      intensity: 'medium',
    };
  },
  sales_strategy(ctx, f, t) {
    const stable =
      f.conversionRecent !== null && f.conversionBefore !== null && f.conversionRecent >= f.conversionBefore * 0.85;
    return {
      analysis: t(
        `アポ転換率は直近${rate(f.conversionRecent)}（以前${rate(f.conversionBefore)}）。`,
        `Appointment conversion is ${rate(f.conversionRecent)} recently (before: ${rate(f.conversionBefore)}).`,
      ),
      evidence: [
        `conversion_recent: ${f.conversionRecent === null ? 'n/a' : round2(f.conversionRecent)}`,
        `conversion_before: ${f.conversionBefore === null ? 'n/a' : round2(f.conversionBefore)}`,
      ],
      hypothesis: stable
        ? t('転換率は維持されており、課題は活動量', 'Conversion holds; the problem is volume')
        : t('転換率が低下しており、スキル面の課題', 'Conversion fell; the problem is skill'),
      confidence: f.conversionRecent === null ? 0.3 : stable ? 0.7 : 0.6,
      type: stable ? allowed(ctx, 'GOAL_ADJUSTMENT') : allowed(ctx, 'SKILL_TRAINING', 'ONE_ON_ONE'),
      for: stable ? 'GOAL_ADJUSTMENT' : 'SKILL_TRAINING',
      target: stable ? t('活動量の目標', 'activity goal') : t('トークスクリプト', 'call script'),
      description: stable
        ? t('接触数の回復を優先し、目標を段階的に設定', 'Prioritise recovering contact volume with stepped goals')
        : t('上位者との同行でトークを見直す', 'Review the pitch by shadowing a top performer'),
      intensity: 'medium',
    };
  },
  behavioral_econ(ctx, f, t) {
    const lost = f.bestStreak !== null && f.loginStreak !== null && f.bestStreak - f.loginStreak >= 5;
    return {
      analysis: lost
        ? t(
            `最高${f.bestStreak}日の連続記録が途切れ、現在${f.loginStreak}日。失った記録が「どうせ無理」という諦めを生みやすい。`,
            `A best streak of ${f.bestStreak} days broke; now ${f.loginStreak}. A lost record invites "why bother".`,
          )
        : t(
            '記録の途切れは小さく、損失回避の影響は限定的。',
            'The streak loss is small; loss aversion plays a minor role.',
          ),
      evidence: [`login_streak: ${f.loginStreak ?? 'n/a'}`, `best_login_streak: ${f.bestStreak ?? 'n/a'}`],
      hypothesis: t(
        '遠い目標より、今日達成できる小さな約束が行動を戻す',
        'A small promise achievable today restores behaviour better than a distant goal',
      ),
      confidence: lost ? 0.66 : 0.42,
      type: allowed(ctx, 'GOAL_ADJUSTMENT', 'MESSAGE_TIMING'),
      for: 'GOAL_ADJUSTMENT',
      target: t('今日のコミットメント', "today's commitment"),
      description: t(
        '朝に「今日の最初の1件」を本人が宣言する小さなコミットメントを設ける',
        'Have the person commit each morning to "today\'s first contact"',
      ),
      intensity: 'low',
    };
  },
  organization(ctx, f, t) {
    const structural = f.team.members > 0 && f.team.falling > f.team.members / 2;
    return {
      analysis: structural
        ? t(
            `同期間にチーム${f.team.members}人中${f.team.falling}人が低下しており、組織要因が疑われる。`,
            `${f.team.falling} of ${f.team.members} teammates fell too; an organisational cause is likely.`,
          )
        : t(
            `チーム${f.team.members}人中${f.team.falling}人のみ低下。本人固有の事情の可能性が高い。`,
            `Only ${f.team.falling} of ${f.team.members} teammates fell; a personal cause is likely.`,
          ),
      evidence: [`team_falling: ${f.team.falling}/${f.team.members}`, `team_mean_change: ${pct(f.team.meanChange)}`],
      hypothesis: structural
        ? t('チーム全体の負荷や方針変更が影響', 'Team-wide load or a policy change is at work')
        : t('個別の支援が必要', 'Individual support is needed'),
      confidence: f.team.members ? 0.58 : 0.3,
      type: structural ? allowed(ctx, 'PEER_SUPPORT', 'ONE_ON_ONE') : allowed(ctx, 'ONE_ON_ONE', 'PEER_SUPPORT'),
      for: structural ? 'PEER_SUPPORT' : 'ONE_ON_ONE',
      target: structural
        ? t('チーム内の相互支援', 'peer support in the team')
        : t('上長との1on1', 'a 1:1 with the manager'),
      description: structural
        ? t('チームで成功事例を共有する場を設ける', 'Hold a team session to share what works')
        : t('15分の1on1で本人の状況を聞く', 'Hold a 15-minute 1:1 to listen'),
      intensity: 'low',
    };
  },
  wellbeing(ctx, f, t) {
    const rising = f.overtimeRecent > f.overtimeBefore * 1.05;
    const high = f.cues.length > 0 || f.overtimeRecent >= 2.5 || f.overtimeRecent > f.overtimeBefore * 1.5;
    return {
      analysis: t(
        `直近7日の残業は平均${round2(f.overtimeRecent)}時間、以前は${round2(f.overtimeBefore)}時間。`,
        `Overtime averaged ${round2(f.overtimeRecent)} h over the last 7 days, ${round2(f.overtimeBefore)} h before.`,
      ),
      evidence: [`overtime_7d_mean: ${round2(f.overtimeRecent)}`, `overtime_before_mean: ${round2(f.overtimeBefore)}`],
      // A rise is said only when the data shows one; high but level load is said as high.
      hypothesis: high
        ? rising
          ? t('負荷の上昇が活動量低下に影響している', 'Rising load contributes to the drop')
          : t('負荷の高さが活動量低下に影響している', 'A heavy load contributes to the drop')
        : t('負荷は許容範囲', 'The load is within a normal range'),
      confidence: f.cues.length ? 0.8 : high ? 0.6 : 0.38,
      type: high ? allowed(ctx, 'REST_RECOMMENDATION') : allowed(ctx, 'ONE_ON_ONE', 'REST_RECOMMENDATION'),
      for: high ? 'REST_RECOMMENDATION' : 'ONE_ON_ONE',
      target: high ? t('残業の抑制', 'less overtime') : t('状況確認', 'a check-in'),
      description: high
        ? t('今週は定時退社日を2日設け、負荷を下げる', 'Set two leave-on-time days this week')
        : t('体調と負荷について短く確認する', 'Briefly check in on load and health'),
      intensity: 'low',
    };
  },
};

// A fall shorter than this many days in a row is a dip, not a slump: no goal is reset for it.
const SUSTAINED_DAYS = 3;

// The manager's note comes first: under a health cue an action that adds load (a goal) becomes rest or a 1:1, and the
// opinion says why. A goal is also no answer to a one-day dip or to a metric that did not fall: a 1:1 listens first.
function heeded(ctx: AgentContext, f: Facts, o: Opinion, t: L): Opinion {
  if (LOAD_ACTIONS.indexOf(o.type) < 0) return o;
  if (!f.cues.length) return f.declineDays >= SUSTAINED_DAYS ? o : listenFirst(ctx, f, o, t);
  const type = allowed(ctx, 'REST_RECOMMENDATION', 'ONE_ON_ONE', 'PEER_SUPPORT');
  const words = actionWording(type, t);
  const cues = cueText(f, ctx.lang);
  return {
    ...o,
    type,
    for: type,
    ...words,
    intensity: 'low',
    hypothesis: t(
      `マネージャーのメモに${cues}の記述があるため、目標で負荷を増やさない。${o.hypothesis}`,
      `The manager's note mentions ${cues}, so no goal adds load. ${o.hypothesis}`,
    ),
    evidence: o.evidence.concat([`manager_note: ${cues}`]),
  };
}

function listenFirst(ctx: AgentContext, f: Facts, o: Opinion, t: L): Opinion {
  const type = allowed(ctx, 'ONE_ON_ONE', 'MESSAGE_TIMING', 'PRAISE_INCREASE');
  return {
    ...o,
    type,
    for: type,
    ...actionWording(type, t),
    intensity: 'low',
    confidence: Math.min(o.confidence, 0.5),
    // Said without a direction the data may not bear out over a week: a dip of a day or two, or no run at all.
    hypothesis: f.declineDays
      ? t(
          `${metricWord(f, 'ja')}が普段の水準を下回ったのは${f.declineDays}日だけで一時的な可能性があり、目標を変える前に本人の話を聞く。`,
          `${metricWord(f, 'en')} has been under its usual level for ${f.declineDays} day(s) only, which may pass: listen before changing any goal.`,
        )
      : t(
          `${metricWord(f, 'ja')}に日を追った下がり方は見られず、目標を変える前に本人の話を聞く。`,
          `${metricWord(f, 'en')} shows no run of bad days: listen before changing any goal.`,
        ),
  };
}

export function specialistOpinion(agentId: string, ctx: AgentContext, f: Facts, t: L): ContentOf<'SPECIALIST_OPINION'> {
  const rule = specialists[agentId] ?? specialists.analyst;
  return opinion(ctx, f, heeded(ctx, f, rule(ctx, f, t), t), t);
}

export function feedbackResponse(agentId: string, ctx: AgentContext, f: Facts, t: L): ContentOf<'FEEDBACK_RESPONSE'> {
  const rule = specialists[agentId] ?? specialists.analyst;
  const o = heeded(ctx, f, rule(ctx, f, t), t);
  return {
    answer: t(
      `追加の根拠：${o.analysis} したがって推奨は ${named(o.type, t)} のまま。`,
      `Further grounds: ${o.analysis} The recommendation stays ${named(o.type, t)}.`,
    ),
    source_data: o.evidence.concat([`points: ${f.points}`, `days_covered: ${f.daysCovered}`]),
  };
}
