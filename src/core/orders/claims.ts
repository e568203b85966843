// Claims checked by code: what an opinion says a metric did ("overtime is up", "contacts 7d: 12 → 5 (down)"), read
// from its text, and what the KPI data says the metric did over the same days. A claim the data contradicts is
// marked on the message, shown beside it and to the decider, and costs the opinion computed confidence.
import { mean, series } from './kpi.js';
import type { MetricDef } from './metric-table.js';
import type { KpiRow } from '../types.js';

export type Direction = 'up' | 'down' | 'flat';

export interface Claim {
  metric: string;
  direction: Direction;
  // The days the claim is about: the latest `window` days against the `window` days before them.
  window: number;
  text: string;
}

export interface CheckedClaim extends Claim {
  actual: Direction;
  from: number;
  to: number;
}

// A change under this share of the earlier mean is "flat": a claim of up or down needs more than noise.
const FLAT_SHARE = 0.05;
const DEFAULT_WINDOW = 7;

// The structured form every evidence item may take, and the rules write: `metric 7d: 12 → 5 (down)`.
const STRUCTURED = /([a-z][a-z0-9_]*)\s+(\d{1,2})d:\s*(-?[\d.]+)\s*(?:→|->)\s*(-?[\d.]+)\s*\((up|down|flat)\)/i;

const WORDS: Record<Direction, RegExp> = {
  up: /\b(up|rose|risen|rising|rises|increas(e|ed|es|ing)|higher|grew|grown|growing|climb(ed|ing|s)?|jump(ed|s)?|spik(e|ed))\b|増加|増え|上昇|伸び|高ま|急増/i,
  down: /\b(down|fell|fallen|falling|falls|drop(ped|ping|s)?|decreas(e|ed|es|ing)|declin(e|ed|es|ing)|lower|shrank|plung(e|ed))\b|減少|減っ|低下|下落|落ち|急減/i,
  flat: /\b(flat|unchanged|steady|stable|held)\b|横ばい|変わらず|変化なし|横這い/i,
};
// A sentence that denies a change claims none ("no sign that overtime rose").
const NEGATION = /\b(no|not|never|without|nor|n't)\b|ない|なし|ず[、。]|ません/i;

// The words a metric is mentioned by: its name, its name in words, its labels, and its first word (overtime, login).
function namesOf(m: Pick<MetricDef, 'name' | 'label_ja' | 'label_en'>): string[] {
  const words = m.name.replace(/_/g, ' ');
  return [m.name, words, m.label_en, m.label_ja, words.split(' ')[0]]
    .map((x) => x.trim().toLowerCase())
    .filter((x, i, all) => x.length >= 2 && all.indexOf(x) === i);
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.。!?！？;；])\s*|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

// The claims a text makes about the table's metrics: structured items first, then sentences naming exactly one
// metric and exactly one direction (a sentence naming two, or none, or denying a change, claims nothing checkable).
export function claimsIn(text: string, table: readonly Pick<MetricDef, 'name' | 'label_ja' | 'label_en'>[]): Claim[] {
  const out: Claim[] = [];
  const known = new Set(table.map((m) => m.name));
  let rest = text;
  const structured = new RegExp(STRUCTURED.source, 'gi');
  for (let m = structured.exec(text); m; m = structured.exec(text)) {
    const metric = m[1].toLowerCase();
    if (!known.has(metric)) continue;
    out.push({
      metric,
      direction: m[5].toLowerCase() as Direction,
      window: Number(m[2]) || DEFAULT_WINDOW,
      text: m[0],
    });
    rest = rest.replace(m[0], ' ');
  }
  // Each metric's names once per text, not once per sentence: a round reads every answer's texts.
  const named = table.map((m) => ({ m, names: namesOf(m) }));
  for (const s of sentences(rest)) {
    if (NEGATION.test(s)) continue;
    const low = s.toLowerCase();
    const metrics = named.filter((x) => x.names.some((n) => mentions(low, n))).map((x) => x.m);
    const dirs = (Object.keys(WORDS) as Direction[]).filter((d) => WORDS[d].test(s));
    if (metrics.length !== 1 || dirs.length !== 1) continue;
    out.push({ metric: metrics[0].name, direction: dirs[0], window: DEFAULT_WINDOW, text: s.slice(0, 200) });
  }
  return out;
}

// A name as a word (Latin names need word edges: "contacts" is not in "contactsless"; Japanese has no spaces).
function mentions(text: string, name: string): boolean {
  if (!/^[\x20-\x7e]+$/.test(name)) return text.indexOf(name) >= 0;
  const at = text.indexOf(name);
  if (at < 0) return false;
  const before = at === 0 ? '' : text[at - 1];
  const after = text[at + name.length] ?? '';
  return !/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after);
}

// What the member's data says the metric did: the mean of the latest `window` days with data against the mean of
// the `window` before them; null with too few points on either side to say.
export function actualDirection(
  kpi: readonly KpiRow[],
  member: string,
  metric: string,
  window: number,
): { direction: Direction; from: number; to: number } | null {
  const s = series(kpi, member, metric);
  const recent = s.slice(-window);
  const before = s.slice(-2 * window, -window);
  if (recent.length < 2 || before.length < 2) return null;
  const from = mean(before.map((p) => p.value));
  const to = mean(recent.map((p) => p.value));
  const share = from === 0 ? (to === 0 ? 0 : Math.sign(to)) : (to - from) / Math.abs(from);
  const direction: Direction = share > FLAT_SHARE ? 'up' : share < -FLAT_SHARE ? 'down' : 'flat';
  const r = (x: number) => Math.round(x * 100) / 100;
  return { direction, from: r(from), to: r(to) };
}

// The claims of a text that the data contradicts: a direction other than the one the data shows (a change claimed
// where it is flat, flat claimed where it moved, or the wrong way).
export function contradictions(
  text: string,
  kpi: readonly KpiRow[],
  member: string,
  table: readonly Pick<MetricDef, 'name' | 'label_ja' | 'label_en'>[],
): CheckedClaim[] {
  const out: CheckedClaim[] = [];
  for (const c of claimsIn(text, table)) {
    const a = actualDirection(kpi, member, c.metric, c.window);
    if (a && a.direction !== c.direction) out.push({ ...c, actual: a.direction, from: a.from, to: a.to });
  }
  return out;
}

// Every text of an answer, nested ones too (an opinion's analysis, evidence, hypothesis and recommendation): what its
// claims are read from.
export function textsOf(v: unknown, depth = 0): string[] {
  if (depth > 5) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap((x) => textsOf(x, depth + 1));
  if (v && typeof v === 'object')
    return Object.values(v as Record<string, unknown>).flatMap((x) => textsOf(x, depth + 1));
  return [];
}
