// Answers that look like a real model's: schema-valid JSON with free text of the lengths models write, in the
// request's language, and the fields Kaigi checks later (days, metrics, action types, governance) kept sensible.
import { seededRandom } from './seeded-random.js';
import { LENGTH_PATTERN, type Json } from './model-wire.js';

// Characters a free-text field gets: long prose fields, and short ones (an evidence line, a target, a note).
export const LONG_TEXT = { min: 250, max: 450 };
export const SHORT_TEXT = { min: 40, max: 120 };

const LONG_KEYS = new Set([
  'summary',
  'analysis',
  'hypothesis',
  'description',
  'rationale',
  'viewpoint',
  'opportunity',
  'risk',
  'concern',
  'counter_proposal',
  'reality_check',
  'human_insight',
  'practical_suggestion',
  'notes',
  'answer',
  'reason',
  'alternative',
  'message',
  'content',
  'question',
  'opinion',
  'guidance',
]);

// How many items a model typically gives a list, within the schema's bounds.
const ITEMS: Record<string, [number, number]> = {
  evidence: [2, 4],
  consensus_points: [2, 3],
  conflicting_points: [1, 2],
  weight_assignment: [3, 6],
  votes: [2, 3],
  dissenting_opinions: [1, 2],
  selected_action_types: [1, 2],
  actions: [1, 2],
  data_points: [3, 5],
  concerns: [0, 1],
  success_criteria: [1, 1],
  metrics: [1, 2],
  target_agents: [1, 1],
  learnings: [1, 2],
  source_data: [1, 3],
  agents: [1, 3],
};

// Enum members a model answering a benign request gives (a governance check passes); other enums are drawn.
const PREFERRED: Record<string, string> = { check_result: 'PASS' };

const JA = {
  open: [
    '直近2週間の数値を見ると、',
    '過去30日間の推移から判断すると、',
    '本人の行動記録を確認したところ、',
    'チームの平均と比較すると、',
    '週次の面談記録によれば、',
    '最近の傾向としては、',
    '前月の同時期と比べると、',
    '担当顧客の状況を踏まえると、',
    '上長からの聞き取りでは、',
    'ログイン履歴を見る限り、',
  ],
  middle: [
    '接触件数が緩やかに減少しており',
    '商談化率はほぼ横ばいで推移しており',
    'ログインの連続日数が途切れがちで',
    '残業時間がやや増えている一方で',
    '称賛を受ける回数が先週から減っており',
    '午前中の活動量が目に見えて落ちており',
    '新規の訪問予定が以前より少なくなっており',
    '同僚とのやり取りが減っている様子で',
    '目標に対する進捗が遅れ気味で',
    '本人の自己評価は比較的高いものの',
  ],
  close: [
    '、早めに働きかけることが望ましいと考えます。',
    '、まず本人の負荷を確認する必要があります。',
    '、一時的な要因である可能性も残っています。',
    '、小さな成功体験を積める工夫が有効でしょう。',
    '、周囲の支援を得やすい環境づくりが鍵になります。',
    '、数値だけで判断せず背景を確かめるべきです。',
    '、次の一週間の変化を注意深く見守ります。',
    '、過度な介入は逆効果になるおそれがあります。',
  ],
};

const EN = {
  open: [
    'Over the last two weeks, ',
    'Looking at the past thirty days, ',
    "From the member's activity log, ",
    'Compared with the team average, ',
    'According to the weekly one-on-one notes, ',
    'As a recent trend, ',
    'Against the same period last month, ',
    "Given the state of the member's accounts, ",
    'From what the manager reported, ',
    'Judging by the login history, ',
  ],
  middle: [
    'contacts have been falling steadily',
    'the conversion rate has stayed flat',
    'the login streak keeps breaking',
    'overtime has crept up slightly',
    'praise received has dropped since last week',
    'morning activity has clearly declined',
    'fewer new visits are being scheduled',
    'exchanges with colleagues seem to have thinned',
    'progress against the goal is lagging',
    'self-assessment remains fairly high',
  ],
  close: [
    ', so an early, light intervention seems wise.',
    ', so the workload should be checked first.',
    ', though a temporary cause cannot be ruled out.',
    ', so small wins to build on would likely help.',
    ', and support from peers is probably the key.',
    ', so the numbers alone should not decide this.',
    ', and the next week deserves close watching.',
    ', while too much pressure could backfire.',
  ],
};

// Prose of exactly n characters (all in the BMP, so characters and code points agree) in the request's language.
export function prose(n: number, lang: 'ja' | 'en', r: () => number): string {
  const bank = lang === 'ja' ? JA : EN;
  const pick = (xs: string[]) => xs[Math.floor(r() * xs.length)];
  let out = '';
  while (out.length < n) out += `${pick(bank.open)}${pick(bank.middle)}${pick(bank.close)}${lang === 'en' ? ' ' : ''}`;
  return out
    .slice(0, n)
    .trimEnd()
    .padEnd(n, lang === 'ja' ? '。' : '.');
}

// What the request names: its language, the speakers of earlier messages and the KPI metrics it shows.
export interface RequestFacts {
  lang: 'ja' | 'en';
  speakers: string[];
  metrics: string[];
  // The "today" of the trigger block, or the real today.
  today: string;
  // The answer's length the task asks for, in characters (src/core/prompts/answer-lengths.ts: characters in
  // Japanese, words in English at six characters a word); absent when the prompt states none.
  target?: number;
}

export function factsOf(text: string): RequestFacts {
  const kana = (text.match(/[\u3040-\u30ff]/g) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  const speakers = [...new Set([...text.matchAll(/"speaker": ?"([a-z_]+)"/g)].map((m) => m[1]))];
  const metrics = [
    ...new Set([
      ...[...text.matchAll(/"metric": ?"([a-z_]+)"/g)].map((m) => m[1]),
      ...[...text.matchAll(/^\d{4}-\d{2}-\d{2},([a-z_]+),/gm)].map((m) => m[1]),
    ]),
  ];
  const today = /"today": ?"(\d{4}-\d{2}-\d{2})"/.exec(text)?.[1] ?? new Date().toISOString().slice(0, 10);
  const ja = /回答全体で約(\d+)字/.exec(text);
  const en = /Length: about (\d+) words in all/.exec(text);
  const target = ja ? Number(ja[1]) : en ? Number(en[1]) * 6 : undefined;
  // Prose in Japanese is mostly kana; a Japanese name or two in an English prompt is not.
  return { lang: kana * 8 > latin ? 'ja' : 'en', speakers, metrics, today, ...(target ? { target } : {}) };
}

function bounds(s: Json): { min: number; max: number } | null {
  const m = typeof s.pattern === 'string' ? LENGTH_PATTERN.exec(s.pattern) : null;
  if (s.pattern !== undefined && !m) return null;
  const min = Number(m ? m[1] : (s.minLength ?? 0));
  const maxText = m ? m[2] : s.maxLength;
  return { min, max: maxText === undefined || maxText === '' ? Number.POSITIVE_INFINITY : Number(maxText) };
}

const between = (lo: number, hi: number, r: () => number) => lo + Math.floor(r() * (hi - lo + 1));
const round2 = (x: number) => Math.round(x * 100) / 100;

// A mark put inside a text, where only a reader of the whole text finds it: ⟦mark <answer>.<n>⟧.
export const MARK = /⟦mark \d+\.\d+⟧/g;

class Writer {
  private marked = 0;
  // Characters of free text written so far.
  written = 0;
  constructor(
    private readonly facts: RequestFacts,
    private readonly r: () => number,
    // With an answer's number, every free text gets a mark in its middle (bench/decider-view.ts looks for them).
    private readonly markOf: number | null = null,
    // Each free text's length is scaled by this: a model writing to the length its task asks for.
    private readonly scale = 1,
  ) {}

  value(s: Json, key: string): any {
    if (!s) return null;
    if (s.anyOf) {
      const real = (s.anyOf as Json[]).filter((x) => x.type !== 'null');
      // A nullable field a model leaves empty now and then; an action type's own fields it fills when they apply.
      if (real.length < s.anyOf.length && this.r() < 0.1) return null;
      return this.value(real[Math.floor(this.r() * real.length)] ?? s.anyOf[0], key);
    }
    if (s.enum) return key in PREFERRED && s.enum.includes(PREFERRED[key]) ? PREFERRED[key] : this.pick(s.enum);
    switch (s.type) {
      case 'object': {
        const out: Json = {};
        const req: string[] = s.required ?? Object.keys(s.properties ?? {});
        for (const [k, p] of Object.entries((s.properties ?? {}) as Json))
          if (req.includes(k) || this.r() < 0.7) out[k] = this.value(p, k);
        return out;
      }
      case 'array':
        return this.array(s, key);
      case 'number':
      case 'integer':
        return this.number(s, key);
      case 'boolean':
        return this.r() < 0.5;
      case 'null':
        return null;
      default:
        return this.text(s, key);
    }
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }

  private array(s: Json, key: string): any[] {
    const [lo, hi] = ITEMS[key] ?? [1, 3];
    const min = Number(s.minItems ?? 0);
    const max = s.maxItems === undefined ? Number.POSITIVE_INFINITY : Number(s.maxItems);
    const n = Math.min(max, Math.max(min, between(lo, hi, this.r)));
    const item = s.items ?? {};
    // A list of enum members (action types) names each once, as far as the enum allows.
    if (item.enum) {
      const left = [...item.enum];
      return Array.from({ length: n }, () =>
        left.length ? left.splice(Math.floor(this.r() * left.length), 1)[0] : this.pick(item.enum),
      );
    }
    if (key === 'agents' || key === 'target_agents' || key === 'metrics') {
      const pool = key === 'metrics' ? this.metrics() : key === 'agents' ? this.speakers() : ['buddy'];
      return Array.from({ length: n }, (_, i) => pool[i % pool.length]);
    }
    return Array.from({ length: n }, () => this.value(item, key));
  }

  private number(s: Json, key: string): number {
    const lo = s.minimum === undefined ? (s.type === 'integer' ? 1 : 0) : Number(s.minimum);
    const hi = s.maximum === undefined ? (s.type === 'integer' ? Math.max(lo, 20) : lo + 1) : Number(s.maximum);
    const fixed: Record<string, number> = { review_in_days: 7, window_days: 7, duration_days: 7, increase_rate: 0.3 };
    const ranges: Record<string, [number, number]> = {
      confidence: [0.55, 0.85],
      target_change: [0.1, 0.3],
      value: [1, 20],
      score: [0.3, 3],
    };
    let x: number;
    if (key in fixed) x = fixed[key];
    else if (key in ranges) x = ranges[key][0] + this.r() * (ranges[key][1] - ranges[key][0]);
    else x = lo + this.r() * (hi - lo);
    x = Math.min(hi, Math.max(lo, x));
    return s.type === 'integer' ? Math.min(Math.floor(hi), Math.max(Math.ceil(lo), Math.round(x))) : round2(x);
  }

  private speakers(): string[] {
    return this.facts.speakers.length ? this.facts.speakers : ['psychology'];
  }

  private metrics(): string[] {
    return this.facts.metrics.length ? this.facts.metrics : ['contacts'];
  }

  // A field Kaigi reads as a name or a format gets such a value; a patterned one the first candidate its pattern
  // takes (a time, a date a week after the request's today); free text gets prose of a model's length.
  private text(s: Json, key: string): string {
    const b = bounds(s);
    const named: Record<string, () => string> = {
      agent_id: () => this.pick(this.speakers()),
      metric: () => this.metrics()[0],
      category: () => this.pick(['PRAISE_INCREASE', 'ONE_ON_ONE', 'REST_RECOMMENDATION']),
      time: () => '09:30',
      message_template: () => 'MORNING_ENCOURAGEMENT',
      status: () => 'ACKNOWLEDGED',
    };
    const week = new Date(Date.parse(this.facts.today) + 7 * 86_400_000).toISOString().slice(0, 10);
    const fits = (v: string) =>
      b ? v.length >= b.min && v.length <= b.max : new RegExp(String(s.pattern), 'u').test(v);
    if (named[key]) {
      const v = named[key]();
      if (fits(v)) return v;
    }
    if (!b) {
      const candidates = ['09:30', week, `DEC-${week}-001`, 'MORNING_ENCOURAGEMENT', 'ACKNOWLEDGED', 'x'];
      return candidates.find(fits) ?? candidates[0];
    }
    const want = LONG_KEYS.has(key) ? LONG_TEXT : SHORT_TEXT;
    const drawn = between(want.min, want.max, this.r);
    const n = Math.max(b.min, Math.min(b.max, Math.round(drawn * this.scale)));
    this.written += n;
    const text = prose(n, this.facts.lang, this.r);
    if (this.markOf === null || n < 40) return text;
    const mark = ` ⟦mark ${this.markOf}.${++this.marked}⟧ `;
    if (n + mark.length > b.max) return text;
    const mid = Math.floor(n / 2);
    return text.slice(0, mid) + mark + text.slice(mid);
  }
}

// A realistic answer to a plain JSON Schema (a Gemini schema converted first), the same for the same seed.
// A model told a length writes near it: its free text comes to 0.8–1.3 × the target (models overshoot more often than
// they fall short), the fields in the proportions it would have written anyway. Told none, it writes at its own length.
export function realisticAnswer(schema: Json, facts: RequestFacts, seed: number, markOf: number | null = null): any {
  let scale = 1;
  if (facts.target) {
    const first = new Writer(facts, seededRandom(seed));
    first.value(schema, '');
    const r = seededRandom(seed + 1)();
    if (first.written > 0) scale = Math.min(1, (facts.target * (0.8 + 0.5 * r)) / first.written);
  }
  const v = new Writer(facts, seededRandom(seed), markOf, scale).value(schema, '');
  // The decider's deliberation selects the action types its order carries, as a model's would.
  const actions = v?.order?.actions;
  if (Array.isArray(actions) && Array.isArray(v.deliberation?.selected_action_types))
    v.deliberation.selected_action_types = [...new Set(actions.map((a: Json) => a.action_type))];
  return v;
}
