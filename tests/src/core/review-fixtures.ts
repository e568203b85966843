// Shared data for the review plan's tests: a decided discussion, its KPI windows, memory and counters.
import { addDays } from '../../../src/core/discussion/ids.js';
import type { Learning } from '../../../src/core/memory/memory.js';
import { milestoneRuleOf } from '../../../src/core/memory/inbox-reports.js';
import { thresholdsOf } from '../../../src/core/memory/outcomes.js';
import { Settings } from '../../../src/core/settings.js';
import { learningRulesOf, newLearnings } from '../../../src/core/memory/review-learnings.js';
import type { TabKey } from '../../../sheets-schema/index.js';
import type { ReviewOp, SeqName } from '../../../src/core/memory/review-ops.js';
import {
  assessReview,
  type Assessment,
  type ReviewMemory,
  type ReviewWorld,
} from '../../../src/core/memory/review-plan.js';
import type { Discussion, KpiRow } from '../../../src/core/types.js';
import { DISC, newDiscussion, runToRest, testEnv, TODAY } from './env.js';

export const DEC = `DEC-${TODAY}-001`;
export const REVIEW = addDays(TODAY, 7);
const NOW = Date.parse(`${REVIEW}T00:30:00.000Z`);
export const AT = new Date(NOW);
const SETTINGS = new Settings({});
export const T = thresholdsOf(SETTINGS);
const RULES = learningRulesOf(SETTINGS);
const MILESTONE = milestoneRuleOf(SETTINGS);
export const SITUATION = 'kpi_decline tanaka contacts';
// The same situation as a learning states it to a person (memory.ts situationPhrase): the metric and the trigger type by
// their labels (the member by id here: the core review is given no names).
export const SITUATION_JA = 'tanakaの連絡数（KPI の低下）';
export const SPEAKERS = [
  'analyst',
  'psychology',
  'neuroscience',
  'coaching',
  'sales_strategy',
  'behavioral_econ',
  'organization',
  'wellbeing',
  'positive',
  'devils_advocate',
  'human_view',
  'ethics',
  'legal',
  'decider',
];

// The rule-based council decides GOAL_ADJUSTMENT for tanaka's contacts, review in 7 days (+20 %, 7-day windows).
// Analyst's and coaching's opinions carry the learnings they were given.
function decided(): Discussion {
  const d = runToRest(newDiscussion(), testEnv({ lang: 'ja' })).d;
  const given: Record<string, string[]> = { analyst: ['LRN-1', 'LRN-3'], coaching: ['LRN-2'] };
  return {
    ...d,
    messages: d.messages.map((m) =>
      m.message_type === 'SPECIALIST_OPINION' && given[m.speaker]
        ? { ...m, metadata: { ...m.metadata, learnings: given[m.speaker] } }
        : m,
    ),
  };
}
export const D = decided();

// Seven days of contacts before the decision at `before`, and `after` for the days up to the review.
export function kpi(before: number, after: number, afterDays = 7): KpiRow[] {
  const rows: KpiRow[] = [];
  for (let i = 1; i <= 7; i++)
    rows.push({ date: addDays(TODAY, -i), member_id: 'tanaka', metric: 'contacts', value: before });
  for (let i = 1; i <= afterDays; i++)
    rows.push({ date: addDays(TODAY, i), member_id: 'tanaka', metric: 'contacts', value: after });
  // Another member and another metric never count.
  rows.push({ date: addDays(TODAY, 1), member_id: 'sato', metric: 'contacts', value: 100 });
  rows.push({ date: addDays(TODAY, 1), member_id: 'tanaka', metric: 'calls', value: 100 });
  return rows;
}

export const DUE = {
  decision_id: DEC,
  discussion_id: DISC,
  orders: [{ row: 7, order_id: `${DEC}-A1`, status: 'PENDING' }],
};

export function assessed(rows: KpiRow[]): Assessment {
  const a = assessReview(DUE, D, 12, rows, T);
  if (!a) throw new Error('not assessed');
  return a;
}

function learning(over: Partial<Learning> & Pick<Learning, 'row' | 'learning_id'>): Learning {
  return {
    scope: 'individual',
    agent_id: 'analyst',
    category: 'GOAL_ADJUSTMENT',
    content: 'c',
    context: '',
    confidence: 0.5,
    times_applied: 1,
    times_successful: 0,
    is_active: true,
    source: 'OUT-1 rules',
    embedding: 'E',
    embedding_model: 'kaigi-ngram-v1:256',
    ...over,
  };
}

export const CASE_CTX = {
  discussion_id: DISC,
  decision_id: DEC,
  member: 'tanaka',
  metric: 'contacts',
  actions: ['GOAL_ADJUSTMENT'],
};

export function memory(): ReviewMemory {
  return {
    learnings: [
      learning({ row: 2, learning_id: 'LRN-1' }),
      learning({
        row: 3,
        learning_id: 'LRN-2',
        agent_id: 'coaching',
        confidence: 0.7,
        times_applied: 12,
        times_successful: 9,
      }),
      learning({ row: 4, learning_id: 'LRN-3', confidence: 0.22 }),
      learning({ row: 5, learning_id: 'LRN-4', agent_id: 'psychology' }),
      learning({
        row: 6,
        learning_id: 'LRN-5',
        scope: 'case',
        agent_id: '',
        context: JSON.stringify({ ...CASE_CTX, verdict: '' }),
      }),
      learning({
        row: 8,
        learning_id: 'LRN-6',
        scope: 'case',
        agent_id: '',
        context: JSON.stringify({ ...CASE_CTX, decision_id: 'DEC-2026-01-01-001', verdict: '' }),
      }),
      learning({ row: 9, learning_id: 'LRN-7', scope: 'case', agent_id: '', context: 'not json' }),
    ],
    properties: {
      agentStats: { analyst: { hits: 2, misses: 1, brier: 0.5, n: 3 } },
      reflectionHistory: {
        analyst: [
          { self_score: 7, to_improve: 'z' },
          { self_score: 8, to_improve: 'a' },
          { self_score: 8, to_improve: 'b' },
          { self_score: 9, to_improve: 'c' },
          { self_score: 8, to_improve: 'd' },
        ],
        psychology: [
          { self_score: 9, to_improve: 'a' },
          { self_score: 8, to_improve: 'b' },
        ],
      },
      nextActions: { analyst: ['x', 'y'] },
      flipStats: { decisions: 4, flips: 1, flips_confirmed: 0, flips_rejected: 1, kept_confirmed: 2, kept_rejected: 0 },
    },
  };
}

// Counters as a commit keeps them: the next number of each sequence.
export function world(start: Partial<Record<SeqName, number>> = {}): ReviewWorld {
  const counters: Record<SeqName, number> = { outcome: 3, learning: 10, reflection: 20, inbox: 0, ...start };
  return {
    rules: RULES,
    lang: 'ja',
    now: NOW,
    embeddingModel: 'kaigi-ngram-v1:256',
    next: (n) => ++counters[n],
    milestone: MILESTONE,
  };
}

export function withEmbeddings(a: Assessment) {
  const learned = newLearnings(a, 'ja', null);
  return { ...learned, embeddings: learned.items.map((_, i) => `E${i}`) };
}

// A compact line per op, to assert the whole order of a commit at once.
export function shape(ops: ReviewOp[]): string[] {
  return ops.map((o) =>
    o.kind === 'audit'
      ? `audit ${o.event} ${o.row_key}`
      : `${o.at} ${o.tab}:${o.row} ${o.audit.event} ${o.audit.row_key}`,
  );
}

export type WriteTo<K extends TabKey> = Extract<ReviewOp, { kind: 'write'; tab: K }>;

export function writes<K extends TabKey>(ops: ReviewOp[], tab: K): WriteTo<K>[] {
  return ops.filter((o): o is WriteTo<K> => o.kind === 'write' && o.tab === tab);
}
