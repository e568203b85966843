// Decides which project triggers setup() keeps, deletes or creates, so repeated runs leave exactly one set.

export interface TriggerInfo {
  id: string;
  handler: string;
  eventType: string;
}

export interface WantedTrigger {
  handler: string;
  kind: 'everyMinutes' | 'daily' | 'onEdit';
  value: number;
}

// One-shot triggers that only nudge the queue sooner; setup clears spent ones.
export const NUDGE_HANDLER = 'tickSoon';

export const WANTED_TRIGGERS: readonly WantedTrigger[] = [
  { handler: 'tick', kind: 'everyMinutes', value: 1 },
  { handler: 'dailyReview', kind: 'daily', value: 6 },
  { handler: 'dailyWatch', kind: 'daily', value: 7 },
  { handler: 'onConfigEdit', kind: 'onEdit', value: 0 },
];

export const KAIGI_HANDLERS: readonly string[] = [...WANTED_TRIGGERS.map((t) => t.handler), NUDGE_HANDLER];

export interface TriggerPlan {
  remove: string[];
  create: WantedTrigger[];
}

export function planTriggers(existing: TriggerInfo[], wanted: readonly WantedTrigger[] = WANTED_TRIGGERS): TriggerPlan {
  const remove: string[] = [];
  const create: WantedTrigger[] = [];
  for (const w of wanted) {
    const same = existing.filter(
      (t) => t.handler === w.handler && t.eventType === (w.kind === 'onEdit' ? 'ON_EDIT' : 'CLOCK'),
    );
    if (same.length === 0) create.push(w);
    for (const extra of same.slice(1)) remove.push(extra.id);
  }
  return { remove, create };
}
