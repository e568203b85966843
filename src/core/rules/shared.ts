// Helpers the rule-based agents share: localised text, rounding, allowed actions and the opinions so far.
import { label } from '../labels.js';
import type { Action, ContentOf, Message } from '../discussion/messages.js';
import type { Facts } from './facts.js';
import type { AgentContext } from '../provider.js';

export type L = (ja: string, en: string) => string;
// An action type by its label in the language the agent writes in (a rule-based text is read by a person).
export const named = (type: string, t: L) => t(label('action_type', type, 'ja'), label('action_type', type, 'en'));
export const round2 = (x: number) => Math.round(x * 100) / 100;

// Uses the first preferred action type that the allow-list permits, so rules never propose a banned action.
export function allowed(ctx: AgentContext, ...preferred: string[]): string {
  for (const p of preferred) if (ctx.allowList.indexOf(p) >= 0) return p;
  return ctx.allowList[0];
}

export function opinions(ctx: AgentContext): { speaker: string; c: ContentOf<'SPECIALIST_OPINION'> }[] {
  return ctx.earlier
    .filter((m: Message) => m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion)
    .map((m) => ({ speaker: m.speaker, c: m.content as ContentOf<'SPECIALIST_OPINION'> }));
}

// Praise more by the intensity: a fifth, a third, a half again (0.3 for a medium push).
const RATE = { low: 0.2, medium: 0.3, high: 0.5 } as const;

// The fields of an action of this type (src/core/discussion/messages.ts actionTypeFields), from the facts: the praise
// rate from the intensity, a goal halfway back from the current level to where the metric was, and the member's
// contact hour with a template for it. A type without such fields, or facts without the number, gives none.
export function typeFields(f: Facts, type: string, intensity: Action['intensity']): Partial<Action> {
  if (type === 'PRAISE_INCREASE') return { increase_rate: RATE[intensity] };
  if (type === 'GOAL_ADJUSTMENT' && f.change)
    return { new_goal: { metric: f.metric, value: round2(f.change.to + (f.change.from - f.change.to) / 2) } };
  if (type === 'MESSAGE_TIMING') {
    const time = /^([01]\d|2[0-3]):[0-5]\d$/.test(f.contactTime) ? f.contactTime : '09:30';
    const hour = Number(time.slice(0, 2));
    const template = hour < 12 ? 'MORNING_ENCOURAGEMENT' : hour < 18 ? 'AFTERNOON_CHECK_IN' : 'EVENING_THANKS';
    return { time, message_template: template };
  }
  return {};
}
