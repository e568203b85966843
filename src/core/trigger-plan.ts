// Decides which project triggers setup() keeps, deletes or creates, and which account owns them (one set only).
import type { Lang } from './i18n.js';

export interface TriggerInfo {
  id: string;
  handler: string;
  eventType: string;
}

export interface WantedTrigger {
  handler: string;
  kind: 'everyMinutes' | 'daily' | 'onEdit' | 'onChange';
  value: number;
}

// One-shot triggers that only nudge the queue sooner; setup clears spent ones.
export const NUDGE_HANDLER = 'tickSoon';
export const BACKSTOP_HANDLER = 'tick';

// The only intervals ScriptApp's everyMinutes() accepts.
const ALLOWED_MINUTES: readonly number[] = [1, 5, 10, 15, 30];
const DEFAULT_BACKSTOP_MINUTES = 10;

// The backstop tick only catches what the one-shot nudge missed (a lost trigger, a lease that ran out), so it runs
// every few minutes, not every minute (a time-driven trigger's runtime counts against the daily quota). A Settings
// value between the allowed ones rounds down, so the backstop never comes later than a person asked for.
export function backstopMinutes(setting: number): number {
  let best = ALLOWED_MINUTES[0];
  for (const m of ALLOWED_MINUTES) if (m <= setting) best = m;
  return best;
}

export function wantedTriggers(backstop = DEFAULT_BACKSTOP_MINUTES): WantedTrigger[] {
  return [
    { handler: BACKSTOP_HANDLER, kind: 'everyMinutes', value: backstopMinutes(backstop) },
    { handler: 'dailyReview', kind: 'daily', value: 6 },
    { handler: 'dailyWatch', kind: 'daily', value: 7 },
    { handler: 'onConfigEdit', kind: 'onEdit', value: 0 },
    // onEdit misses rows inserted or removed: the change trigger sees them.
    { handler: 'onConfigChange', kind: 'onChange', value: 0 },
  ];
}

// The recurring workers: what one account owns. A nudge (tickSoon) may belong to any editor who enqueued work.
export const WORKER_HANDLERS: readonly string[] = wantedTriggers().map((t) => t.handler);
export const KAIGI_HANDLERS: readonly string[] = [...WORKER_HANDLERS, NUDGE_HANDLER];

// The event type ScriptApp reports for a trigger of each kind.
export const EVENT_TYPES: Record<WantedTrigger['kind'], string> = {
  everyMinutes: 'CLOCK',
  daily: 'CLOCK',
  onEdit: 'ON_EDIT',
  onChange: 'ON_CHANGE',
};

export interface TriggerPlan {
  remove: string[];
  create: WantedTrigger[];
}

// `replace` names handlers whose existing triggers must go even when present (ScriptApp cannot tell a trigger's
// interval, so a changed backstop interval replaces the tick trigger).
export function planTriggers(
  existing: TriggerInfo[],
  wanted: readonly WantedTrigger[] = wantedTriggers(),
  replace: readonly string[] = [],
): TriggerPlan {
  const remove: string[] = [];
  const create: WantedTrigger[] = [];
  for (const w of wanted) {
    const same = existing.filter((t) => t.handler === w.handler && t.eventType === EVENT_TYPES[w.kind]);
    const replacing = replace.indexOf(w.handler) >= 0;
    if (same.length === 0 || replacing) create.push(w);
    for (const extra of same.slice(replacing ? 0 : 1)) remove.push(extra.id);
  }
  return { remove, create };
}

// ---- who owns the workers ----------------------------------------------------------------------
//
// Apps Script's installable triggers belong to the account that created them, and each account sees only its own
// triggers. If every editor who ran setup() got a set, every job would run once per editor and spend each one's
// quota. So one account owns the workers, named in a Script Property (PROPERTY_KEYS.workers) that every editor can
// read. Handing over:
//   1. The owner runs teardown() or handOverWorkers(): their Kaigi triggers are deleted and the claim released.
//      The next editor to run setup() (or takeOverWorkers()) claims the workers and gets the one set.
//   2. If the owner cannot (they left, lost access), another editor runs takeOverWorkers(): the claim moves to them
//      and they get a set. The old owner's triggers, which no one else can see or delete, retire themselves: each
//      backstop tick checks the claim (in the one Script Properties read it makes anyway) and a tick running as
//      someone else deletes its owner's worker triggers. Until then the queue's lock and leases keep the two sets
//      from doing the same work twice.

export interface WorkersClaim {
  owner: string;
  claimed_at: string;
  backstop_minutes: number;
}

export function parseClaim(raw: string | null | undefined): WorkersClaim | null {
  if (!raw) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    throw new Error(`The Script Property KAIGI_WORKERS is not JSON (${(e as Error).message}); fix or delete it.`);
  }
  const c = v as Partial<WorkersClaim> | null;
  if (!c || typeof c.owner !== 'string' || !c.owner)
    throw new Error('The Script Property KAIGI_WORKERS names no owner; fix or delete it.');
  return {
    owner: c.owner,
    claimed_at: String(c.claimed_at ?? ''),
    backstop_minutes: Number(c.backstop_minutes) || 0,
  };
}

export type WorkersDecision =
  // Nobody owns them (first setup, or released): this account claims them.
  | { kind: 'claim' }
  // This account owns them already.
  | { kind: 'mine'; claim: WorkersClaim }
  // Another account does: install nothing.
  | { kind: 'other'; claim: WorkersClaim };

export function decideWorkers(claim: WorkersClaim | null, me: string): WorkersDecision {
  if (!claim) return { kind: 'claim' };
  return claim.owner === me ? { kind: 'mine', claim } : { kind: 'other', claim };
}

// What the second editor is told, in the setup report and in setup's alert.
export function otherOwnerMessage(claim: WorkersClaim, me: string, lang: Lang): string {
  const since = claim.claimed_at ? ` (${claim.claimed_at})` : '';
  const who = me || (lang === 'ja' ? 'このアカウント' : 'this account');
  return lang === 'ja'
    ? `Kaigi のワーカー（時間主導トリガー）は ${claim.owner} が所有しています${since}。トリガーは作成したアカウントに属するため、` +
        `${who} には2組目を作りませんでした（作るとすべての処理が2回走ります）。引き継ぐには、${claim.owner} が ` +
        `Kaigi → handOverWorkers（または teardown）を実行してから、${who} で setup または takeOverWorkers を実行してください。` +
        `${claim.owner} が実行できない場合は takeOverWorkers を実行すると、古いトリガーは次の実行時に自ら削除されます。`
    : `Kaigi's workers (its time-driven triggers) belong to ${claim.owner}${since}. Triggers belong to the account that ` +
        `created them, so no second set was installed for ${who} (it would run every job twice). To hand them over, ` +
        `${claim.owner} runs handOverWorkers (or teardown), then ${who} runs setup or takeOverWorkers. If ` +
        `${claim.owner} cannot, run takeOverWorkers: the old triggers delete themselves the next time they run.`;
}
