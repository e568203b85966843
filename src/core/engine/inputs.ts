// Inputs as a prompt shows them: each one bounded to limits.input_tokens, pointing to its full record.
import { boundValue } from '../prompts/bounded.js';
import type { AgentMemory } from '../memory/memory.js';
import type { Message } from '../discussion/messages.js';
import type { AgentContext } from '../provider.js';
import type { Settings } from '../settings.js';
import type { Discussion, Member, Trigger } from '../types.js';

export function inputLimit(s: Settings): number {
  return s.number('limits.input_tokens');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

// The trigger with its context bounded; the Discussion Log keeps the whole context (overflowing when long).
export function boundTrigger(d: Discussion, limit: number): Trigger {
  const context = boundValue(
    d.trigger.context,
    limit,
    `Discussion Log ${d.discussion_id} trigger_context_json`,
    'context',
  );
  if (context === d.trigger.context) return d.trigger;
  // A context whose own structure passes the limit comes back as one cut text; the prompt still gets an object.
  return { ...d.trigger, context: isRecord(context) ? context : { excerpt: context } };
}

export function boundMember(m: Member | null, limit: number): Member | null {
  if (!m) return m;
  const out = boundValue(m, limit, `Members ${m.member_id}`);
  return isRecord(out) ? (out as unknown as Member) : { ...m, profile: { excerpt: out } };
}

// Each earlier message is one input: a model's long answer, a person's objection or guidance.
export function boundMessages(messages: readonly Message[], limit: number): Message[] {
  return messages.map((m) => {
    const content = boundValue(m.content, limit, `Messages ${m.message_id} message_json`, 'content');
    return content === m.content
      ? m
      : ({ ...m, content: isRecord(content) ? content : { excerpt: content } } as Message);
  });
}

// Lines of the notes column a prompt is given (the watcher's evidence): a person may have edited them.
export function boundNotes(d: Discussion, notes: readonly string[], limit: number): string[] {
  return notes.map((n) => String(boundValue(n, limit, `Discussion Log ${d.discussion_id} notes`)));
}

// Where a person's or an agent's text came from: the latest message holding it, else the discussion's messages.
function messageWith(d: Discussion, field: string, value: unknown): string {
  for (let i = d.messages.length - 1; i >= 0; i--) {
    const m = d.messages[i];
    if ((m.content as Record<string, unknown>)[field] === value) return `Messages ${m.message_id} message_json`;
  }
  return `Messages of ${d.discussion_id}`;
}

export function boundExtra(d: Discussion, extra: Partial<AgentContext>, limit: number): Partial<AgentContext> {
  const out = { ...extra };
  if (extra.objection) {
    const o = boundValue(extra.objection, limit, messageWith(d, 'reason', extra.objection.reason), 'content');
    out.objection = isRecord(o)
      ? (o as AgentContext['objection'])
      : { ...extra.objection, reason: String(o), alternative: '', evidence: [] };
  }
  if (extra.guidance)
    out.guidance = String(
      boundValue(extra.guidance, limit, messageWith(d, 'guidance', extra.guidance), 'content.guidance'),
    );
  if (extra.feedbackQuestion)
    out.feedbackQuestion = String(
      boundValue(extra.feedbackQuestion, limit, messageWith(d, 'question', extra.feedbackQuestion), 'content.question'),
    );
  return out;
}

// Memory items are inputs too: a person's directive, a learning or case a model wrote, a reflection's next action.
export function boundMemory(mem: AgentMemory, limit: number): AgentMemory {
  const text = (s: string, where: string) => String(boundValue(s, limit, where));
  return {
    learnings: mem.learnings.map((l) => ({ ...l, content: text(l.content, `Learnings ${l.id} content`) })),
    cases: mem.cases.map((c) => ({ ...c, content: text(c.content, `Learnings ${c.id} content`) })),
    nextActions: mem.nextActions.map((a) => text(a, 'Reflections next_actions_json')),
    directives: mem.directives.map((x) => ({ ...x, content: text(x.content, `Directives ${x.id} content`) })),
  };
}
