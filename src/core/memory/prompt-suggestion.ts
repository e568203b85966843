// A prompt-improvement suggestion: when an agent's self-score falls while it keeps raising the same point to improve,
// the review proposes one line built from that point under one named section of its active prompt; the line becomes
// part of a prompt only when a coordinator accepts it.
//
// The Inbox row is all a suggestion keeps: its body ends with the section's heading and the line ("+ …"), in that
// fixed form whatever the language, so accepting it recomputes the same new text from the row alone. A point to
// improve may be a model's words: it is flattened to one plain line (it cannot open a heading or forge the two lines
// the row is read back from), shown as text, and never followed.
import { inboxOp, type ItemWorld } from './inbox-reports.js';
import type { ReflectionHistory } from './reflection-history.js';
import type { ReviewOp } from './review-ops.js';
import type { InboxItem, PromptRow } from '../types.js';

// The active prompt of an agent in the council's language, as the review sees it.
export interface ActivePrompt {
  version: number;
  text: string;
}

export interface Suggestion {
  // The heading line the suggestion adds under ("# Decision criteria"); a new section when the prompt has none.
  section: string;
  line: string;
}

// A suggestion read back from its Inbox row: the language of the prompt it is for, too.
export interface StoredSuggestion extends Suggestion {
  lang: 'ja' | 'en';
}

// A point is cut to this many characters: one line of a prompt, far inside a cell's limit.
const POINT_CHARS = 200;
const HEADING = /^#{1,6}\s/;

// The self-score fell: the last three reflections each scored no higher than the one before, and the last is at
// least `drop` points below the first of them. `drop` 0 (or less) turns suggestions off.
export function selfScoreFell(scores: readonly number[], drop: number): boolean {
  if (!(drop > 0) || scores.length < 3) return false;
  const [a, b, c] = scores.slice(-3);
  return b <= a && c <= b && a - c >= drop;
}

// A point to improve as one plain line: its first non-empty line, spaces collapsed, no leading marks.
export function plainPoint(text: string): string {
  const first = String(text ?? '')
    .split(/\r\n?|\n/)
    .map((l) => l.replace(/[\s\p{Cc}]+/gu, ' ').trim())
    .find((l) => l !== '');
  return (first ?? '')
    .replace(/^[#+\-*>\s]+/, '')
    .slice(0, POINT_CHARS)
    .trim();
}

// The line a point becomes in a prompt, by language: its opening words also tell which language's prompt a stored
// suggestion is for.
const LEAD = { ja: '- 助言の前に確かめる：', en: '- Before advising, check: ' } as const;

export function suggestionLine(point: string, lang: 'ja' | 'en'): string {
  return LEAD[lang] + point;
}

// Where a line about how to judge belongs: the prompt's decision-criteria section, else a section of points to
// improve (one an earlier suggestion opened), else a new one of those at the end.
export function sectionFor(text: string, lang: 'ja' | 'en'): string {
  const headings = text.split(/\r\n?|\n/).filter((l) => HEADING.test(l));
  const named = (words: string[]) => headings.find((h) => words.some((w) => h.toLowerCase().indexOf(w) >= 0));
  return (
    named(['判断基準', 'criteria']) ??
    named(['改善点', 'points to improve']) ??
    (lang === 'ja' ? '# 改善点' : '# Points to improve')
  );
}

// The prompt with the suggestion's line at the end of its section (before the blank lines that close it), or, when
// the prompt has no such heading, a new section at the end. A line already in the section changes nothing.
export function applySuggestion(text: string, s: Suggestion): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const at = lines.findIndex((l) => l.trim() === s.section.trim());
  if (at < 0) return `${text.replace(/\s+$/, '')}\n\n${s.section}\n${s.line}`;
  let end = at + 1;
  while (end < lines.length && !HEADING.test(lines[end])) end++;
  if (lines.slice(at + 1, end).some((l) => l.trim() === s.line.trim())) return text;
  while (end > at + 1 && lines[end - 1].trim() === '') end--;
  return lines.slice(0, end).concat([s.line], lines.slice(end)).join('\n');
}

// The section and line a suggestion's Inbox body ends with; null for any other body.
export function parseSuggestion(body: string): StoredSuggestion | null {
  const lines = String(body ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(/\n+$/, '')
    .split('\n');
  if (lines.length < 2) return null;
  const last = lines[lines.length - 1];
  const section = lines[lines.length - 2];
  if (!last.startsWith('+ ') || !HEADING.test(section)) return null;
  const line = last.slice(2);
  const lang = line.startsWith(LEAD.ja) ? 'ja' : line.startsWith(LEAD.en) ? 'en' : null;
  return lang && line.length > LEAD[lang].length ? { section, line, lang } : null;
}

function headingWords(section: string): string {
  return section.replace(/^#+\s*/, '');
}

type Entries = readonly { self_score: number; to_improve: string }[];

// A suggestion is called for when the self-score fell and the latest point to improve is one the agent raised
// before within its last three reflections (the history keeps each point's key): a point it keeps raising while it
// does worse is worth a line in its prompt; one bad verdict with a new point is not.
export function callsForSuggestion(h: Entries, drop: number): boolean {
  const last = h.slice(-3);
  const key = last.length ? last[last.length - 1].to_improve : '';
  const repeated = key !== '' && last.slice(0, -1).some((e) => e.to_improve === key);
  return (
    repeated &&
    selfScoreFell(
      h.map((e) => e.self_score),
      drop,
    )
  );
}

// The Inbox proposal from `agent` when a suggestion has just become called for (it was not before this reflection)
// and the point's line is not in its active prompt already; null otherwise.
export function suggestionItem(
  agent: string,
  history: { before: Entries; after: Entries },
  toImprove: string,
  prompt: ActivePrompt | undefined,
  drop: number,
  discussionId: string,
  w: ItemWorld,
): { inbox: InboxItem; op: ReviewOp } | null {
  if (!prompt || !callsForSuggestion(history.after, drop) || callsForSuggestion(history.before, drop)) return null;
  const point = plainPoint(toImprove);
  if (!point) return null;
  const s: Suggestion = { section: sectionFor(prompt.text, w.lang), line: suggestionLine(point, w.lang) };
  if (applySuggestion(prompt.text, s) === prompt.text) return null;
  const fell = history.after
    .slice(-3)
    .map((e) => e.self_score)
    .join(' → ');
  const where = headingWords(s.section);
  const isNew = prompt.text.split(/\r\n?|\n/).every((l) => l.trim() !== s.section.trim());
  const body =
    w.lang === 'ja'
      ? `自己評価が下がりました（${fell}）。繰り返し挙がった改善点は「${point}」です。プロンプト v${prompt.version} の「${where}」の節${isNew ? 'を新しく作り、' : 'に'}次の 1 行を加えることを提案します。承認されると新しい版になります。`
      : `My self-score fell (${fell}). The point my reviews raise is "${point}". I suggest adding this line to the "${where}" section${isNew ? ' (a new one)' : ''} of prompt v${prompt.version}; accepted, it becomes a new version.`;
  const inbox: InboxItem = {
    inbox_id: `INB-${w.next('inbox')}`,
    from_agent: agent,
    type: 'proposal',
    priority: 'normal',
    title: w.lang === 'ja' ? `プロンプトの改善提案（${where}）` : `Prompt suggestion (${where})`,
    body: `${body}\n${s.section}\n+ ${s.line}`,
    discussion_id: discussionId,
  };
  const op = inboxOp(inbox, w, {
    title: inbox.title,
    prompt_version: prompt.version,
    section: s.section,
    line: s.line,
  });
  return { inbox, op };
}

// What the review needs to suggest: each agent's active prompt in the council's language, and the fall that calls
// for a suggestion (Settings learning.prompt_suggest_drop).
export interface SuggestWorld {
  prompts: Record<string, ActivePrompt>;
  drop: number;
}

// The suggest world from the Prompts rows: each agent's active prompt in `lang`.
export function suggestWorldOf(prompts: readonly PromptRow[], lang: 'ja' | 'en', drop: number): SuggestWorld {
  const active: Record<string, ActivePrompt> = {};
  for (const p of prompts)
    if (p.active && p.language === lang) active[p.agent_id] = { version: p.version, text: p.text };
  return { prompts: active, drop };
}

// The suggestions one decision's reflections call for, from each agent's history before and after them.
export function suggestionOps(
  reflections: readonly { agent_id: string; to_improve: string }[],
  history: { before: ReflectionHistory; after: ReflectionHistory },
  discussionId: string,
  w: ItemWorld & { suggest?: SuggestWorld },
): ReviewOp[] {
  const sw = w.suggest;
  if (!sw) return [];
  return reflections.flatMap((r) => {
    const item = suggestionItem(
      r.agent_id,
      { before: history.before[r.agent_id] ?? [], after: history.after[r.agent_id] ?? [] },
      r.to_improve,
      sw.prompts[r.agent_id],
      sw.drop,
      discussionId,
      w,
    );
    return item ? [item.op] : [];
  });
}
