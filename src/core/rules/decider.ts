// The rule-based decider (phases 5 and 6, and the review): a weighted vote into an order, and what to learn after.
import { label, mentions } from '../labels.js';
import { actionWording } from './action-wording.js';
import { MAX_DAYS, type Action, type ContentOf, type OrderAnswer } from '../discussion/messages.js';
import type { AgentContext } from '../provider.js';
import { caseAdjustment, extractLearnings } from '../memory/memory.js';
import type { Verdict } from '../memory/outcomes.js';
import type { Discussion } from '../types.js';
import { bestBets, recordAdjustment } from '../memory/trust.js';
import { weighOpinions, weightAssignment } from '../discussion/votes.js';
import { RISKS } from './balancers.js';
import { changeText, cueText, facts } from './facts.js';
import { LOAD_ACTIONS } from './note-cues.js';
import { allowed, named, opinions, round2, type L, typeFields } from './shared.js';

// Case evidence for this member (a recent case counts about its similarity, 0.3–0.9): at or below AVOID_AT an action
// is left out of the order while anything else remains; at or above KEEP_AT it stays in the order (win-stay,
// lose-shift). Confirmed evidence adds to an action's vote at full weight, rejected evidence at half, since a
// rejection may be the other actions' fault.
const AVOID_AT = -0.3;
const KEEP_AT = 0.3;

// A person's words quoted in the rationale, shortened so the rest of it still fits the answer's length.
const quote = (s: string) => (s.length <= 300 ? s : `${s.slice(0, 299)}…`);

type Votes = Record<string, { agents: string[]; score: number }>;
type Negative = ContentOf<'PERSPECTIVE_NEGATIVE'> | undefined;

// What the order settled on, and why: the memory-adjusted ranking and the actions left out for this member.
interface Selection {
  selected: string[];
  avoided: string[];
  ranked: string[];
  top: number;
  cases: NonNullable<AgentContext['memory']>['cases'];
}

export function decide(
  ctx: AgentContext,
  t: L,
): { deliberation: ContentOf<'DECISION_DELIBERATION'>; order: OrderAnswer } {
  const f = facts(ctx);
  // The weights and votes Kaigi computes for any decider (src/core/discussion/votes.ts); the rules then add memory and people.
  const weighing = ctx.weighing ?? weighOpinions(ctx.earlier, ctx.computed, ctx.bands);
  const { votes, objected } = peopleVotes(ctx, weighing);
  // A health cue in the manager's note, or a discussion about load itself (overwork, a metric whose good way is down
  // such as overtime), closes the actions that add load, whatever the vote.
  const load = f.cues.length > 0 || ctx.trigger.type === 'overwork' || ctx.goodWays?.[f.metric] === 'down';
  const s = selectActions(ctx, votes, load ? objected.concat(LOAD_ACTIONS) : objected);
  const negative = ctx.earlier.find((m) => m.message_type === 'PERSPECTIVE_NEGATIVE')?.content as Negative;
  // The review looks a criterion's metric up by name: one of the member's series (the trigger's when it is one).
  const known = ctx.metrics ?? [];
  const metric = known.length && known.indexOf(f.metric) < 0 ? known[0] : f.metric;
  return {
    deliberation: {
      summary_of_opinions: summaryOf(f, t, votes, s, negative),
      weight_assignment: weightAssignment(weighing),
      votes: Object.keys(votes)
        .sort()
        .map((a) => ({ action_type: a, agents: votes[a].agents, score: votes[a].score })),
      dissenting_opinions: opinions(ctx)
        .filter((o) => s.selected.indexOf(o.c.recommendation.action_type) < 0)
        .map((o) => ({
          agent_id: o.speaker,
          opinion: `${named(o.c.recommendation.action_type, t)}: ${o.c.hypothesis}`,
        })),
      selected_action_types: s.selected,
      rationale: rationaleOf(ctx, t, s, negative, f.cues.length ? cueText(f, ctx.lang) : ''),
    },
    order: {
      target_agents: ['buddy'],
      actions: orderActions(ctx, f, t, s.selected, negative),
      monitoring: {
        metrics: [metric, 'login_streak'],
        // Days ahead, as a model answers; Kaigi computes the date. A setting out of range is held to the range.
        review_in_days: Math.min(MAX_DAYS, Math.max(1, Math.round(ctx.reviewDays))),
        success_criteria: [
          {
            metric,
            // The metric's good way: less overtime is the success an overwork order asks for.
            direction: ctx.goodWays?.[metric] === 'down' ? 'decrease' : 'increase',
            target_change: ctx.targetChange,
            window_days: ctx.windowDays,
          },
        ],
      },
    },
  };
}

// The weighted vote, with what people said: an objection's alternative and a person's guidance add half a vote,
// and the actions an objection names are closed.
function peopleVotes(
  ctx: AgentContext,
  weighing: ReturnType<typeof weighOpinions>,
): { votes: Votes; objected: string[] } {
  const votes: Votes = {};
  for (const v of weighing.votes) votes[v.action_type] = { agents: v.agents.slice(), score: v.score };
  const objected = ctx.objection
    ? Object.keys(RISKS)
        .concat(ctx.allowList)
        .filter((a) => mentions(ctx.objection!.reason, 'action_type', a))
    : [];
  const proposed = ctx.objection
    ? ctx.allowList.filter((a) => mentions(ctx.objection!.alternative, 'action_type', a))
    : [];
  const guided = ctx.guidance ? ctx.allowList.filter((a) => ctx.guidance!.indexOf(a) >= 0) : [];
  // A directive's words (an Inbox reply is one): an action named in a sentence that denies it is closed, one named
  // otherwise gets half a vote, as guidance does. Its ban and prefer lists are applied by code before this.
  const said = (ctx.memory?.directives ?? []).flatMap((x) => wordsOf(x.content, ctx.allowList));
  for (const a of proposed.concat(guided).concat(said.filter((x) => !x.no).map((x) => x.action)))
    (votes[a] ??= { agents: [], score: 0 }).score = round2(votes[a].score + 0.5);
  return { votes, objected: objected.concat(said.filter((x) => x.no).map((x) => x.action)) };
}

const DENIES =
  /\b(never|not|no|don't|do not|avoid|stop|without|instead of)\b|禁止|しない|しないで|やめ|避け|使わ|以外|不要|ダメ|だめ/i;

// The actions a person's text names, each with whether its sentence denies it ("Never use GOAL_ADJUSTMENT").
function wordsOf(text: string, allow: readonly string[]): { action: string; no: boolean }[] {
  const out: { action: string; no: boolean }[] = [];
  for (const s of text.split(/(?<=[.。!?！？;；\n])/))
    for (const a of allow) if (mentions(s, 'action_type', a)) out.push({ action: a, no: DENIES.test(s) });
  return out;
}

// Memory: similar past cases pull toward what was confirmed; what was rejected for this member (net of later
// confirmations, recent verdicts weighing most) is left out while anything else remains. Adjusts `votes` in place.
function selectActions(ctx: AgentContext, votes: Votes, objected: string[]): Selection {
  const cases = ctx.memory?.cases ?? [];
  const member = ctx.trigger.target_user_id;
  // The member's record from verdicts (learned trust) is complete where retrieved cases are the few most similar:
  // when there is one, it speaks for this member and cases only for the others.
  const record = ctx.memberRecord ?? [];
  const others = cases.filter((c) => !!c.member && c.member !== member);
  const adjOf = (a: string) =>
    record.length
      ? recordAdjustment(a, record, ctx.teamRate ?? 0.5) + caseAdjustment(a, others, member)
      : caseAdjustment(a, cases, member);
  const avoided: string[] = [];
  for (const a of ctx.allowList) {
    const adj = adjOf(a);
    if (adj <= AVOID_AT) avoided.push(a);
    if (adj === 0) continue;
    const v = (votes[a] ??= { agents: [], score: 0 });
    v.score = round2(Math.max(0, v.score + (adj > 0 ? adj : 0.5 * adj)));
  }
  const open = (a: string) => ctx.allowList.indexOf(a) >= 0 && objected.indexOf(a) < 0;
  const candidates = Object.keys(votes).filter(open);
  const untried = candidates.filter((a) => avoided.indexOf(a) < 0);
  const ranked = (untried.length ? untried : candidates).sort(
    (a, b) => votes[b].score - votes[a].score || (a < b ? -1 : 1),
  );
  const top = ranked.length ? votes[ranked[0]].score : 0;
  const kept = ctx.allowList.filter((a) => open(a) && avoided.indexOf(a) < 0 && adjOf(a) >= KEEP_AT);
  const voted = kept.concat(ranked.filter((a) => kept.indexOf(a) < 0 && votes[a].score >= top * 0.5)).slice(0, 3);
  // With memory on, a member's first discussion (no record yet) fills the free slots with the vote's next choices,
  // the cues the specialists read, so the first verdict tells the record about three actions, not one; once there is
  // a record, the order is the three actions most likely the member's best (bestBets, src/core/memory/trust.ts).
  // Without memory, the vote as it is.
  const byVote = ctx.allowList
    .filter((a) => open(a) && avoided.indexOf(a) < 0)
    .sort((a, b) => (votes[b]?.score ?? 0) - (votes[a]?.score ?? 0) || (a < b ? -1 : 1));
  const selected =
    ctx.teamRate === undefined
      ? voted
      : !record.length
        ? fillByVote(voted, byVote, 3)
        : bestBets(ctx.allowList.filter(open), (a) => votes[a]?.score ?? 0, record, 3);
  if (selected.length === 0)
    selected.push(ctx.allowList.find((a) => open(a) && avoided.indexOf(a) < 0) ?? allowed(ctx, 'ONE_ON_ONE'));
  // An action the record held back but the odds put back in is not reported as avoided.
  return { selected, avoided: avoided.filter((a) => selected.indexOf(a) < 0), ranked, top, cases };
}

function fillByVote(voted: readonly string[], byVote: readonly string[], slots: number): string[] {
  return voted.concat(byVote.filter((a) => voted.indexOf(a) < 0)).slice(0, slots);
}

// The deliberation's consensus and conflicts: who recommends the chosen actions, what was not adopted, the risk.
function summaryOf(
  f: ReturnType<typeof facts>,
  t: L,
  votes: Votes,
  s: Selection,
  negative: Negative,
): ContentOf<'DECISION_DELIBERATION'>['summary_of_opinions'] {
  const consensus = s.selected
    .filter((a) => (votes[a]?.agents.length ?? 0) >= 3)
    .map((a) => t(`${a} を${votes[a].agents.length}名が推奨`, `${votes[a].agents.length} agents recommend ${a}`));
  if (f.change)
    consensus.push(t(`${changeText(f, 'ja')}という事実認識は一致`, `All agree on the facts: ${changeText(f, 'en')}`));
  const conflicts = s.ranked
    .filter((a) => s.selected.indexOf(a) < 0)
    .map((a) =>
      t(`${a}（${votes[a].agents.join(', ')}）は採用せず`, `${a} (${votes[a].agents.join(', ')}) not adopted`),
    );
  if (negative)
    conflicts.push(
      t(
        `リスク指摘：${negative.risk} → 対応：${negative.counter_proposal}`,
        `Risk raised: ${negative.risk} → handled by: ${negative.counter_proposal}`,
      ),
    );
  return { consensus_points: consensus, conflicting_points: conflicts };
}

// The order's actions: a specialist's recommendation where one gave it, else the type's own wording.
function orderActions(
  ctx: AgentContext,
  f: ReturnType<typeof facts>,
  t: L,
  selected: string[],
  negative: Negative,
): Action[] {
  const ops = opinions(ctx);
  return selected.map((a) => {
    const src = ops.find((o) => o.c.recommendation.action_type === a)?.c.recommendation;
    const intensity: Action['intensity'] = negative ? 'low' : (src?.intensity ?? 'medium');
    // The type's fields from the same facts the specialist used, the rate following the intensity settled on.
    return src
      ? { ...src, intensity, ...typeFields(f, a, intensity) }
      : {
          action_type: a,
          ...actionWording(a, t),
          intensity,
          timing: f.contactTime,
          duration_days: 7,
          ...typeFields(f, a, intensity),
        };
  });
}

function rationaleOf(ctx: AgentContext, t: L, s: Selection, negative: Negative, cues: string): string {
  const { selected, avoided, cases, top } = s;
  return [
    cues
      ? t(
          `マネージャーのメモ（${cues}）を優先し、負荷を増やす施策は採らない。`,
          `The manager's note (${cues}) comes first: no action that adds load.`,
        )
      : '',
    t(
      `加重投票で ${selected.map((a) => label('action_type', a, 'ja')).join('、')} を選択（最高スコア ${top}）。`,
      `Weighted vote selects ${selected.map((a) => label('action_type', a, 'en')).join(', ')} (top score ${top}).`,
    ),
    negative
      ? t('反対役の指摘を受け強度は「弱」とする。', "Intensity set to low after the devil's advocate's warning.")
      : '',
    ctx.objection
      ? t(
          `異議（${ctx.objection.objector}）を考慮：${quote(ctx.objection.reason)}`,
          `Objection from ${ctx.objection.objector} considered: ${quote(ctx.objection.reason)}`,
        )
      : '',
    ctx.guidance
      ? t(`人間からの指示を反映：${quote(ctx.guidance)}`, `Human guidance applied: ${quote(ctx.guidance)}`)
      : '',
    avoided.length
      ? t(
          `この人で効果がなかった ${avoided.map((a) => label('action_type', a, 'ja')).join('、')} は避ける。`,
          `Avoiding ${avoided.map((a) => label('action_type', a, 'en')).join(', ')}, which did not work for this member.`,
        )
      : '',
    cases.length
      ? t(
          `類似事例 ${cases.map((c) => `${c.id}(${c.verdict})`).join(', ')} を参照。`,
          `Similar cases consulted: ${cases.map((c) => `${c.id} (${c.verdict})`).join(', ')}.`,
        )
      : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function learning(ctx: AgentContext): { learnings: ReturnType<typeof extractLearnings> } {
  const order = ctx.earlier.filter((m) => m.message_type === 'EXECUTION_ORDER').pop();
  const d = {
    discussion_id: ctx.discussion_id,
    status: 'DECIDED',
    priority: ctx.priority,
    trigger: ctx.trigger,
    created_at: '',
    closed_at: '',
    participants: [],
    messages: ctx.earlier,
    final_decision: order ? order.content : null,
    execution_status: '',
    outcome_evaluated: '',
    notes: [],
  } as Discussion;
  const verdict = (ctx.outcome?.verdict ?? 'inconclusive') as Verdict;
  // The member by name in what a person reads; the trigger type by the default Settings label.
  return { learnings: extractLearnings(d, verdict, ctx.lang, { member: ctx.member?.name }) };
}
