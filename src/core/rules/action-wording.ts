// What each action type means in words, for the rule-based agents: an order's target and description always say
// what its action type does (never praise under ONE_ON_ONE). A type a person added to the allow-list gets a plain
// "carry out" wording until the rules know it.
import type { L } from './shared.js';

interface Wording {
  target: [ja: string, en: string];
  description: [ja: string, en: string];
}

const WORDS: Readonly<Record<string, Wording>> = {
  PRAISE_INCREASE: {
    target: ['行動ベースの称賛', 'praise for specific actions'],
    description: [
      '具体的な行動（架電・訪問）に対して当日中に称賛を伝える',
      'Praise specific actions (calls, visits) on the same day',
    ],
  },
  GOAL_ADJUSTMENT: {
    target: ['日次の活動目標', 'daily activity goal'],
    description: [
      '届く高さの日次目標に一時的に下げ、達成を積み重ねる',
      'Lower the daily goal for now to a reachable level and build a run of wins',
    ],
  },
  MESSAGE_TIMING: {
    target: ['声かけのタイミング', 'timing of messages'],
    description: [
      '普段の活動開始時刻に短い声かけを送り、行動のきっかけを作る',
      'Send a short note at the usual start time to cue the day’s first action',
    ],
  },
  ONE_ON_ONE: {
    target: ['上長との1on1', 'a 1:1 with the manager'],
    description: ['15分の1on1で本人の状況を聞く', 'Hold a 15-minute 1:1 to listen'],
  },
  PEER_SUPPORT: {
    target: ['チーム内の相互支援', 'peer support in the team'],
    description: ['チームで成功事例を共有する場を設ける', 'Hold a team session to share what works'],
  },
  REST_RECOMMENDATION: {
    target: ['休息と負荷の調整', 'rest and load'],
    description: ['今週は定時退社日を2日設け、負荷を下げる', 'Set two leave-on-time days this week'],
  },
  SKILL_TRAINING: {
    target: ['トークスクリプト', 'call script'],
    description: ['上位者との同行でトークを見直す', 'Review the pitch by shadowing a top performer'],
  },
};

// A Map, so a type named like an object's own property (`constructor`) finds nothing.
const WORDING = new Map(Object.entries(WORDS));

// The action types the rules have words for: a test checks every default allow-list type is among them.
export const WORDED_TYPES = [...WORDING.keys()];

export function actionWording(type: string, t: L): { target: string; description: string } {
  const w = WORDING.get(type);
  if (!w) return { target: t('本人', 'the member'), description: t(`${type} を実施`, `Carry out ${type}`) };
  return { target: t(...w.target), description: t(...w.description) };
}
