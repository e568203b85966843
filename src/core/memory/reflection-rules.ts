// The rules provider's reflection: canned text that follows the verdict and the agent's record, in Japanese or English.
import { tf, type Lang } from '../i18n.js';
import { orderOf } from './memory.js';
import type { ContentOf, Message } from '../discussion/messages.js';
import type { Verdict } from './outcomes.js';
import type { Discussion } from '../types.js';

export interface ReflectionContent {
  agent_id: string;
  self_score: number;
  reasoning: string;
  went_well: string;
  to_improve: string;
  next_actions: string[];
}

// An agent's record before this verdict: how often its stated view was right (the review's agentStats).
export type AgentRecord = Record<string, { hits: number; misses: number } | undefined>;

// A record says something once three verdicts are in; below that, the text names the count without judging it.
const JUDGED_AFTER = 3;

// The agents that spoke, in the order they first did: each reflects once.
export function speakersOf(d: Discussion): string[] {
  const out: string[] = [];
  for (const m of d.messages)
    if (m.speaker !== 'system' && m.speaker !== 'human' && out.indexOf(m.speaker) < 0) out.push(m.speaker);
  return out;
}

// The action an agent recommended in Phase 2 ('' when it gave no opinion) and whether the order carried it.
export function recommendationOf(d: Discussion, agent: string): { rec: string; adopted: boolean; byDefault: boolean } {
  const order = orderOf(d);
  const chosen = order ? order.actions.map((a) => a.action_type) : [];
  const op = d.messages.find((m: Message) => m.speaker === agent && m.message_type === 'SPECIALIST_OPINION');
  const rec = op ? (op.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type : '';
  return { rec, adopted: rec !== '' && chosen.indexOf(rec) >= 0, byDefault: !!op?.metadata.default_opinion };
}

// Each agent that spoke scores itself against the verdict: advice carried out and confirmed scores high. The score
// and the point to improve follow the verdict only (the history compares points); the reasoning and
// what went well also follow the agent's record, so two agents on the same verdict do not read alike.
export function reflect(d: Discussion, verdict: Verdict, lang: Lang, record: AgentRecord = {}): ReflectionContent[] {
  const t = (ja: string, en: string) => (lang === 'ja' ? ja : en);
  return speakersOf(d).map((agent) => {
    const { rec, adopted, byDefault } = recommendationOf(d, agent);
    let score = verdict === 'confirmed' ? 7 : verdict === 'rejected' ? 4 : 5;
    if (rec)
      score += adopted
        ? verdict === 'confirmed'
          ? 2
          : verdict === 'rejected'
            ? -2
            : 0
        : verdict === 'rejected'
          ? 1
          : -1;
    if (byDefault) score = 2;
    score = Math.max(1, Math.min(10, score));
    const improve = byDefault
      ? t('期限内に使える回答を返す', 'Return a usable answer in time')
      : verdict === 'rejected' && adopted
        ? t(`${rec} が効かなかった状況の見極め`, `Tell apart situations where ${rec} does not work`)
        : verdict === 'inconclusive'
          ? t('判定に足るデータ期間を見込む', 'Allow for enough data to judge')
          : t('根拠となるデータを増やす', 'Back the advice with more data');
    const r = record[agent];
    const n = r ? r.hits + r.misses : 0;
    const rate = n ? Math.round((100 * (r?.hits ?? 0)) / n) : 0;
    const adoptedWord = tf(adopted ? 'reflectAdopted' : 'reflectNotAdopted', lang, {});
    const reasoning =
      tf('reflectReasoning', lang, { verdict, rec: rec || '-', adopted: adoptedWord }) +
      (rec ? tf(n ? 'reflectRecord' : 'reflectFirst', lang, { hits: r?.hits ?? 0, n, rate }) : '');
    const wentWell =
      verdict === 'confirmed' && adopted
        ? tf('reflectPaidOff', lang, { rec })
        : rec && n >= JUDGED_AFTER
          ? tf(rate >= 50 ? 'reflectStrongRecord' : 'reflectWeakRecord', lang, { rate })
          : tf('reflectView', lang, {});
    return {
      agent_id: agent,
      self_score: score,
      reasoning,
      went_well: wentWell,
      to_improve: improve,
      next_actions: [
        improve,
        verdict === 'rejected'
          ? t('似た事例で否定された施策を避ける', 'Avoid actions rejected in similar cases')
          : t('似た事例で確認された施策を参照する', 'Refer to actions confirmed in similar cases'),
      ],
    };
  });
}
