// Learned trust: per agent, how often the action it recommended, when carried out, was
// confirmed — overall and per context (member, trigger type, action type) — and the reliability bins its stated
// confidence is recalibrated from; per member, what was tried and how it fared. Kept in one versioned property.
import { StateError } from '../errors.js';
import { hasOwn, parseStoredObject } from '../json-guard.js';
import { MAX_PROPERTY_BYTES, propertyBytes } from '../property-size.js';
import { BINS, binOf } from './isotonic.js';

// [confirmed, rejected]: the evidence of a Beta posterior.
type Tally = [number, number];

interface AgentTrust {
  all: Tally;
  // 'm:<member>', 't:<trigger type>', 'a:<action type>' → evidence in that context.
  ctx: Record<string, Tally>;
  // Stated confidence in BINS bins: [times right, times scored] (calibration.ts's sense of right).
  bins: Tally[];
}

export interface TrustState {
  v: typeof VERSION;
  agents: Record<string, AgentTrust>;
  // member → action type → [confirmed, rejected]: every order that carried the action, whoever recommended it.
  members: Record<string, Record<string, Tally>>;
}

const VERSION = 1;

export function emptyTrust(): TrustState {
  return { v: VERSION, agents: {}, members: {} };
}

const bad = (property: string, why: string) =>
  new StateError(`The Script Property ${property} is not learned trust Kaigi can read (${why}).`, 'invalid_trust');

const isTally = (x: unknown): x is Tally =>
  Array.isArray(x) && x.length === 2 && x.every((n) => typeof n === 'number' && n >= 0 && Number.isFinite(n));

// Reads the property. Empty is a council that has learned nothing yet; a value of another version is refused, never
// guessed at, since a reliability read wrongly would move every weight without a trace.
export function parseTrust(raw: string | null, property: string): TrustState {
  const o = parseStoredObject(raw, (why) => bad(property, why));
  if (!o) return emptyTrust();
  if (o.v !== VERSION) throw bad(property, `format ${String(o.v)}, this Kaigi reads ${VERSION}`);
  const agents = o.agents as Record<string, AgentTrust> | undefined;
  const members = o.members as Record<string, Record<string, unknown>> | undefined;
  if (!agents || typeof agents !== 'object' || !members || typeof members !== 'object')
    throw bad(property, 'agents or members missing');
  for (const [id, a] of Object.entries(agents)) {
    const ok =
      a &&
      isTally(a.all) &&
      Array.isArray(a.bins) &&
      a.bins.length === BINS &&
      a.bins.every(isTally) &&
      a.ctx &&
      typeof a.ctx === 'object' &&
      Object.values(a.ctx).every(isTally);
    if (!ok) throw bad(property, `agent ${id}`);
  }
  for (const [id, m] of Object.entries(members))
    if (!m || typeof m !== 'object' || !Object.values(m).every(isTally)) throw bad(property, `member ${id}`);
  return { v: VERSION, agents, members: members as TrustState['members'] };
}

const evidence = (t: Tally) => t[0] + t[1];

// The property's value, within one property's size: while it would not fit, the context with the least evidence
// is dropped (its agent's overall figure keeps what it taught), then the member with the least recorded.
export function trustValue(state: TrustState, property: string): string {
  const s = JSON.parse(JSON.stringify(state)) as TrustState;
  for (;;) {
    const value = JSON.stringify(s);
    if (propertyBytes(property, value) <= MAX_PROPERTY_BYTES) return value;
    let least: { agent: string; key: string; n: number } | null = null;
    for (const [agent, a] of Object.entries(s.agents))
      for (const [key, t] of Object.entries(a.ctx))
        if (key.startsWith('m:') && (!least || evidence(t) < least.n)) least = { agent, key, n: evidence(t) };
    if (least) {
      delete s.agents[least.agent].ctx[least.key];
      continue;
    }
    const member = Object.keys(s.members).sort(
      (x, y) => total(s.members[x]) - total(s.members[y]) || (x < y ? -1 : 1),
    )[0];
    if (member === undefined) throw bad(property, 'too large even without its contexts');
    delete s.members[member];
  }
}

const total = (m: Record<string, Tally>) => Object.values(m).reduce((a, t) => a + evidence(t), 0);

export interface TrustContext {
  member: string;
  trigger: string;
  action: string;
}

const contextKeys = (c: TrustContext) => [`m:${c.member}`, `t:${c.trigger}`, `a:${c.action}`];

// One specialist's opinion after a verdict. `carried` is whether its action was in the order; `right` is
// calibration's sense (carried and confirmed, or left out of a rejected order), scored at its stated confidence.
export interface TrustEvent extends TrustContext {
  agent: string;
  carried: boolean;
  confirmed: boolean;
  stated: number;
  right: boolean;
}

const add = (t: Tally, ok: boolean): Tally => (ok ? [t[0] + 1, t[1]] : [t[0], t[1] + 1]);

// The state after one conclusive verdict: a new copy, the old one untouched.
export function recordVerdict(
  state: TrustState,
  events: readonly TrustEvent[],
  member: string,
  carried: readonly string[],
  confirmed: boolean,
): TrustState {
  const s = JSON.parse(JSON.stringify(state)) as TrustState;
  for (const e of events) {
    const a = (s.agents[e.agent] ??= { all: [0, 0], ctx: {}, bins: Array.from({ length: BINS }, () => [0, 0]) });
    const b = binOf(e.stated);
    a.bins[b] = [a.bins[b][0] + (e.right ? 1 : 0), a.bins[b][1] + 1];
    if (!e.carried) continue;
    a.all = add(a.all, e.confirmed);
    for (const k of contextKeys(e)) a.ctx[k] = add(hasOwn(a.ctx, k) ? a.ctx[k] : [0, 0], e.confirmed);
  }
  // A member's record weighs recent verdicts most: each verdict discounts the earlier ones by RECORD_DECAY, so after
  // a member changes what works for them, the record follows within a few verdicts.
  const m = (s.members[member] ??= {});
  for (const x of Object.keys(m)) m[x] = [round2(m[x][0] * RECORD_DECAY), round2(m[x][1] * RECORD_DECAY)];
  for (const x of carried) m[x] = add(hasOwn(m, x) ? m[x] : [0, 0], confirmed);
  return s;
}

const RECORD_DECAY = 0.9;
const round2 = (x: number) => Math.round(x * 100) / 100;

// How many verdicts' worth the overall figure counts for as a context's prior: a context needs about this many of
// its own verdicts to move halfway from the agent's overall figure.
const PRIOR_STRENGTH = 4;

const clampP = (p: number) => Math.min(0.98, Math.max(0.02, p));
const logit = (p: number) => Math.log(clampP(p) / (1 - clampP(p)));

// The overall posterior mean: Beta(1 + confirmed, 1 + rejected), so an agent with no verdicts is 0.5.
export function overallReliability(state: TrustState, agent: string): number {
  const a = state.agents[agent];
  const t: Tally = a ? a.all : [0, 0];
  return (1 + t[0]) / (2 + evidence(t));
}

// The reliability of an agent's recommendation in one context. Each context's posterior starts from the agent's
// overall mean m with PRIOR_STRENGTH verdicts of weight (Beta(k·m + s, k·(1−m) + f)), so a new context is exactly
// the overall figure. The contexts are combined as independent evidence on the log-odds scale (each adds how far it
// moved from m), so a context with nothing to say changes nothing and a telling one is not averaged away.
export function reliabilityOf(state: TrustState, agent: string, c: TrustContext): number {
  const m = overallReliability(state, agent);
  const a = state.agents[agent];
  if (!a) return m;
  let z = logit(m);
  for (const k of contextKeys(c)) {
    if (!hasOwn(a.ctx, k)) continue;
    const t = a.ctx[k];
    z += logit((PRIOR_STRENGTH * m + t[0]) / (PRIOR_STRENGTH + evidence(t))) - logit(m);
  }
  return Math.round((1 / (1 + Math.exp(-z))) * 1000) / 1000;
}

// What was tried for a member and how it fared, as data for the decision: one line per action type tried, its
// counts weighted toward recent verdicts (RECORD_DECAY).
export interface MemberRecordLine {
  action_type: string;
  confirmed: number;
  rejected: number;
}

export function memberRecord(state: TrustState, member: string): MemberRecordLine[] {
  const m = hasOwn(state.members, member) ? state.members[member] : {};
  return Object.keys(m)
    .sort()
    .map((action_type) => ({ action_type, confirmed: m[action_type][0], rejected: m[action_type][1] }));
}

// The share of orders confirmed across the team (recent-weighted, Beta(1, 1) prior): what an action is measured
// against before a member's own record says otherwise.
export function teamRate(state: TrustState): number {
  let c = 0;
  let r = 0;
  for (const m of Object.values(state.members))
    for (const t of Object.values(m)) {
      c += t[0];
      r += t[1];
    }
  return round2((1 + c) / (2 + c + r));
}

// How much better (or worse) than the team's usual an action has fared for this member, on the scale of the
// decider's votes: the action's posterior starts from the team's rate with two verdicts' weight, so one rejection
// of an action that also worked does not count it out (lose-shift only on a record, not on the last verdict), and
// one confirmation keeps it (win-stay).
export function recordAdjustment(action: string, record: readonly MemberRecordLine[], usual: number): number {
  const line = record.find((l) => l.action_type === action);
  if (!line) return 0;
  const p = (2 * usual + line.confirmed) / (2 + line.confirmed + line.rejected);
  return round2(2 * (p - usual));
}

// Which actions are most likely the member's best, from the record and the vote (2026-11-27). An order's actions
// share one verdict, and an order that holds the member's best action is confirmed far more often than one that does
// not: so each confirmation of an action multiplies its odds of being the best by VERDICT_FACTOR and each rejection
// divides them by it, whatever the other actions of the order were. The prior is the action's share of the
// council's vote (the cues the specialists read) above a floor, so an action nobody voted for can still be tried.
// The order is filled to `slots` with the highest odds: a confirmed action stays (win-stay), one that only failed
// gives way to an untried one the vote favours (lose-shift), and the cues of a new slump still count.
const VERDICT_FACTOR = 3;
const VOTE_FLOOR = 0.1;

export function bestBets(
  candidates: readonly string[],
  score: (action: string) => number,
  record: readonly MemberRecordLine[],
  slots: number,
): string[] {
  const total = candidates.reduce((n, a) => n + score(a), 0) || 1;
  const odds = (a: string) => {
    const l = record.find((x) => x.action_type === a);
    return (VOTE_FLOOR + score(a) / total) * VERDICT_FACTOR ** ((l?.confirmed ?? 0) - (l?.rejected ?? 0));
  };
  return candidates
    .map((a, i) => ({ a, i, p: odds(a) }))
    .sort((x, y) => y.p - x.p || x.i - y.i)
    .map((x) => x.a)
    .slice(0, slots);
}
