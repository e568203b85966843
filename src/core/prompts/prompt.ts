// Data as delimited, inert blocks, and the one-line brief of a message (the transcript, summaries of long discussions).
import type { Message } from '../discussion/messages.js';

// Data is fenced and escaped so nothing inside it can close the fence or pose as an instruction.
export function dataBlock(name: string, value: unknown): string {
  const body = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/<\/?data\b/gi, (m) =>
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
