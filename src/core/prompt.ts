// Builds what a model sees: the agent's prompt as the system text, and the data as delimited, inert blocks.
import type { Message } from './messages.js';
import type { AgentContext, Expectation } from './provider.js';
import { series, metricsOf } from './kpi.js';

// Data is fenced and escaped so nothing inside it can close the fence or pose as an instruction.
export function dataBlock(name: string, value: unknown): string {
  const body = (typeof value === 'string' ? value : JSON.stringify(value, null, 1)).replace(/<\/?data\b/gi, (m) =>
    m.replace('<', '‹'),
  );
  return `<data name="${name}">\n${body}\n</data>`;
}

// The field of a message's content that says most in one line, in order of preference (the transcript, a room).
export const MAIN_TEXT_KEYS = [
  'summary',
  'analysis',
  'viewpoint',
  'risk',
  'reality_check',
  'notes',
  'rationale',
  'question',
  'answer',
  'reason',
  'status',
  'message',
] as const;

export function briefMessage(m: Message): string {
  const c = m.content as Record<string, unknown>;
  if (m.message_type === 'EXECUTION_ORDER') {
    const o = c as {
      decision_id: string;
      actions: { action_type: string; intensity: string }[];
      monitoring: { review_date: string };
    };
    return `[P${m.phase} ${m.speaker} ${m.message_type}] ${o.decision_id}: ${o.actions.map((a) => `${a.action_type}(${a.intensity})`).join(', ')}; review ${o.monitoring.review_date}`;
  }
  const key = MAIN_TEXT_KEYS.find((k) => typeof c[k] === 'string');
  const rec = (c.recommendation as { action_type?: string } | undefined)?.action_type;
  const conf = typeof c.confidence === 'number' ? ` confidence=${c.confidence}` : '';
  const check = typeof c.check_result === 'string' ? ` ${c.check_result}` : '';
  return `[P${m.phase} ${m.speaker} ${m.message_type}${check}${rec ? ` → ${rec}` : ''}${conf}] ${key ? String(c[key]).slice(0, 300) : ''}`;
}

// The summary that replaces earlier messages once a discussion passes its token budget.
export function summarize(messages: Message[]): string {
  return messages.map(briefMessage).join('\n');
}

const TASK: Record<string, [string, string]> = {
  LEARNING: [
    '決定とその結果（outcome）から、次の議論で役立つ学びを抽出し、{"learnings": [...]} の JSON を返してください。各学びは scope（individual は特定エージェント向け、shared は全員向け）、agent_id、category（施策の種類など）、content、context を持ちます。',
    'From the decision and its measured outcome, extract the learnings that will help next time and return JSON of the form {"learnings": [...]}. Each has scope (individual for one agent, shared for all), agent_id, category (such as the action type), content and context.',
  ],
  DECISION: [
    '全意見を重み付けし、{"deliberation": DECISION_DELIBERATION, "order": EXECUTION_ORDER} の形の JSON を返してください。',
    'Weigh every opinion and return JSON of the form {"deliberation": DECISION_DELIBERATION, "order": EXECUTION_ORDER}.',
  ],
};

export function buildUserText(ctx: AgentContext, expect: Expectation): string {
  const parts: string[] = [];
  parts.push(
    dataBlock('trigger', {
      ...ctx.trigger,
      priority: ctx.priority,
      discussion_id: ctx.discussion_id,
      today: ctx.today,
    }),
  );
  if (ctx.member) parts.push(dataBlock('member', ctx.member));
  const rows: string[] = ['date,metric,value'];
  for (const metric of metricsOf(ctx.kpi, ctx.trigger.target_user_id)) {
    for (const p of series(ctx.kpi, ctx.trigger.target_user_id, metric).slice(-14))
      rows.push(`${p.date},${metric},${p.value}`);
  }
  if (rows.length > 1) parts.push(dataBlock('kpi_last_14_days', rows.join('\n')));
  if (ctx.dataNotes.length) parts.push(dataBlock('data_notes', ctx.dataNotes));
  if (ctx.summary) parts.push(dataBlock('summary_of_earlier_messages', ctx.summary));
  if (ctx.earlier.length)
    parts.push(
      dataBlock(
        'earlier_messages',
        ctx.earlier.map((m) => ({
          speaker: m.speaker,
          phase: m.phase,
          type: m.message_type,
          content: m.content,
          computed_confidence: m.metadata.computed_confidence,
        })),
      ),
    );
  const mem = ctx.memory;
  if (mem?.learnings.length)
    parts.push(
      dataBlock(
        'retrieved_learnings',
        mem.learnings.map((l) => ({ id: l.id, scope: l.scope, confidence: l.confidence, learning: l.content })),
      ),
    );
  if (mem?.cases.length)
    parts.push(
      dataBlock(
        'similar_past_cases',
        mem.cases.map((c) => ({ id: c.id, case: c.content, verdict: c.verdict, similarity: c.similarity })),
      ),
    );
  if (mem?.nextActions.length) parts.push(dataBlock('your_next_actions_from_recent_reflections', mem.nextActions));
  if (mem?.directives.length)
    parts.push(
      dataBlock(
        'directives_from_people',
        mem.directives.map((x) => ({ id: x.id, priority: x.priority, directive: x.content })),
      ),
    );
  if (ctx.outcome) parts.push(dataBlock('outcome', ctx.outcome));
  if (ctx.objection) parts.push(dataBlock('objection', ctx.objection));
  if (ctx.guidance) parts.push(dataBlock('human_guidance', ctx.guidance));
  if (ctx.feedbackQuestion) parts.push(dataBlock('feedback_question', ctx.feedbackQuestion));
  parts.push(dataBlock('allowed_action_types', ctx.allowList));
  if (ctx.decisionId) parts.push(dataBlock('decision_id', ctx.decisionId));
  const task = TASK[expect] ?? [
    `${expect} のスキーマに合う JSON オブジェクトを返してください。`,
    `Return a JSON object matching the ${expect} schema.`,
  ];
  parts.push(ctx.lang === 'ja' ? `# 依頼\n${task[0]}` : `# Task\n${task[1]}`);
  return parts.join('\n\n');
}
