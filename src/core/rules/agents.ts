// The rule-based council: each agent reasons from the trigger and the KPI/Members data, no network.
import { BAND_WEIGHT, bandOf } from '../confidence.js';
import { addDays } from '../ids.js';
import { pct } from '../kpi.js';
import type { Action, ContentOf, Message } from '../messages.js';
import type { AgentContext, Expectation } from '../provider.js';
import { changeText, facts, type Facts } from './facts.js';
import { caseAdjustment, extractLearnings } from '../memory.js';
import type { Verdict } from '../outcomes.js';
import type { Discussion } from '../types.js';

type L = (ja: string, en: string) => string;
const langOf =
  (ctx: AgentContext): L =>
  (ja, en) =>
    ctx.lang === 'ja' ? ja : en;
const round2 = (x: number) => Math.round(x * 100) / 100;
const rate = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)}%`);

interface Opinion {
  analysis: string;
  evidence: string[];
  hypothesis: string;
  confidence: number;
  type: string;
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
  return { action_type: type, target, description, intensity, timing: f.contactTime, duration_days: days };
}

// Uses the first preferred action type that the allow-list permits, so rules never propose a banned action.
function allowed(ctx: AgentContext, ...preferred: string[]): string {
  for (const p of preferred) if (ctx.allowList.indexOf(p) >= 0) return p;
  return ctx.allowList[0];
}

function opinion(ctx: AgentContext, f: Facts, o: Opinion): ContentOf<'SPECIALIST_OPINION'> {
  const feedback = ctx.feedbackQuestion ? 0.1 : 0;
  return {
    analysis: o.analysis,
    evidence: o.evidence.length ? o.evidence : [changeText(f, ctx.lang)],
    hypothesis: o.hypothesis,
    confidence: round2(Math.min(0.95, o.confidence + feedback)),
    recommendation: action(f, o.type, o.target, o.description, o.intensity),
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
            `直近7日の称賛が${f.praise}回でチーム平均${round2(f.teamPraise)}回を下回る。承認の好みは${f.recognition}。`,
            `Praise in the last 7 days is ${f.praise}, below the team mean of ${round2(f.teamPraise)}. Recognition preference: ${f.recognition}.`,
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
    const high = f.overtimeRecent >= 2.5 || f.overtimeRecent > f.overtimeBefore * 1.5;
    return {
      analysis: t(
        `直近7日の残業は平均${round2(f.overtimeRecent)}時間、以前は${round2(f.overtimeBefore)}時間。`,
        `Overtime averaged ${round2(f.overtimeRecent)} h over the last 7 days, ${round2(f.overtimeBefore)} h before.`,
      ),
      evidence: [`overtime_7d_mean: ${round2(f.overtimeRecent)}`, `overtime_before_mean: ${round2(f.overtimeBefore)}`],
      hypothesis: high
        ? t('負荷の上昇が活動量低下に影響している', 'Rising load contributes to the drop')
        : t('負荷は許容範囲', 'The load is within a normal range'),
      confidence: high ? 0.6 : 0.38,
      type: high ? allowed(ctx, 'REST_RECOMMENDATION') : allowed(ctx, 'ONE_ON_ONE', 'REST_RECOMMENDATION'),
      target: high ? t('残業の抑制', 'less overtime') : t('状況確認', 'a check-in'),
      description: high
        ? t('今週は定時退社日を2日設け、負荷を下げる', 'Set two leave-on-time days this week')
        : t('体調と負荷について短く確認する', 'Briefly check in on load and health'),
      intensity: 'low',
    };
  },
};

function opinions(ctx: AgentContext): { speaker: string; c: ContentOf<'SPECIALIST_OPINION'> }[] {
  return ctx.earlier
    .filter((m: Message) => m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion)
    .map((m) => ({ speaker: m.speaker, c: m.content as ContentOf<'SPECIALIST_OPINION'> }));
}

function leading(ctx: AgentContext): { type: string; agents: string[] } {
  const votes: Record<string, string[]> = {};
  for (const o of opinions(ctx)) (votes[o.c.recommendation.action_type] ??= []).push(o.speaker);
  let best = { type: allowed(ctx, 'GOAL_ADJUSTMENT'), agents: [] as string[] };
  for (const k of Object.keys(votes).sort())
    if (votes[k].length > best.agents.length) best = { type: k, agents: votes[k] };
  return best;
}

const RISKS: Record<string, [string, string, string, string]> = {
  PRAISE_INCREASE: [
    '過度な称賛は依存や慣れを生む可能性',
    'Too much praise can breed dependence or lose its effect',
    '称賛は具体的な行動に限定し、頻度は段階的に増やす',
    'Limit praise to specific actions and raise the frequency gradually',
  ],
  GOAL_ADJUSTMENT: [
    '目標の引き下げが定着し、回復が遅れる可能性',
    'A lowered goal may stick and slow the recovery',
    '3日ごとに目標を見直し、元の水準へ戻す期限を決める',
    'Review the goal every 3 days with a date to return to the usual level',
  ],
  MESSAGE_TIMING: [
    '通知が増えると監視されている感覚を与える可能性',
    'More notifications can feel like being watched',
    '通知は1日1回までとし、本人が時間を選べるようにする',
    'At most one note a day, at a time the person chooses',
  ],
  REST_RECOMMENDATION: [
    '休息の推奨が評価低下のサインと受け取られる可能性',
    "A rest recommendation may read as a bad sign for one's evaluation",
    '休息は本人の選択として提案し、評価と切り離すことを明示する',
    "Offer rest as the person's choice, explicitly separate from evaluation",
  ],
  ONE_ON_ONE: [
    '面談が詰問になると逆効果',
    'A 1:1 that turns into an interrogation backfires',
    '聞き役に徹し、結論を急がない',
    'Listen first and do not rush to conclusions',
  ],
};

function governance(ctx: AgentContext, kind: 'ethics' | 'legal', t: L, f: Facts): ContentOf<'GOVERNANCE_ETHICS'> {
  const text =
    JSON.stringify(ctx.trigger.context) +
    ' ' +
    opinions(ctx)
      .map((o) => o.c.recommendation.description)
      .join(' ');
  const concerns: string[] = [];
  if (kind === 'ethics') {
    if (/監視|位置情報|尾行|surveil|track(ing)? (his|her|their) location|monitor (his|her|their) private/i.test(text))
      concerns.push(t('本人の私生活を監視する要素が含まれる', 'The plan includes surveillance of private life'));
    if (/罰|降格|減給|解雇|punish|demot|pay cut|\bfire\b|dismiss/i.test(text))
      concerns.push(t('懲罰的な措置が含まれる', 'The plan includes punitive measures'));
    if (/診断|病歴|通院|diagnos|medical history/i.test(text))
      concerns.push(t('健康情報の取り扱いが含まれる', 'The plan handles health information'));
    return {
      check_result: concerns.length ? 'FAIL' : 'PASS',
      concerns,
      notes: concerns.length
        ? t('本人の尊厳と自律を損なう恐れがあるため保留', 'On hold: risk to dignity and autonomy')
        : t(
            '推奨施策は本人の自律を尊重しており倫理上の問題なし',
            "The recommended actions respect the person's autonomy; no ethical issue",
          ),
    };
  }
  if (/第三者|外部に共有|share (his|her|their|personal) data|third part/i.test(text))
    concerns.push(
      t('本人同意のない個人情報の第三者提供', 'Disclosure of personal data to third parties without consent'),
    );
  const monthly = f.overtimeRecent * 20;
  const raises = opinions(ctx).some((o) =>
    /増やす|引き上げ|raise|increase (the )?(goal|quota|target)/i.test(o.c.recommendation.description),
  );
  if (monthly > 45 && raises)
    concerns.push(
      t(
        `時間外労働が月${Math.round(monthly)}時間相当で上限45時間を超える恐れがある中での負荷増`,
        `More workload while overtime runs at about ${Math.round(monthly)} h a month, above the 45 h limit`,
      ),
    );
  return {
    check_result: concerns.length ? 'FAIL' : 'PASS',
    concerns,
    notes: concerns.length
      ? t('法令上のリスクがあるため保留', 'On hold: legal risk')
      : monthly > 45
        ? t(
            `残業は月${Math.round(monthly)}時間相当で注意が必要だが、推奨施策は負荷を増やさないため問題なし`,
            `Overtime runs at about ${Math.round(monthly)} h a month and needs watching, but no recommended action adds load`,
          )
        : t('労務・個人情報・ハラスメントの観点で問題なし', 'No issue on labour, personal data or harassment grounds'),
  };
}

function decide(
  ctx: AgentContext,
  t: L,
): { deliberation: ContentOf<'DECISION_DELIBERATION'>; order: ContentOf<'EXECUTION_ORDER'> } {
  const f = facts(ctx);
  const ops = opinions(ctx);
  const weights = ops.map((o) => {
    const computed = ctx.computed[o.speaker] ?? o.c.confidence;
    const band = bandOf(computed, ctx.bands);
    return { agent_id: o.speaker, weight: round2((BAND_WEIGHT[band] * (computed + o.c.confidence)) / 2), band };
  });
  const total = weights.reduce((a, w) => a + w.weight, 0) || 1;
  weights.forEach((w) => (w.weight = round2(w.weight / total)));
  const votes: Record<string, { agents: string[]; score: number }> = {};
  ops.forEach((o, i) => {
    const v = (votes[o.c.recommendation.action_type] ??= { agents: [], score: 0 });
    v.agents.push(o.speaker);
    v.score = round2(v.score + weights[i].weight);
  });
  const objected = ctx.objection
    ? Object.keys(RISKS)
        .concat(ctx.allowList)
        .filter((a) => ctx.objection!.reason.indexOf(a) >= 0)
    : [];
  const proposed = ctx.objection ? ctx.allowList.filter((a) => ctx.objection!.alternative.indexOf(a) >= 0) : [];
  const guided = ctx.guidance ? ctx.allowList.filter((a) => ctx.guidance!.indexOf(a) >= 0) : [];
  for (const a of proposed.concat(guided)) (votes[a] ??= { agents: [], score: 0 }).score = round2(votes[a].score + 0.5);
  // Memory: similar past cases pull toward what was confirmed and away from what was rejected.
  const cases = ctx.memory?.cases ?? [];
  for (const a of ctx.allowList) {
    const adj = caseAdjustment(a, cases);
    if (adj === 0) continue;
    const v = (votes[a] ??= { agents: [], score: 0 });
    v.score = round2(Math.max(0, v.score + 0.5 * adj));
  }
  const ranked = Object.keys(votes)
    .filter((a) => ctx.allowList.indexOf(a) >= 0 && objected.indexOf(a) < 0)
    .sort((a, b) => votes[b].score - votes[a].score || (a < b ? -1 : 1));
  const top = ranked.length ? votes[ranked[0]].score : 0;
  const selected = ranked.filter((a, i) => i < 3 && votes[a].score >= top * 0.5);
  if (selected.length === 0) selected.push(allowed(ctx, 'ONE_ON_ONE'));
  const negative = ctx.earlier.find((m) => m.message_type === 'PERSPECTIVE_NEGATIVE')?.content as
    | ContentOf<'PERSPECTIVE_NEGATIVE'>
    | undefined;
  const consensus = selected
    .filter((a) => (votes[a]?.agents.length ?? 0) >= 3)
    .map((a) => t(`${a} を${votes[a].agents.length}名が推奨`, `${votes[a].agents.length} agents recommend ${a}`));
  if (f.change)
    consensus.push(t(`${changeText(f, 'ja')}という事実認識は一致`, `All agree on the facts: ${changeText(f, 'en')}`));
  const conflicts = ranked
    .filter((a) => selected.indexOf(a) < 0)
    .map((a) =>
      t(`${a}（${votes[a].agents.join(', ')}）は採用せず`, `${a} (${votes[a].agents.join(', ')}) not adopted`),
    );
  if (negative)
    conflicts.push(
      t(
        `リスク指摘：${negative.risk} → 対応：${negative.counter_proposal}`,
        `Risk raised: ${negative.risk} → handled by: ${negative.counter_proposal}`,
      ),
    );
  const dissent = ops
    .filter((o) => selected.indexOf(o.c.recommendation.action_type) < 0)
    .map((o) => ({ agent_id: o.speaker, opinion: `${o.c.recommendation.action_type}: ${o.c.hypothesis}` }));
  const actions: Action[] = selected.map((a) => {
    const src = ops.find((o) => o.c.recommendation.action_type === a)?.c.recommendation;
    const intensity: Action['intensity'] = negative ? 'low' : (src?.intensity ?? 'medium');
    return src
      ? { ...src, intensity }
      : {
          action_type: a,
          target: t('本人', 'the member'),
          description: t(`${a} を実施`, `Carry out ${a}`),
          intensity,
          timing: f.contactTime,
          duration_days: 7,
        };
  });
  const rationale = [
    t(
      `加重投票で ${selected.join(', ')} を選択（最高スコア ${top}）。`,
      `Weighted vote selects ${selected.join(', ')} (top score ${top}).`,
    ),
    negative
      ? t(
          "Devil's Advocate の指摘を受け強度は low とする。",
          "Intensity set to low after the devil's advocate's warning.",
        )
      : '',
    ctx.objection
      ? t(
          `異議（${ctx.objection.objector}）を考慮：${ctx.objection.reason}`,
          `Objection from ${ctx.objection.objector} considered: ${ctx.objection.reason}`,
        )
      : '',
    ctx.guidance ? t(`人間からの指示を反映：${ctx.guidance}`, `Human guidance applied: ${ctx.guidance}`) : '',
    cases.length
      ? t(
          `類似事例 ${cases.map((c) => `${c.id}(${c.verdict})`).join(', ')} を参照。`,
          `Similar cases consulted: ${cases.map((c) => `${c.id} (${c.verdict})`).join(', ')}.`,
        )
      : '',
  ]
    .filter(Boolean)
    .join(' ');
  const metric = f.metric;
  return {
    deliberation: {
      summary_of_opinions: { consensus_points: consensus, conflicting_points: conflicts },
      weight_assignment: weights,
      votes: Object.keys(votes)
        .sort()
        .map((a) => ({ action_type: a, agents: votes[a].agents, score: votes[a].score })),
      dissenting_opinions: dissent,
      selected_action_types: selected,
      rationale,
    },
    order: {
      decision_id: ctx.decisionId ?? 'DEC-0000-00-00-000',
      target_agents: ['buddy'],
      actions,
      monitoring: {
        metrics: [metric, 'login_streak'],
        review_date: addDays(ctx.today, ctx.reviewDays),
        success_criteria: [
          { metric, direction: 'increase', target_change: ctx.targetChange, window_days: ctx.windowDays },
        ],
      },
    },
  };
}

// The rule-based answer for one agent and one expected message type.
export function ruleAnswer(agentId: string, expect: Expectation, ctx: AgentContext): unknown {
  const t = langOf(ctx);
  const f = facts(ctx);
  switch (expect) {
    case 'SITUATION_REPORT': {
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
    case 'SPECIALIST_OPINION': {
      const rule = specialists[agentId] ?? specialists.analyst;
      return opinion(ctx, f, rule(ctx, f, t));
    }
    case 'FEEDBACK_RESPONSE': {
      const rule = specialists[agentId] ?? specialists.analyst;
      const o = rule(ctx, f, t);
      return {
        answer: t(
          `追加の根拠：${o.analysis} したがって推奨は ${o.type} のまま。`,
          `Further grounds: ${o.analysis} The recommendation stays ${o.type}.`,
        ),
        source_data: o.evidence.concat([`points: ${f.points}`, `days_covered: ${f.daysCovered}`]),
      };
    }
    case 'PERSPECTIVE_POSITIVE':
      return {
        viewpoint: f.bestStreak
          ? t(
              `${f.name}さんは過去に${f.bestStreak}日連続で活動できており、力は十分にある。`,
              `${f.name} once kept going for ${f.bestStreak} days in a row; the capacity is there.`,
            )
          : t('一時的な落ち込みで、回復の余地は大きい。', 'A temporary dip with plenty of room to recover.'),
        opportunity: t(
          '今支援すれば、早い回復と信頼関係の強化につながる',
          'Support now can bring a quick recovery and stronger trust',
        ),
        recommended_tone: t('励まし強め、結果より行動を称える', 'Encouraging; praise actions rather than results'),
      };
    case 'PERSPECTIVE_NEGATIVE': {
      const lead = leading(ctx);
      const r = RISKS[lead.type] ?? [
        `${lead.type} の効果が出ない可能性`,
        `${lead.type} may not work`,
        '見直し日を早めに設定する',
        'Set an early review date',
      ];
      return {
        risk: t(r[0], r[1]),
        concern: t(
          `最多推奨の ${lead.type}（${lead.agents.join(', ')}）に意見が偏っている`,
          `Opinion clusters on ${lead.type} (${lead.agents.join(', ')})`,
        ),
        counter_proposal: t(r[2], r[3]),
      };
    }
    case 'PERSPECTIVE_HUMAN':
      return {
        reality_check:
          f.overtimeRecent > f.overtimeBefore
            ? t(
                `残業が増えていて（平均${round2(f.overtimeRecent)}時間）、正直なところ疲れているだけかもしれない`,
                `Overtime is up (${round2(f.overtimeRecent)} h a day); honestly they may just be tired`,
              )
            : t(
                '毎日のログインや報告は正直面倒だと感じている可能性が高い',
                'Daily logins and reports probably feel like a chore',
              ),
        human_insight: t(
          '週明けはやる気が出にくく、目標が遠いと最初の一歩が重くなる',
          'Mondays are hard, and a distant goal makes the first step heavy',
        ),
        practical_suggestion: t(
          '最初の一件だけを目標にし、週明けは軽めにする',
          'Aim only for the first contact and keep Mondays light',
        ),
      };
    case 'GOVERNANCE_ETHICS':
      return governance(ctx, 'ethics', t, f);
    case 'GOVERNANCE_LEGAL':
      return governance(ctx, 'legal', t, f);
    case 'DECISION':
      return decide(ctx, t);
    case 'LEARNING': {
      const order = ctx.earlier.filter((m) => m.message_type === 'EXECUTION_ORDER').pop();
      const d = {
        discussion_id: ctx.discussion_id,
        status: 'DECIDED',
        priority: ctx.priority,
        trigger: ctx.trigger,
        created_at: '',
        closed_at: '',
        participants: [],
        messages: ctx.earlier,
        final_decision: order ? order.content : null,
        execution_status: '',
        outcome_evaluated: '',
        notes: [],
      } as Discussion;
      const verdict = (ctx.outcome?.verdict ?? 'inconclusive') as Verdict;
      return { learnings: extractLearnings(d, verdict, ctx.lang) };
    }
    default:
      throw new Error(`the rules provider has no answer of type ${expect}`);
  }
}
