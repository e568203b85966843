// The compact digest of each answer that later phases read: what was proposed, why, how sure; full texts stay recorded.
import type { ContentOf, Message } from '../discussion/messages.js';

// The first sentence of a free text, clipped at `max` characters: a model states its point first, and in Japanese every
// character is a token, so a digest keeps the point and leaves the elaboration to the record.
function lead(text: unknown, max: number): string {
  const s = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const m = /^.*?(。|\.\s|!\s|！|？|\?\s)/.exec(s);
  const first = m ? m[0].trim() : s;
  const chars = Array.from(first);
  return chars.length <= max ? first : `${chars.slice(0, max).join('')}…`;
}

// Evidence with a number says more than evidence without: the first such item, else the first item.
function keyEvidence(items: readonly string[]): string {
  const withNumber = items.find((e) => /\d/.test(e));
  return withNumber !== undefined || items.length ? lead(withNumber ?? items[0], 35) : '';
}

// A change shown beside a data point only when it is a figure (e.g. -58%), not a sentence.
const figure = (change: string) => (/^[+-]?\d+(\.\d+)?%?$/.test(change.trim()) ? ` (${change.trim()})` : '');

// Claims the KPI data contradicts (Kaigi checked them: src/core/orders/claims.ts), so the decider weighs them so.
const contradicted = (m: Message) =>
  m.metadata.contradicted?.length
    ? ` contradicted-by-data: ${m.metadata.contradicted
        .slice(0, 3)
        .map((c) => `${c.metric} claimed ${c.claimed}, data ${c.actual} ${c.from}→${c.to}`)
        .join('; ')}`
    : '';

// A default opinion is nobody's view; a substitute's answer is the substitute's view, not the speaker's.
const markers = (m: Message) =>
  `${m.metadata.default_opinion ? ' default-opinion' : ''}${m.metadata.substitute ? ` substitute-answer-by-${m.metadata.substitute}` : ''}`;

const conf = (x: unknown) => (typeof x === 'number' ? String(Math.round(x * 100) / 100) : '-');

function line(m: Message, dissent: boolean): string {
  const c = m.content as Record<string, unknown>;
  const head = `[P${m.phase} ${m.speaker}]`;
  switch (m.message_type) {
    case 'SITUATION_REPORT': {
      const s = c as ContentOf<'SITUATION_REPORT'>;
      const data = s.data_points
        .slice(0, 6)
        .map((p) => `${p.metric}=${String(p.value).slice(0, 12)}${figure(p.change)}`)
        .join(', ');
      return `${head} situation ${s.severity} | ${lead(s.summary, 80)} | data: ${data}`;
    }
    case 'SPECIALIST_OPINION': {
      const o = c as ContentOf<'SPECIALIST_OPINION'>;
      const flags = `${markers(m)}${dissent ? ' dissent' : ''}${contradicted(m)}`;
      return `${head} opinion ${o.recommendation.action_type}/${o.recommendation.intensity} confidence stated ${conf(o.confidence)} computed ${conf(m.metadata.computed_confidence)}${flags} | hypothesis: ${lead(o.hypothesis, 45)} | evidence: ${keyEvidence(o.evidence)}`;
    }
    case 'FEEDBACK_REQUEST':
      return `${head} question to ${String(c.target_agent)} | ${lead(c.question, 120)}`;
    case 'FEEDBACK_RESPONSE':
      return `${head} more data, computed ${conf(m.metadata.computed_confidence)}${markers(m)}${contradicted(m)} | ${lead(c.answer, 120)}`;
    case 'PERSPECTIVE_POSITIVE':
      return `${head} positive | ${lead(c.viewpoint, 90)} | opportunity: ${lead(c.opportunity, 70)}`;
    case 'PERSPECTIVE_NEGATIVE':
      return `${head} risk | ${lead(c.risk, 90)} | counter-proposal: ${lead(c.counter_proposal, 70)}`;
    case 'PERSPECTIVE_HUMAN':
      return `${head} human view | ${lead(c.reality_check, 90)} | suggestion: ${lead(c.practical_suggestion ?? c.human_insight, 70)}`;
    case 'GOVERNANCE_ETHICS':
    case 'GOVERNANCE_LEGAL': {
      const concerns = ((c.concerns as string[]) ?? []).slice(0, 3).map((x) => lead(x, 80));
      const kind = m.message_type === 'GOVERNANCE_ETHICS' ? 'ethics' : 'legal';
      return `${head} ${kind} ${String(c.check_result)}${concerns.length ? ` | concerns: ${concerns.join('; ')}` : ''}`;
    }
    case 'DECISION_DELIBERATION':
      return `${head} deliberation selected ${((c.selected_action_types as string[]) ?? []).join(', ')} | ${lead(c.rationale, 120)}`;
    case 'EXECUTION_ORDER': {
      const o = c as ContentOf<'EXECUTION_ORDER'>;
      return `${head} order ${o.decision_id}: ${o.actions.map((a) => `${a.action_type}/${a.intensity}`).join(', ')}; review ${o.monitoring.review_date}`;
    }
    // A person's objection and guidance are shown as written (bounded like any input before this).
    case 'OBJECTION':
      return `${head} objection | reason: ${String(c.reason)} | alternative: ${String(c.alternative)}`;
    case 'ACKNOWLEDGEMENT':
      return `${head} ${String(c.status)} | ${String(c.guidance ?? c.note ?? '')}`;
    default:
      return `${head} error ${String(c.error_code)} | ${lead(c.message, 120)}`;
  }
}

// A message's line, kept per message and dissent flag: every prompt of a phase shows the digests of the same earlier
// messages, and lead() (a regex and a split into characters per text) was a tenth of a discussion's prompt building.
// A record's messages are written once; one whose content or metadata was replaced is digested afresh.
const lines = new WeakMap<Message, { content: unknown; metadata: unknown; text: [string?, string?] }>();

function cachedLine(m: Message, dissent: boolean): string {
  let hit = lines.get(m);
  if (!hit || hit.content !== m.content || hit.metadata !== m.metadata) {
    hit = { content: m.content, metadata: m.metadata, text: [] };
    lines.set(m, hit);
  }
  const at = dissent ? 1 : 0;
  return (hit.text[at] ??= line(m, dissent));
}

// The action types an opinion may hold without dissenting: the two most recommended (every type tied with the second
// counts as second), the default opinions left out. Disagreement between the two leading options is the debate
// itself; dissent is a view outside it.
function leadingActions(messages: readonly Message[]): string[] {
  const counts: Record<string, number> = {};
  for (const m of messages)
    if (m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion) {
      const a = (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type;
      counts[a] = (counts[a] ?? 0) + 1;
    }
  const ranked = Object.keys(counts).sort((a, b) => counts[b] - counts[a]);
  const second = counts[ranked[1]] ?? 0;
  return ranked.filter((a, i) => i === 0 || counts[a] >= second);
}

// Whether a message is an opinion outside the leading actions.
function dissents(m: Message, leading: readonly string[]): boolean {
  if (m.message_type !== 'SPECIALIST_OPINION' || m.metadata.default_opinion) return false;
  return leading.indexOf((m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type) < 0;
}

// One line per message, an opinion outside the two leading actions marked as dissenting, so a reader sees
// disagreement without re-reading every opinion.
export function digestLines(messages: readonly Message[]): string[] {
  const leading = leadingActions(messages);
  return messages.map((m) => cachedLine(m, dissents(m, leading)));
}
