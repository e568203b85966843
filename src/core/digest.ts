// The compact digest of each answer that later phases read: what was proposed, why, how sure; full texts stay recorded.
import type { ContentOf, Message } from './messages.js';

// Free text in a digest is clipped at a sentence where one ends near the limit; the record keeps every word.
function clip(text: unknown, max: number): string {
  const s = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  const head = chars.slice(0, max).join('');
  const stop = Math.max(head.lastIndexOf('。'), head.lastIndexOf('. '));
  return `${stop > max * 0.6 ? head.slice(0, stop + 1) : head}…`;
}

// Evidence with numbers says more than evidence without; up to three items, numbers first.
function keyEvidence(items: readonly string[]): string[] {
  const withNumbers = items.filter((e) => /\d/.test(e));
  const rest = items.filter((e) => !/\d/.test(e));
  return withNumbers
    .concat(rest)
    .slice(0, 3)
    .map((e) => clip(e, 140));
}

type Digest = Record<string, unknown>;

function of(m: Message): Digest {
  const c = m.content as Record<string, unknown>;
  const base: Digest = { phase: m.phase, from: m.speaker };
  switch (m.message_type) {
    case 'SITUATION_REPORT': {
      const s = c as ContentOf<'SITUATION_REPORT'>;
      return {
        ...base,
        type: 'situation',
        severity: s.severity,
        summary: clip(s.summary, 240),
        data: s.data_points.slice(0, 10).map((p) => `${p.metric}=${p.value}${p.change ? ` (${p.change})` : ''}`),
      };
    }
    case 'SPECIALIST_OPINION': {
      const o = c as ContentOf<'SPECIALIST_OPINION'>;
      return {
        ...base,
        type: 'opinion',
        action: o.recommendation.action_type,
        intensity: o.recommendation.intensity,
        hypothesis: clip(o.hypothesis, 220),
        evidence: keyEvidence(o.evidence),
        stated_confidence: o.confidence,
        computed_confidence: m.metadata.computed_confidence ?? null,
        ...(m.metadata.default_opinion ? { default_opinion: true } : {}),
      };
    }
    case 'FEEDBACK_REQUEST':
      return { ...base, type: 'question', to: c.target_agent, question: clip(c.question, 200) };
    case 'FEEDBACK_RESPONSE':
      return {
        ...base,
        type: 'more_data',
        answer: clip(c.answer, 260),
        computed_confidence: m.metadata.computed_confidence ?? null,
      };
    case 'PERSPECTIVE_POSITIVE':
      return { ...base, type: 'positive', viewpoint: clip(c.viewpoint, 220), opportunity: clip(c.opportunity, 160) };
    case 'PERSPECTIVE_NEGATIVE':
      return {
        ...base,
        type: 'risk',
        risk: clip(c.risk, 220),
        concern: clip(c.concern, 160),
        counter_proposal: clip(c.counter_proposal, 160),
      };
    case 'PERSPECTIVE_HUMAN':
      return {
        ...base,
        type: 'human',
        reality_check: clip(c.reality_check, 220),
        suggestion: clip(c.practical_suggestion ?? c.human_insight, 160),
      };
    case 'GOVERNANCE_ETHICS':
    case 'GOVERNANCE_LEGAL':
      return {
        ...base,
        type: m.message_type === 'GOVERNANCE_ETHICS' ? 'ethics' : 'legal',
        check: c.check_result,
        concerns: ((c.concerns as string[]) ?? []).slice(0, 5).map((x) => clip(x, 160)),
      };
    case 'DECISION_DELIBERATION':
      return {
        ...base,
        type: 'deliberation',
        selected: c.selected_action_types,
        rationale: clip(c.rationale, 300),
      };
    case 'EXECUTION_ORDER': {
      const o = c as ContentOf<'EXECUTION_ORDER'>;
      return {
        ...base,
        type: 'order',
        decision_id: o.decision_id,
        actions: o.actions.map((a) => `${a.action_type}(${a.intensity})`),
        review_date: o.monitoring.review_date,
      };
    }
    // A person's objection and guidance are shown as written (bounded like any input before this).
    case 'OBJECTION':
      return { ...base, type: 'objection', reason: c.reason, alternative: c.alternative };
    case 'ACKNOWLEDGEMENT':
      return { ...base, type: 'acknowledgement', status: c.status, note: c.guidance ?? c.note ?? '' };
    default:
      return { ...base, type: 'error', code: c.error_code, message: clip(c.message, 200) };
  }
}

// Each message's digest, one line of compact JSON each. A specialist whose action is not the plurality's is marked
// as dissenting, so the decider sees disagreement without re-reading every opinion.
export function digestLines(messages: readonly Message[]): string[] {
  const counts: Record<string, number> = {};
  for (const m of messages)
    if (m.message_type === 'SPECIALIST_OPINION' && !m.metadata.default_opinion) {
      const a = (m.content as ContentOf<'SPECIALIST_OPINION'>).recommendation.action_type;
      counts[a] = (counts[a] ?? 0) + 1;
    }
  const top = Math.max(0, ...Object.keys(counts).map((k) => counts[k]));
  return messages.map((m) => {
    const d = of(m);
    if (d.type === 'opinion' && !d.default_opinion && counts[String(d.action)] < top) d.dissent = true;
    return JSON.stringify(d);
  });
}
