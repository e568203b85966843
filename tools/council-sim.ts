// The council in-process over the simulated team, for the learning benchmark: the product's own pure core (watch
// plan, engine with the rules provider, recall, review plan, decay) run day by day without Sheets, so hundreds of
// verdicts take seconds. One end-to-end run through the runtime checks that the two agree (tests/tools).
import { opinionScores } from '../src/core/memory/calibration.js';
import { defaultAgents } from '../src/core/discussion/default-council.js';
import { encodeVector, embedOffline, modelTag, OFFLINE_MODEL } from '../src/core/memory/embedding.js';
import { applyStep, planStep, runStep, type EngineEnv } from '../src/core/engine.js';
import { firstAnswers, isFlip } from '../src/core/memory/first-answers.js';
import { decisionId, discussionId } from '../src/core/discussion/ids.js';
import { declineOf, series } from '../src/core/orders/kpi.js';
import {
  caseContext,
  caseText,
  EMPTY_MEMORY,
  orderOf,
  situationText,
  type Learning,
} from '../src/core/memory/memory.js';
import { thresholdsOf } from '../src/core/memory/outcomes.js';
import { RulesProvider } from '../src/core/providers/rules.js';
import { decayed, recall, recallOptionsOf } from '../src/core/memory/recall.js';
import { decodeMatrix } from '../src/core/memory/retrieval.js';
import { grownMatrix } from './grown-matrix.js';
import { milestoneRuleOf } from '../src/core/memory/inbox-reports.js';
import { askForLearnings, learningRulesOf, newLearnings } from '../src/core/memory/review-learnings.js';
import { assessReview, dueDecisions, planReview, type ReviewMemory } from '../src/core/memory/review-plan.js';
import { DEFAULT_SETTINGS, Settings } from '../src/core/settings.js';
import { type Discussion, type KpiRow, newDiscussion, type Priority, PRIORITY_RANK } from '../src/core/types.js';
import { planWatch, type KnownDiscussion } from '../src/core/orders/watch-plan.js';
import { countTokens, type SimOptions, type SimResult } from './council-sim-result.js';
import { seededRandom } from './seeded-random.js';
import { emptyTrust } from '../src/core/memory/trust.js';
import { thompsonTop } from './bandit.js';
import { baselineActions, type SimOrder } from './council-sim-baseline.js';
import { addDay, SimulatedTeam } from './simulated-team.js';

// council: the council's own order; vote, random, oracle, bandit: the baselines of tools/council-sim-baseline.ts (a
// plain vote, a random action, the order plus the hidden best action, Thompson sampling from verdicts alone).
export type { Policy, SimDiscussion, SimOptions, SimResult, SimVerdict } from './council-sim-result.js';

const KPI_DAYS = 40;

// One order as placed, with what the report alone knows of it.
interface PlacedOrder {
  decision_id: string;
  discussion_id: string;
  member: string;
  actions: string[];
  review_day: string;
  from: string;
  // Reported only: whether the order held the member's hidden best action, and the day it was decided.
  best: boolean;
  day: number;
}

export function simulateCouncil(o: SimOptions): SimResult {
  return new CouncilSim(o).run();
}

// The simulation's state over the days of one seed-year; each method is one part of a day.
class CouncilSim {
  readonly firstDay: string;
  readonly team: SimulatedTeam;
  readonly settings: Settings;
  readonly memoryOn: boolean;
  readonly agents: ReturnType<typeof defaultAgents>;
  readonly rules: RulesProvider;
  readonly members: ReturnType<SimulatedTeam['members']>;
  readonly thresholds: ReturnType<typeof thresholdsOf>;
  readonly lrules: ReturnType<typeof learningRulesOf>;
  readonly dims: number;
  readonly tag: string;
  readonly pick: () => number;
  kpi: KpiRow[];
  now = 0;
  today: string;
  memory: ReviewMemory = { learnings: [], properties: { agentStats: {}, reflectionHistory: {}, nextActions: {} } };
  matrix: { tag: string; n: number; m: ReturnType<typeof decodeMatrix> };
  readonly seq: Record<string, number> = {};
  readonly discussions: Discussion[] = [];
  readonly orders: PlacedOrder[] = [];
  readonly evaluated: string[] = [];
  // The bandit arm's own record: member → action type → [confirmed, rejected].
  readonly bandit: Record<string, Record<string, [number, number]>> = {};
  readonly result: SimResult = {
    verdicts: [],
    log: [],
    opinions: [],
    discussions: 0,
    tokens: 0,
    tokensBy: {},
    decayed: 0,
  };
  readonly recalled: Record<string, ReturnType<typeof recall>> = {};
  // Every agent of a discussion recalls from the same situation: its embedding is computed once, not once per agent.
  situation: { text: string; q: Float32Array } = { text: '', q: new Float32Array(0) };

  constructor(readonly o: SimOptions) {
    this.firstDay = o.firstDay ?? '2026-03-02';
    this.today = this.firstDay;
    const team = { ...o, driftDay: Math.floor(o.days / 2) }; // seed, extraActionCost and world
    this.team = new SimulatedTeam(team, this.firstDay);
    const values: Record<string, string> = {};
    for (const d of DEFAULT_SETTINGS) values[d.key] = d.value;
    Object.assign(values, { locale: 'en', 'outcome.recheck_days': '0' }, o.settings ?? {}); // it never rechecks
    this.settings = new Settings(values);
    this.memoryOn = this.settings.get('memory.enabled');
    this.agents = defaultAgents().map((a) => ({
      ...a,
      active: a.active && (o.without ?? []).indexOf(a.agent_id) < 0,
    }));
    this.rules = new RulesProvider(() => this.now);
    this.members = this.team.members();
    this.thresholds = thresholdsOf(this.settings);
    this.lrules = learningRulesOf(this.settings);
    this.dims = this.settings.number('embedding.dimensions');
    this.tag = modelTag(OFFLINE_MODEL, this.dims);
    this.pick = seededRandom(o.seed * 7919 + 17);
    this.kpi = this.team.history();
    this.matrix = { tag: '', n: -1, m: decodeMatrix([], this.dims) };
  }

  run(): SimResult {
    for (let day = 0; day < this.o.days; day++) {
      // The morning: yesterday's orders in force shape today's figures, which arrive first.
      const date = addDay(this.firstDay, day);
      const inForce = this.orders.filter((x) => x.from < date && x.review_day >= date);
      const step = this.team.step((m) => inForce.filter((x) => x.member === m).flatMap((x) => x.actions));
      this.today = step.day;
      this.now = Date.parse(`${this.today}T01:00:00Z`);
      const cutoff = addDay(this.today, -KPI_DAYS);
      this.kpi = this.kpi.concat(step.rows).filter((r) => r.date > cutoff);
      this.review(day);
      this.result.decayed += this.decay();
      this.watch(day);
    }
    this.result.discussions = this.discussions.length;
    return this.result;
  }

  next(name: string): number {
    return (this.seq[name] = (this.seq[name] ?? 0) + 1);
  }

  embed(t: string): string {
    return encodeVector(embedOffline(t, this.dims));
  }

  matrixOf(): ReturnType<typeof decodeMatrix> {
    const rows = this.memory.learnings;
    if (this.matrix.n !== rows.length)
      this.matrix = { tag: this.tag, n: rows.length, m: grownMatrix(this.matrix.m, rows, this.dims) };
    return this.matrix.m;
  }

  situationVector(d: Discussion): Float32Array {
    const text = situationText(d);
    if (this.situation.text !== text || !this.situation.q.length)
      this.situation = { text, q: embedOffline(text, this.dims) };
    return this.situation.q;
  }

  env(): EngineEnv {
    return {
      settings: this.settings,
      agents: this.agents,
      promptOf: (a) => a.description,
      providerFor: () => this.rules,
      rules: this.rules,
      kpi: this.kpi,
      members: this.members,
      dataNotes: [],
      now: () => this.now,
      today: this.today,
      isoNow: () => new Date(this.now).toISOString(),
      nextDecisionId: () => decisionId({ day: this.today, seq: this.next(`dec:${this.today}`) }),
      lang: 'en',
      historicalAccuracy: (agent) => {
        const s = this.memory.properties.agentStats[agent];
        return s && s.hits + s.misses > 0 ? s.hits / (s.hits + s.misses) : 0.5;
      },
      priceOf: () => null,
      trust: () => this.memory.properties.trust ?? emptyTrust(),
      memoryFor: (agent, d) => this.memoryFor(agent.agent_id, d),
    };
  }

  memoryFor(agent: string, d: Discussion): ReturnType<EngineEnv['memoryFor']> {
    if (!this.memoryOn) return EMPTY_MEMORY;
    const key = `${d.discussion_id}/${agent}`;
    this.recalled[key] ??= recall(
      this.memory.learnings,
      this.matrixOf(),
      this.situationVector(d),
      agent,
      d.discussion_id,
      recallOptionsOf(this.settings, this.now),
      d.trigger.target_user_id,
    );
    const nextActions = (this.memory.properties.nextActions[agent] ?? []).slice(-3);
    return { ...this.recalled[key], nextActions, directives: [] };
  }

  append(l: Omit<Learning, 'row'>): void {
    this.memory.learnings.push({ ...l, row: this.memory.learnings.length + 2 } as Learning);
  }

  review(day: number): void {
    const due = dueDecisions(
      this.orders.map((x, i) => ({
        row: i + 2,
        order_id: `${x.decision_id}-A1`,
        decision_id: x.decision_id,
        discussion_id: x.discussion_id,
        status: 'PENDING',
        review_day: x.review_day,
      })),
      this.today,
      this.evaluated,
    );
    for (const dd of due) this.reviewOne(dd, day);
  }

  reviewOne(dd: ReturnType<typeof dueDecisions>[number], day: number): void {
    const o = this.o;
    const d = this.discussions.find((x) => x.discussion_id === dd.discussion_id)!;
    const placed = this.orders.find((x) => x.decision_id === dd.decision_id)!;
    this.evaluated.push(dd.decision_id);
    const a = assessReview(dd, d, 0, this.kpi, this.thresholds);
    if (!a) return;
    const learned = newLearnings(a, 'en', askForLearnings(a, this.env()));
    const embeddings = learned.items.map((x) => this.embed(x.content));
    const planned = planReview(a, { ...learned, embeddings }, this.memory, {
      rules: this.lrules,
      lang: 'en',
      now: this.now,
      embeddingModel: this.tag,
      next: (n) => this.next(n),
      milestone: milestoneRuleOf(this.settings),
    });
    this.memory = { ...planned.memory, learnings: planned.memory.learnings.slice() };
    for (const op of planned.commit.ops)
      if (op.kind === 'write' && op.tab === 'learnings' && op.at === 'append') {
        const v = op.values as Record<string, unknown>;
        this.append({ ...(v as unknown as Learning), created_at: this.now, last_applied_at: 0 });
      }
    d.status = 'CLOSED';
    const chosen = a.order.actions.map((x) => x.action_type);
    const first = firstAnswers(d.messages);
    this.result.opinions.push(...opinionScores(d, chosen, a.ev.verdict));
    const member = d.trigger.target_user_id;
    // An order's actions share one verdict, so the bandit scores each of them with it.
    if (o.policy === 'bandit' && a.ev.verdict !== 'inconclusive')
      for (const c of chosen) ((this.bandit[member] ??= {})[c] ??= [0, 0])[a.ev.verdict === 'confirmed' ? 0 : 1]++;
    this.result.verdicts.push({
      day,
      member,
      verdict: a.ev.verdict,
      actions: chosen,
      majority: first?.majority ?? '',
      flip: isFlip(first, chosen),
      drifted:
        this.team.drifting(member) &&
        Date.parse(d.created_at) >= Date.parse(`${addDay(this.firstDay, Math.floor(o.days / 2))}T00:00:00Z`),
      best: placed.best,
      decided: placed.day,
    });
  }

  decay(): number {
    const gone = new Set(
      decayed(this.memory.learnings, this.now, this.settings.number('learning.decay_days')).map((l) => l.learning_id),
    );
    if (!gone.size) return 0;
    this.memory.learnings = this.memory.learnings.map((l) =>
      gone.has(l.learning_id) ? { ...l, is_active: false } : l,
    );
    return gone.size;
  }

  watch(day: number): void {
    const settings = this.settings;
    const metric = settings.raw('watcher.metric');
    const known: KnownDiscussion[] = this.discussions.map((d) => ({
      discussion_id: d.discussion_id,
      status: d.status,
      trigger_type: d.trigger.type,
      member: d.trigger.target_user_id,
      context: d.trigger.context,
      execution_status: d.execution_status,
      notes: d.notes,
    }));
    const opening: { member: string; priority: Priority; context: Record<string, unknown> }[] = [];
    for (const m of this.members) {
      const decline = declineOf(
        series(this.kpi, m.member_id, metric),
        settings.number('watcher.consecutive_days'),
        settings.number('watcher.min_drop_ratio'),
      );
      if (!decline) continue;
      const summary = `${m.name}: ${metric} fell ${decline.run} days in a row`;
      if (planWatch('kpi_decline', m.member_id, metric, decline, summary, undefined, known).kind !== 'open') continue;
      opening.push({
        member: m.member_id,
        priority: -decline.change.ratio >= 0.5 ? 'HIGH' : 'MEDIUM',
        context: {
          metric,
          summary,
          previous: decline.change.from,
          current: decline.change.to,
          days: decline.run,
          start_date: decline.start,
          last_date: decline.last,
        },
      });
    }
    // The watcher queues its requests in member order and the queue takes the highest priority first (then the
    // oldest), so a day's discussions get their ids, decisions, cases and later reviews in that order.
    opening.sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority]);
    for (const x of opening) {
      const d0 = newDiscussion(
        discussionId({ day: this.today, seq: this.next(`disc:${this.today}`) }),
        { type: 'kpi_decline', source: 'watcher', target_user_id: x.member, context: x.context },
        x.priority,
        new Date(this.now).toISOString(),
      );
      this.deliberate(d0, day);
    }
  }

  deliberate(start: Discussion, day: number): void {
    let d = start;
    const e = this.env();
    for (let i = 0; i < 30 && d.status !== 'DECIDED' && d.status !== 'ESCALATED' && d.status !== 'TIMEOUT'; i++) {
      d = applyStep(d, runStep(d, planStep(d, e), e));
      if (d.status === 'DECIDED') this.remember(d);
    }
    this.discussions.push(d);
    this.result.log.push({
      day,
      discussion_id: d.discussion_id,
      member: d.trigger.target_user_id,
      status: d.status,
      actions: (orderOf(d)?.actions ?? []).map((a) => a.action_type),
      majority: firstAnswers(d.messages)?.majority ?? '',
      recalled: [...new Set(d.messages.flatMap((m) => m.metadata.learnings ?? []))],
    });
    countTokens(this.result, d.messages);
    const order = orderOf(d);
    if (!order) return;
    const actions = this.o.policy === 'council' && !this.o.k ? order.actions : this.baseline(d, order, day);
    this.orders.push({
      decision_id: order.decision_id,
      discussion_id: d.discussion_id,
      member: d.trigger.target_user_id,
      actions: actions.map((a) => a.action_type),
      review_day: order.monitoring.review_date,
      from: this.today,
      best: this.team.holdsBest(d.trigger.target_user_id, day, actions),
      day,
    });
  }

  // The baselines carry out another action (baseline.ts); only the oracle arm reads the hidden table.
  baseline(d: Discussion, order: SimOrder, day: number): SimOrder['actions'] {
    const member = d.trigger.target_user_id;
    const best = this.o.policy === 'oracle' ? this.team.bestOf(member, day) : [];
    const [allow, record] = [this.settings.get('actions.allow_list'), this.bandit[member] ?? {}];
    return baselineActions(d, order, this.o, allow, best, (k) => thompsonTop(allow, record, this.pick, k), this.pick);
  }

  // As the app's DecisionMemory.rememberDecision: the case joins memory, the learnings used count one more use.
  remember(after: Discussion): void {
    if (!this.memoryOn) return;
    const order = orderOf(after)!;
    this.append({
      learning_id: `LRN-${this.next('learning')}`,
      scope: 'case',
      agent_id: '',
      category: 'case',
      content: caseText(after),
      context: JSON.stringify(caseContext(after, order)),
      confidence: this.lrules.initial,
      times_applied: 0,
      times_successful: 0,
      is_active: true,
      source: after.discussion_id,
      // As the product embeds a case: the situation it answers (src/app/discussions/decision-memory.ts).
      embedding: encodeVector(this.situationVector(after)),
      embedding_model: this.tag,
      created_at: this.now,
      last_applied_at: 0,
    });
    const used = new Set<string>();
    for (const m of after.messages) for (const x of m.metadata.learnings ?? []) used.add(x);
    this.memory.learnings = this.memory.learnings.map((l) =>
      used.has(l.learning_id) ? { ...l, times_applied: l.times_applied + 1, last_applied_at: this.now } : l,
    );
  }
}
