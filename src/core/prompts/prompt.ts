// Data as delimited, inert blocks, and the one-line brief of a message (the transcript, summaries of long discussions).
import type { Message } from '../discussion/messages.js';

// Characters that render as nothing: a tag split by one still reads as a tag to a model.
// Combining ones (CGJ, the variation selectors) as alternatives: a class may not mix them with other characters.
const INVISIBLE =
  /[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]|\u034f|\u180b|\u180c|\u180d|\u180e|\u180f|[\ufe00-\ufe0f]/g;

// Data is fenced so nothing inside it can close the fence or pose as a new block. The body is read as a model would
// see it first: full-width and small-form look-alikes folded to ASCII (NFKC on those alone, so ＜／ｄａｔａ＞ reads
// </data> while an ellipsis or a circled number stays as written) and invisible characters dropped; then every "</"
// and every "<data" left in it is defused with a look-alike bracket (‹), so no tag a model could take for the
// fence's end survives, whatever the letters after it. Only the prompt's copy changes: the record keeps the original.
function fenceBody(text: string): string {
  return text
    .replace(/[\ufe50-\ufe6b\uff01-\uff5e]/g, (c) => c.normalize('NFKC'))
    .replace(INVISIBLE, '')
    .replace(/<\s*\//g, '‹/')
    .replace(/<\s*data\b/gi, '‹data');
}

export function dataBlock(name: string, value: unknown): string {
  const body = fenceBody(typeof value === 'string' ? value : JSON.stringify(value));
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
