// The demo team: five salespeople with 30 days of KPI, including 田中さん (contacts 12 → 5), the example the design starts
// from.
import { addDays } from './discussion/ids.js';
import type { KpiRow, Member, Trigger } from './types.js';

export const DEMO_MEMBERS: readonly Member[] = [
  {
    member_id: 'tanaka',
    name: '田中 太郎',
    team: '営業1課',
    role: '営業',
    best_login_streak: 15,
    profile: { recognition_preference: 'PUBLIC', tenure_years: 3, preferred_contact_time: '09:30' },
  },
  {
    member_id: 'sato',
    name: '佐藤 花子',
    team: '営業1課',
    role: '営業',
    best_login_streak: 22,
    profile: { recognition_preference: 'PRIVATE', tenure_years: 6, preferred_contact_time: '13:00' },
  },
  {
    member_id: 'suzuki',
    name: '鈴木 一郎',
    team: '営業1課',
    role: '営業',
    best_login_streak: 9,
    profile: { recognition_preference: 'PUBLIC', tenure_years: 1, preferred_contact_time: '10:00' },
  },
  {
    member_id: 'takahashi',
    name: '高橋 美咲',
    team: '営業2課',
    role: '営業',
    best_login_streak: 30,
    profile: { recognition_preference: 'PRIVATE', tenure_years: 8, preferred_contact_time: '08:45' },
  },
  {
    member_id: 'ito',
    name: '伊藤 健',
    team: '営業2課',
    role: 'リーダー',
    best_login_streak: 18,
    profile: { recognition_preference: 'PUBLIC', tenure_years: 10, preferred_contact_time: '17:00' },
  },
];

// A small deterministic generator so the demo is the same on every machine.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

// 30 days ending on `lastDay` (inclusive). 田中さん's last five days are 12, 10, 8, 6, 5 contacts.
export function demoKpi(lastDay: string): KpiRow[] {
  const rows: KpiRow[] = [];
  const rand = rng(20260115);
  const tanakaContacts = [12, 10, 8, 6, 5];
  DEMO_MEMBERS.forEach((m, mi) => {
    let streak = mi === 0 ? 0 : 4 + mi * 3;
    for (let d = 29; d >= 0; d--) {
      const day = addDays(lastDay, -d);
      const i = 29 - d;
      const base = 11 + mi;
      let contacts = Math.round(base + (rand() - 0.5) * 4);
      let praise = Math.round(3 + rand() * 4);
      let overtime = Math.round((1 + rand() * 1.5) * 10) / 10;
      if (mi === 0) {
        // Tanaka: steady, a best login streak of 15 in the first weeks, then a break; now 3 days.
        streak = i < 15 ? i + 1 : i < 27 ? Math.max(0, i - 20) : i - 26;
        if (d < 5) contacts = tanakaContacts[4 - d];
        else contacts = Math.round(12 + (rand() - 0.5) * 2);
        praise = d < 7 ? (d < 3 ? 0 : 1) : 4;
        if (d === 0) praise = 2;
        overtime = d < 7 ? 2.5 : 1.2;
      } else {
        streak = streak + 1;
      }
      const appointments = Math.max(0, Math.round(contacts * (0.25 + rand() * 0.1)));
      rows.push({ date: day, member_id: m.member_id, metric: 'contacts', value: contacts });
      rows.push({ date: day, member_id: m.member_id, metric: 'appointments', value: appointments });
      rows.push({ date: day, member_id: m.member_id, metric: 'login_streak', value: streak });
      rows.push({ date: day, member_id: m.member_id, metric: 'praise_count_last_7d', value: praise });
      rows.push({ date: day, member_id: m.member_id, metric: 'overtime_hours', value: overtime });
    }
  });
  return rows;
}

// The example request about 田中さん: what `kaigi run --demo` asks and what the tests start by default.
export function demoTrigger(): Trigger & { priority: 'HIGH' } {
  return {
    type: 'kpi_decline',
    source: 'watcher',
    target_user_id: 'tanaka',
    context: { metric: 'contacts', summary: '田中さんの連絡数が3日連続低下', previous: 12, current: 5 },
    priority: 'HIGH',
  };
}

// What each demo member responds to, hidden from the council (it reads only the KPI that follows): the action that
// lifts them out of a slump, and one that helps a little. 田中さん's data tell the story of lost recognition
// (praise fell 4 → 0–2 a week) and a broken habit (the login streak), so those are his.
const DEMO_HIDDEN: Readonly<Record<string, { best: string; second: string }>> = {
  tanaka: { best: 'PRAISE_INCREASE', second: 'MESSAGE_TIMING' },
  sato: { best: 'ONE_ON_ONE', second: 'PEER_SUPPORT' },
  suzuki: { best: 'SKILL_TRAINING', second: 'GOAL_ADJUSTMENT' },
  takahashi: { best: 'REST_RECOMMENDATION', second: 'ONE_ON_ONE' },
  ito: { best: 'PEER_SUPPORT', second: 'PRAISE_INCREASE' },
};

// A demo member's KPI on the `n`th day (from 1) after the orders were carried out: contacts climb back to their
// usual level in four days when the best action was done, to two thirds of the way with the second, and stay
// where they fell otherwise. Deterministic, so the demo's verdict is the same on every machine.
export function demoResponse(member: string, done: readonly string[], day: string, n: number): KpiRow[] {
  const hidden = DEMO_HIDDEN[member];
  if (!hidden) return [];
  const rand = rng(20260115 + n * 7919 + member.length);
  const from = 5;
  const usual = 12;
  const reach = done.indexOf(hidden.best) >= 0 ? 1 : done.indexOf(hidden.second) >= 0 ? 2 / 3 : 0;
  const level = from + (usual - from) * reach * Math.min(1, n / 4);
  const contacts = Math.max(0, Math.round(level + (rand() - 0.5) * 2));
  const row = (metric: string, value: number): KpiRow => ({ date: day, member_id: member, metric, value });
  return [
    row('contacts', contacts),
    row('appointments', Math.max(0, Math.round(contacts * 0.3))),
    row('login_streak', reach > 0 ? 3 + n : n <= 2 ? 3 + n : 0),
    row('praise_count_last_7d', done.indexOf('PRAISE_INCREASE') >= 0 ? Math.min(7, 2 + n) : 1),
    row('overtime_hours', done.indexOf('REST_RECOMMENDATION') >= 0 ? 1.4 : 2.4),
  ];
}
