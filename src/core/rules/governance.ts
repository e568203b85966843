// The rule-based governance checks (phase 4): ethics and legal, each a pass or a fail with its concerns.
import type { ContentOf } from '../discussion/messages.js';
import type { AgentContext } from '../provider.js';
import { cueText, type Facts } from './facts.js';
import { LOAD_ACTIONS } from './note-cues.js';
import { opinions, type L } from './shared.js';

// The monthly overtime above which more load is a legal risk (Japan's 36 agreement's ordinary limit).
export const OVERTIME_LIMIT_MONTHLY = 45;
// Working days a month, turning a daily overtime mean into a monthly figure.
export const WORKDAYS_MONTHLY = 20;

// What ethics fails in any text of the plan: the specialists' suggestions, or the decider's own order.
export function ethicsConcerns(text: string, t: L): string[] {
  const concerns: string[] = [];
  if (/監視|位置情報|尾行|surveil|track(ing)? (his|her|their) location|monitor (his|her|their) private/i.test(text))
    concerns.push(t('本人の私生活を監視する要素が含まれる', 'The plan includes surveillance of private life'));
  if (/罰|降格|減給|解雇|punish|demot|pay cut|\bfire\b|dismiss/i.test(text))
    concerns.push(t('懲罰的な措置が含まれる', 'The plan includes punitive measures'));
  if (/診断|病歴|通院|diagnos|medical history/i.test(text))
    concerns.push(t('健康情報の取り扱いが含まれる', 'The plan handles health information'));
  return concerns;
}

// The legal concern any text of the plan can raise by itself: personal data given to others.
export function disclosureConcerns(text: string, t: L): string[] {
  return /第三者|外部に共有|share (his|her|their|personal) data|third part/i.test(text)
    ? [t('本人同意のない個人情報の第三者提供', 'Disclosure of personal data to third parties without consent')]
    : [];
}

// Text that raises a goal, a quota or a target: more load on the member.
export const RAISES = /増やす|引き上げ|\braise\b|increase (the )?(goal|quota|target)/i;

export function governance(
  ctx: AgentContext,
  kind: 'ethics' | 'legal',
  t: L,
  f: Facts,
): ContentOf<'GOVERNANCE_ETHICS'> {
  const text =
    JSON.stringify(ctx.trigger.context) +
    ' ' +
    opinions(ctx)
      .map((o) => o.c.recommendation.description)
      .join(' ');
  if (kind === 'ethics') {
    const concerns = ethicsConcerns(text, t);
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
  const concerns = disclosureConcerns(text, t);
  const monthly = f.overtimeRecent * WORKDAYS_MONTHLY;
  const raises = opinions(ctx).some((o) => RAISES.test(o.c.recommendation.description));
  // Under a health cue any goal counts as load: a lowered goal is still a goal to meet.
  const goal = opinions(ctx).some((o) => LOAD_ACTIONS.indexOf(o.c.recommendation.action_type) >= 0);
  if (f.cues.length && (raises || goal))
    concerns.push(
      t(
        `マネージャーのメモ（${cueText(f, 'ja')}）がある中で目標を引き上げる提案`,
        `A goal raised while the manager's note mentions ${cueText(f, 'en')}`,
      ),
    );
  if (monthly > OVERTIME_LIMIT_MONTHLY && raises)
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
      : monthly > OVERTIME_LIMIT_MONTHLY
        ? t(
            `残業は月${Math.round(monthly)}時間相当で注意が必要だが、推奨施策は負荷を増やさないため問題なし`,
            `Overtime runs at about ${Math.round(monthly)} h a month and needs watching, but no recommended action adds load`,
          )
        : t('労務・個人情報・ハラスメントの観点で問題なし', 'No issue on labour, personal data or harassment grounds'),
  };
}
