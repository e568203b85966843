// Helpers the rule-based agents share: localised text, rounding, allowed actions and the opinions so far.
import type { ContentOf, Message } from '../messages.js';
import type { AgentContext } from '../provider.js';

export type L = (ja: string, en: string) => string;
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
