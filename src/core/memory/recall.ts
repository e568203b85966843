// What an agent recalls before it speaks: the learnings and past cases nearest its situation, ranked by
// similarity, recency and confidence with the weights in Settings; unused learnings fade out.
import { EMPTY_MEMORY, type AgentMemory, type CaseContext, type Learning, parseCaseContext } from './memory.js';
import { topK, type Matrix } from './retrieval.js';
import type { Settings } from '../settings.js';
import { estimateTokens } from '../prompts/tokens.js';

const DAY = 86_400_000;

export interface RecallOptions {
  // Past cases per agent; learnings too when maxInjected is absent.
  k: number;
  // Learnings per agent at most (learning.max_injected), and the tokens they may take in its prompt
  // (learning.max_injected_tokens): the least relevant go first when the budget would be passed.
  maxInjected?: number;
  maxTokens?: number;
  minConfidence: number;
  weights: { similarity: number; recency: number; confidence: number };
  // Evidence loses half its weight in this many days: a team changes, and what worked a season ago may not now.
  halfLifeDays: number;
  now: number;
}

// A weight a person left out or mistyped counts 0 rather than turning every score into NaN.
function weightsOf(w: Record<string, unknown>): RecallOptions['weights'] {
  const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);
  return { similarity: n(w.similarity), recency: n(w.recency), confidence: n(w.confidence) };
}

export function recallOptionsOf(s: Settings, now: number): RecallOptions {
  return {
    k: s.number('retrieval.top_k'),
    maxInjected: s.number('learning.max_injected'),
    maxTokens: s.number('learning.max_injected_tokens'),
    minConfidence: s.number('retrieval.min_confidence'),
    weights: weightsOf(s.get('retrieval.weights')),
    halfLifeDays: s.number('retrieval.half_life_days'),
    now,
  };
}

// 1 for something learned now, ½ after one half-life; a row with no date counts as old as a half-life.
function recencyOf(l: Pick<Learning, 'created_at'>, o: Pick<RecallOptions, 'halfLifeDays' | 'now'>): number {
  const age = l.created_at ? Math.max(0, (o.now - l.created_at) / DAY) : o.halfLifeDays;
  return o.halfLifeDays > 0 ? 0.5 ** (age / o.halfLifeDays) : 1;
}

// A case whose context cell was edited into something that is not a case has no actions and no verdict: it is left
// out of retrieval (isCase) instead of failing every discussion that would recall it, and the daily review tells a
// person which rows they are (unreadableCases).
const NO_CASE: CaseContext = { discussion_id: '', decision_id: '', member: '', metric: '', actions: [], verdict: '' };

// Parsed once per row and context: retrieval tests every candidate row of every agent's recall against its case.
const parsed = new WeakMap<Learning, { text: string; c: CaseContext }>();

function caseOf(l: Learning): CaseContext {
  const hit = parsed.get(l);
  if (hit && hit.text === l.context) return hit.c;
  const c = parseCaseContext(l.context) ?? NO_CASE;
  parsed.set(l, { text: l.context, c });
  return c;
}

// The active case rows whose context cell holds no case.
export function unreadableCases(rows: readonly Learning[]): Learning[] {
  return rows.filter((l) => l.scope === 'case' && l.is_active && caseOf(l) === NO_CASE);
}

// The k best among the rows `allow` accepts: the nearest 4k by cosine, re-ranked by the weighted score.
function ranked(
  m: Matrix,
  q: Float32Array,
  byRow: Record<number, Learning>,
  k: number,
  o: RecallOptions,
  allow: (l: Learning) => boolean,
): { l: Learning; similarity: number; recency: number }[] {
  if (k <= 0) return [];
  const w = o.weights;
  return topK(m, q, k * 4, (row) => allow(byRow[row]))
    .map((h) => {
      const l = byRow[h.key];
      const recency = recencyOf(l, o);
      return {
        l,
        similarity: h.score,
        recency,
        score: w.similarity * h.score + w.recency * recency + w.confidence * l.confidence,
      };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

// The cases do not depend on the agent: when every agent of a discussion recalls from the same situation (the same
// query vector, rows and matrix), they are ranked once and the last ranking is handed to the next agent.
let lastCases: {
  rows: readonly Learning[];
  n: number;
  m: Matrix;
  q: Float32Array;
  exclude: string;
  subject: string;
  o: RecallOptions;
  cases: ReturnType<typeof ranked>;
} | null = null;

const sameOptions = (a: RecallOptions, b: RecallOptions) =>
  a.k === b.k &&
  a.minConfidence === b.minConfidence &&
  a.halfLifeDays === b.halfLifeDays &&
  a.now === b.now &&
  a.weights.similarity === b.weights.similarity &&
  a.weights.recency === b.weights.recency &&
  a.weights.confidence === b.weights.confidence;

// Past cases about the same person first (what worked for them says most), then the nearest about others.
function casesOf(
  rows: readonly Learning[],
  m: Matrix,
  q: Float32Array,
  byRow: Record<number, Learning>,
  exclude: string,
  o: RecallOptions,
  subject: string,
): ReturnType<typeof ranked> {
  const last = lastCases;
  if (
    last &&
    last.rows === rows &&
    last.n === rows.length &&
    last.m === m &&
    last.q === q &&
    last.exclude === exclude &&
    last.subject === subject &&
    sameOptions(last.o, o)
  )
    return last.cases;
  const isCase = (l: Learning) => {
    if (l.scope !== 'case' || !l.is_active) return false;
    const c = caseOf(l);
    // A case with no verdict yet, or an inconclusive one, says nothing about what works: it would only take a slot.
    return c.discussion_id !== exclude && c.verdict !== '' && c.verdict !== 'inconclusive';
  };
  const theirs = subject ? ranked(m, q, byRow, o.k, o, (l) => isCase(l) && caseOf(l).member === subject) : [];
  const cases = theirs.concat(
    ranked(m, q, byRow, o.k - theirs.length, o, (l) => isCase(l) && (!subject || caseOf(l).member !== subject)),
  );
  lastCases = { rows, n: rows.length, m, q, exclude, subject, o: { ...o, weights: { ...o.weights } }, cases };
  return cases;
}

// The most relevant learnings (the list comes most relevant first) whose prompt lines fit in `tokens`: the list is cut
// where the next one would pass the budget, so a less relevant short one never takes the place of a more relevant one.
function withinBudget<T extends { l: Learning }>(list: T[], tokens: number): T[] {
  let used = 0;
  for (let i = 0; i < list.length; i++) {
    const l = list[i].l;
    used += estimateTokens(JSON.stringify([l.scope, l.confidence, l.content]));
    if (used > tokens) return list.slice(0, i);
  }
  return list;
}

// Top-k active learnings for an agent (its own first, then shared) and top-k similar past cases with verdicts,
// those about `subject` (the discussion's member) first.
// `m` holds the embeddings of `rows` (keys are their row numbers); `q` is the situation's embedding.
export function recall(
  rows: readonly Learning[],
  m: Matrix,
  q: Float32Array,
  agent: string,
  exclude: string,
  o: RecallOptions,
  subject = '',
): Pick<AgentMemory, 'learnings' | 'cases'> {
  if (!rows.length || o.k <= 0) return { learnings: EMPTY_MEMORY.learnings, cases: EMPTY_MEMORY.cases };
  const byRow: Record<number, Learning> = {};
  for (const l of rows) byRow[l.row] = l;
  const usable = (l: Learning) => l.is_active && l.confidence >= o.minConfidence;
  const n = o.maxInjected ?? o.k;
  const own = ranked(m, q, byRow, n, o, (l) => l.scope === 'individual' && l.agent_id === agent && usable(l));
  const shared = ranked(m, q, byRow, Math.max(0, n - own.length), o, (l) => l.scope === 'shared' && usable(l));
  const cases = casesOf(rows, m, q, byRow, exclude, o, subject);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    learnings: withinBudget(own.concat(shared), o.maxTokens ?? Infinity).map(({ l }) => ({
      id: l.learning_id,
      scope: l.scope,
      content: l.content,
      confidence: l.confidence,
    })),
    cases: cases.map(({ l, similarity, recency }) => {
      const c = caseOf(l);
      return {
        id: l.learning_id,
        content: l.content,
        // A copy: the parsed case is cached for the rest of the execution.
        actions: c.actions.slice(),
        verdict: c.verdict,
        similarity: r3(similarity),
        recency: r3(recency),
        member: c.member,
      };
    }),
  };
}

// Learnings nobody has used for `days` (since their last use, else since they were written) leave retrieval: they
// are deactivated, kept, and audited. Cases are the record of past decisions and only lose weight
// with age (recencyOf); a day count of 0 turns the decay off.
export function decayed(rows: readonly Learning[], now: number, days: number): Learning[] {
  if (days <= 0) return [];
  return rows.filter((l) => {
    if (l.scope === 'case' || !l.is_active) return false;
    const last = l.last_applied_at || l.created_at;
    return !!last && now - last >= days * DAY;
  });
}
