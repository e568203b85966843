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
import type { ContentOf } from '../src/core/discussion/messages.js';
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
import { thompson } from './bandit.js';
import { addDay, SimulatedTeam } from './simulated-team.js';

// council: the council's own order; vote, random: one action instead (a plain vote of Phase 2's first answers, an
// allowed action at random); oracle: the council's order plus the member's hidden best action (the ceiling this team
// allows); bandit: one action per member by Thompson sampling over the allow-list from verdicts alone.
export type { Policy, SimDiscussion, SimOptions, SimResult, SimVerdict } from './council-sim-result.js';

const KPI_DAYS = 40;

export function simulateCouncil(o: SimOptions): SimResult {
  const firstDay = o.firstDay ?? '2026-03-02';
  const team = new SimulatedTeam({ seed: o.seed, driftDay: Math.floor(o.days / 2) }, firstDay);
  const values: Record<string, string> = {};
  for (const d of DEFAULT_SETTINGS) values[d.key] = d.value;
  Object.assign(values, { locale: 'en' }, o.settings ?? {});
  const settings = new Settings(values);
  const memoryOn = settings.get('memory.enabled');
  const agents = defaultAgents().map((a) => ({ ...a, active: a.active && (o.without ?? []).indexOf(a.agent_id) < 0 }));
  const rules = new RulesProvider(() => now);
  const members = team.members();
  const thresholds = thresholdsOf(settings);
  const lrules = learningRulesOf(settings);
  const dims = settings.number('embedding.dimensions');
  const tag = modelTag(OFFLINE_MODEL, dims);
  const embed = (t: string) => encodeVector(embedOffline(t, dims));
  const pick = seededRandom(o.seed * 7919 + 17);
  let kpi: KpiRow[] = team.history();
  let now = 0;
  let today = firstDay;
  let memory: ReviewMemory = { learnings: [], properties: { agentStats: {}, reflectionHistory: {}, nextActions: {} } };
  let matrix = { tag: '', n: -1, m: decodeMatrix([], dims) };
  const seq: Record<string, number> = {};
  const next = (name: string) => (seq[name] = (seq[name] ?? 0) + 1);
  const discussions: Discussion[] = [];
  const orders: {
    decision_id: string;
    discussion_id: string;
    member: string;
    actions: string[];
    review_day: string;
    from: string;
    // Reported only: whether the order held the member's hidden best action, and the day it was decided.
    best: boolean;
    day: number;
  }[] = [];
  const evaluated: string[] = [];
  // The bandit arm's own record: member → action type → [confirmed, rejected].
  const bandit: Record<string, Record<string, [number, number]>> = {};
  const result: SimResult = {
    verdicts: [],
    log: [],
    opinions: [],
    discussions: 0,
    tokens: 0,
    tokensBy: {},
    decayed: 0,
  };

  const matrixOf = () => {
    const rows = memory.learnings;
    if (matrix.n !== rows.length) matrix = { tag, n: rows.length, m: grownMatrix(matrix.m, rows, dims) };
    return matrix.m;
  };
  const recalled: Record<string, ReturnType<typeof recall>> = {};
  // Every agent of a discussion recalls from the same situation: its embedding is computed once, not once per agent.
  let situation: { text: string; q: Float32Array } = { text: '', q: new Float32Array(0) };
  const situationVector = (d: Discussion) => {
    const text = situationText(d);
    if (situation.text !== text || !situation.q.length) situation = { text, q: embedOffline(text, dims) };
    return situation.q;
  };
  const env = (): EngineEnv => ({
    settings,
    agents,
    promptOf: (a) => a.description,
    providerFor: () => rules,
    rules,
    kpi,
    members,
    dataNotes: [],
    now: () => now,
    today,
    isoNow: () => new Date(now).toISOString(),
    nextDecisionId: () => decisionId({ day: today, seq: next(`dec:${today}`) }),
    lang: 'en',
    historicalAccuracy: (agent) => {
      const s = memory.properties.agentStats[agent];
      return s && s.hits + s.misses > 0 ? s.hits / (s.hits + s.misses) : 0.5;
    },
    priceOf: () => null,
    trust: () => memory.properties.trust ?? emptyTrust(),
    memoryFor: (agent, d) => {
      if (!memoryOn) return EMPTY_MEMORY;
      const key = `${d.discussion_id}/${agent.agent_id}`;
      recalled[key] ??= recall(
        memory.learnings,
        matrixOf(),
        situationVector(d),
        agent.agent_id,
        d.discussion_id,
        recallOptionsOf(settings, now),
        d.trigger.target_user_id,
      );
      const nextActions = (memory.properties.nextActions[agent.agent_id] ?? []).slice(-3);
      return { ...recalled[key], nextActions, directives: [] };
    },
  });

  const append = (l: Omit<Learning, 'row'>) =>
    memory.learnings.push({ ...l, row: memory.learnings.length + 2 } as Learning);

  for (let day = 0; day < o.days; day++) {
    // The morning: yesterday's orders in force shape today's figures, which arrive first.
    const date = addDay(firstDay, day);
    const inForce = orders.filter((x) => x.from < date && x.review_day >= date);
    const step = team.step((m) => inForce.filter((x) => x.member === m).flatMap((x) => x.actions));
    today = step.day;
    now = Date.parse(`${today}T01:00:00Z`);
    const cutoff = addDay(today, -KPI_DAYS);
    kpi = kpi.concat(step.rows).filter((r) => r.date > cutoff);
    review(day);
    result.decayed += decay();
    watch(day);
  }
  result.discussions = discussions.length;
  return result;

  function review(day: number): void {
    const due = dueDecisions(
      orders.map((x, i) => ({
        row: i + 2,
        order_id: `${x.decision_id}-A1`,
        decision_id: x.decision_id,
        discussion_id: x.discussion_id,
        status: 'PENDING',
        review_day: x.review_day,
      })),
      today,
      evaluated,
    );
    for (const dd of due) {
      const d = discussions.find((x) => x.discussion_id === dd.discussion_id)!;
      const placed = orders.find((x) => x.decision_id === dd.decision_id)!;
      evaluated.push(dd.decision_id);
      const a = assessReview(dd, d, 0, kpi, thresholds);
      if (!a) continue;
      const learned = newLearnings(a, 'en', askForLearnings(a, env()));
      const embeddings = learned.items.map((x) => embed(x.content));
      const planned = planReview(a, { ...learned, embeddings }, memory, {
        rules: lrules,
        lang: 'en',
        now,
        embeddingModel: tag,
        next: (n) => next(n),
        milestone: milestoneRuleOf(settings),
      });
      memory = { ...planned.memory, learnings: planned.memory.learnings.slice() };
      for (const op of planned.commit.ops)
        if (op.kind === 'write' && op.tab === 'learnings' && op.at === 'append') {
          const v = op.values as Record<string, unknown>;
          append({ ...(v as unknown as Learning), created_at: now, last_applied_at: 0 });
        }
      d.status = 'CLOSED';
      const chosen = a.order.actions.map((x) => x.action_type);
      const first = firstAnswers(d.messages);
      result.opinions.push(...opinionScores(d, chosen, a.ev.verdict));
      const member = d.trigger.target_user_id;
      if (o.policy === 'bandit' && a.ev.verdict !== 'inconclusive') {
        const t = ((bandit[member] ??= {})[chosen[0]] ??= [0, 0]);
        t[a.ev.verdict === 'confirmed' ? 0 : 1]++;
      }
      result.verdicts.push({
        day,
        member,
        verdict: a.ev.verdict,
        actions: chosen,
        majority: first?.majority ?? '',
        flip: isFlip(first, chosen),
        drifted:
          team.drifting(member) &&
          Date.parse(d.created_at) >= Date.parse(`${addDay(firstDay, Math.floor(o.days / 2))}T00:00:00Z`),
        best: placed.best,
        decided: placed.day,
      });
    }
  }

  function decay(): number {
    const gone = new Set(
      decayed(memory.learnings, now, settings.number('learning.decay_days')).map((l) => l.learning_id),
    );
    if (!gone.size) return 0;
    memory.learnings = memory.learnings.map((l) => (gone.has(l.learning_id) ? { ...l, is_active: false } : l));
    return gone.size;
  }

  function watch(day: number): void {
    const metric = settings.raw('watcher.metric');
    const known: KnownDiscussion[] = discussions.map((d) => ({
      discussion_id: d.discussion_id,
      status: d.status,
      trigger_type: d.trigger.type,
      member: d.trigger.target_user_id,
      context: d.trigger.context,
      execution_status: d.execution_status,
      notes: d.notes,
    }));
    const opening: { member: string; priority: Priority; context: Record<string, unknown> }[] = [];
    for (const m of members) {
      const decline = declineOf(
        series(kpi, m.member_id, metric),
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
        discussionId({ day: today, seq: next(`disc:${today}`) }),
        { type: 'kpi_decline', source: 'watcher', target_user_id: x.member, context: x.context },
        x.priority,
        new Date(now).toISOString(),
      );
      deliberate(d0, day);
    }
  }

  function deliberate(start: Discussion, day: number): void {
    let d = start;
    const e = env();
    for (let i = 0; i < 30 && d.status !== 'DECIDED' && d.status !== 'ESCALATED' && d.status !== 'TIMEOUT'; i++) {
      d = applyStep(d, runStep(d, planStep(d, e), e));
      if (d.status === 'DECIDED') remember(d);
    }
    discussions.push(d);
    result.log.push({
      day,
      discussion_id: d.discussion_id,
      member: d.trigger.target_user_id,
      status: d.status,
      actions: (orderOf(d)?.actions ?? []).map((a) => a.action_type),
      majority: firstAnswers(d.messages)?.majority ?? '',
      recalled: [...new Set(d.messages.flatMap((m) => m.metadata.learnings ?? []))],
    });
    countTokens(result, d.messages);
    const order = orderOf(d);
    if (!order) return;
    let actions = order.actions;
    if (o.policy !== 'council') {
      // The baselines keep the council's own record and monitoring, and carry out one action instead.
      const first = firstAnswers(d.messages);
      const ops = d.messages
        .filter((m) => m.message_type === 'SPECIALIST_OPINION')
        .map((m) => (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation);
      const allow = settings.get('actions.allow_list');
      const member = d.trigger.target_user_id;
      const like = (type: string) =>
        ops.find((r) => r.action_type === type) ?? { ...order.actions[0], action_type: type };
      if (o.policy === 'oracle') {
        // The hidden table, read by this arm only (never by the council): the order plus the member's best action.
        const best = team.hiddenOn(member, day).best;
        actions = order.actions.some((x) => x.action_type === best)
          ? order.actions
          : order.actions.concat([like(best)]);
      } else {
        const type =
          o.policy === 'vote'
            ? (first?.majority ?? allow[0])
            : o.policy === 'bandit'
              ? thompson(allow, bandit[member] ?? {}, pick)
              : allow[Math.floor(pick() * allow.length)];
        actions = [like(type)];
      }
      d.final_decision = { ...order, actions } as unknown as Record<string, unknown>;
    }
    orders.push({
      decision_id: order.decision_id,
      discussion_id: d.discussion_id,
      member: d.trigger.target_user_id,
      actions: actions.map((a) => a.action_type),
      review_day: order.monitoring.review_date,
      from: today,
      best: actions.some((a) => a.action_type === team.hiddenOn(d.trigger.target_user_id, day).best),
      day,
    });
  }

  // As the app's DecisionMemory.rememberDecision: the case joins memory, the learnings used count one more use.
  function remember(after: Discussion): void {
    if (!memoryOn) return;
    const order = orderOf(after)!;
    append({
      learning_id: `LRN-${next('learning')}`,
      scope: 'case',
      agent_id: '',
      category: 'case',
      content: caseText(after),
      context: JSON.stringify(caseContext(after, order)),
      confidence: lrules.initial,
      times_applied: 0,
      times_successful: 0,
      is_active: true,
      source: after.discussion_id,
      // As the product embeds a case: the situation it answers (src/app/discussions/decision-memory.ts).
      embedding: encodeVector(situationVector(after)),
      embedding_model: tag,
      created_at: now,
      last_applied_at: 0,
    });
    const used = new Set<string>();
    for (const m of after.messages) for (const x of m.metadata.learnings ?? []) used.add(x);
    memory.learnings = memory.learnings.map((l) =>
      used.has(l.learning_id) ? { ...l, times_applied: l.times_applied + 1, last_applied_at: now } : l,
    );
  }
}
