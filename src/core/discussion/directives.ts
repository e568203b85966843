// People's directives as the engine applies them: which reach a discussion, the actions they ban or prefer (applied
// by code on every provider), and the line that names them in the discussion's record.
import type { Discussion } from '../types.js';

export interface Directive {
  id: string;
  content: string;
  priority: string;
  // Agent ids, or 'all'.
  targets: string[];
  // Only discussions about this member; '' for every discussion.
  member: string;
  // Action types that never reach an order while the directive is in force, and those weighed up.
  ban: string[];
  prefer: string[];
}

// An action-type list as a cell holds it ("GOAL_ADJUSTMENT, PRAISE_INCREASE") or as an array; blanks dropped, each once.
export function actionList(v: unknown): string[] {
  const items = Array.isArray(v) ? v.map(String) : String(v ?? '').split(/[,\s]+/);
  return items.map((x) => x.trim()).filter((x, i, all) => x !== '' && all.indexOf(x) === i);
}

// The directives in force for a discussion: those for every member, and those for its member.
export function directivesFor(d: Pick<Discussion, 'trigger'>, all: readonly Directive[]): Directive[] {
  return all.filter((x) => !x.member || x.member === d.trigger.target_user_id);
}

// Those of them an agent receives as text: addressed to it, or to all.
export function directivesTo(agent: string, inForce: readonly Directive[]): Directive[] {
  return inForce.filter((x) => x.targets.indexOf('all') >= 0 || x.targets.indexOf(agent) >= 0);
}

// The allow-list less every banned action: what the council may order in this discussion.
export function allowedFor(allowList: readonly string[], inForce: readonly Directive[]): string[] {
  const banned = new Set(inForce.flatMap((x) => x.ban));
  return allowList.filter((a) => !banned.has(a));
}

export function preferredBy(inForce: readonly Directive[], allowList: readonly string[]): string[] {
  return actionList(inForce.flatMap((x) => x.prefer)).filter((a) => allowList.indexOf(a) >= 0);
}

// What a model reads of a directive: its text, then the lists code applies, so it is not surprised by them.
export function directiveText(x: Directive, lang: 'ja' | 'en'): string {
  const parts = [x.content];
  if (x.ban.length) parts.push(lang === 'ja' ? `（禁止: ${x.ban.join(', ')}）` : `(banned: ${x.ban.join(', ')})`);
  if (x.prefer.length)
    parts.push(lang === 'ja' ? `（優先: ${x.prefer.join(', ')}）` : `(preferred: ${x.prefer.join(', ')})`);
  return parts.join(' ');
}

// How the record's note of applied directives begins (the sidebar lists them from it).
export const APPLIED_NOTE = 'directives applied: ';

// The directives a decision applied by code (a ban or a preference in force), as the note the record keeps.
export function appliedNote(applied: readonly Directive[]): string {
  const one = (x: Directive) =>
    [x.id, x.ban.length ? `ban ${x.ban.join('+')}` : '', x.prefer.length ? `prefer ${x.prefer.join('+')}` : '']
      .filter(Boolean)
      .join(' ');
  return `${APPLIED_NOTE}${applied.map(one).join('; ')}`;
}
