// The rule-based balancers (phase 3): the positive view, the devil's advocate and the human view.
import type { ContentOf } from '../discussion/messages.js';
import type { AgentContext } from '../provider.js';
import type { Facts } from './facts.js';
import { allowed, opinions, round2, type L } from './shared.js';

function leading(ctx: AgentContext): { type: string; agents: string[] } {
  const votes: Record<string, string[]> = {};
  for (const o of opinions(ctx)) (votes[o.c.recommendation.action_type] ??= []).push(o.speaker);
  let best = { type: allowed(ctx, 'GOAL_ADJUSTMENT'), agents: [] as string[] };
  for (const k of Object.keys(votes).sort())
    if (votes[k].length > best.agents.length) best = { type: k, agents: votes[k] };
  return best;
}

export const RISKS: Record<string, [string, string, string, string]> = {
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

export function positive(f: Facts, t: L): ContentOf<'PERSPECTIVE_POSITIVE'> {
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
}

export function negative(ctx: AgentContext, t: L): ContentOf<'PERSPECTIVE_NEGATIVE'> {
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

export function human(f: Facts, t: L): ContentOf<'PERSPECTIVE_HUMAN'> {
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
}
