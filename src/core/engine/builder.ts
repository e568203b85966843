// The message builder: turns answers into validated messages and records a step's status changes.
import { messageId } from '../discussion/ids.js';
import {
  validateContent,
  validateEnvelope,
  type Message,
  type MessageType,
  type Metadata,
} from '../discussion/messages.js';
import { costUsd, roundUsd } from '../providers/model-table.js';
import { transition } from '../discussion/state-machine.js';
import type { Discussion, Status } from '../types.js';
import type { AgentMemory } from '../memory/memory.js';
import type { Answer } from './ask.js';
import type { EngineEnv, StepResult } from './types.js';

export const SYSTEM = 'system';

function memoryIds(m: AgentMemory | undefined): { learnings?: string[]; directives?: string[] } {
  if (!m) return {};
  const out: { learnings?: string[]; directives?: string[] } = {};
  const ids = m.learnings.map((l) => l.id).concat(m.cases.map((c) => c.id));
  if (ids.length) out.learnings = ids;
  if (m.directives.length) out.directives = m.directives.map((x) => x.id);
  return out;
}

export class Builder {
  readonly out: StepResult;
  private seq: number;
  constructor(
    private readonly d: Discussion,
    private readonly env: EngineEnv,
  ) {
    this.seq = d.messages.length;
    this.out = { messages: [], status: d.status, transitions: [], orders: [], inbox: [], notes: [] };
  }
  to(status: Status): void {
    const next = transition(this.out.status, status);
    this.out.transitions.push({ from: this.out.status, to: next });
    this.out.status = next;
  }
  add(
    phase: number,
    speaker: string,
    type: MessageType,
    content: unknown,
    meta: Partial<Metadata> & { step_key: string },
  ): Message {
    const allow = this.env.settings.get('actions.allow_list');
    const parsed = validateContent(type, content, allow) as Record<string, unknown>;
    const m: Message = validateEnvelope({
      message_id: messageId(this.d.discussion_id, ++this.seq),
      discussion_id: this.d.discussion_id,
      phase,
      speaker,
      message_type: type,
      timestamp: this.env.isoNow(),
      content: parsed,
      metadata: { processing_time_ms: 0, model_used: 'kaigi', tokens_consumed: 0, fallback_level: 0, ...meta },
    });
    this.out.messages.push(m);
    return m;
  }
  answer(a: Answer, phase: number, type: MessageType, extra: Partial<Metadata> = {}): Message {
    const r = a.response;
    const stated =
      typeof (a.content as { confidence?: unknown }).confidence === 'number'
        ? (a.content as { confidence: number }).confidence
        : undefined;
    const meta: Partial<Metadata> & { step_key: string } = {
      ...memoryIds(a.memory),
      step_key: r.key.replace(/\/substitute$/, ''),
      processing_time_ms: Math.max(0, Math.round(r.ms)),
      model_used: r.model,
      tokens_consumed: Math.max(0, Math.round(r.tokensIn + r.tokensOut)),
      fallback_level: a.level,
      ...extra,
    };
    if (Number.isInteger(a.agent.prompt_version) && a.agent.prompt_version >= 1)
      meta.prompt_version = a.agent.prompt_version;
    if (stated !== undefined) meta.stated_confidence = stated;
    const price = this.env.priceOf(r.model);
    if (price) meta.cost_usd = roundUsd(costUsd(price, r.tokensIn, r.tokensOut, r));
    if (a.errorCode) meta.error_code = a.errorCode;
    if (a.isDefault) meta.default_opinion = true;
    if (a.substitute) meta.substitute = a.substitute;
    if (a.note) meta.note = a.note.slice(0, 1000);
    return this.add(phase, a.agent.agent_id, type, a.content, meta);
  }
  system(phase: number, code: Metadata['error_code'] & string, message: string, level: number): Message {
    return this.add(
      phase,
      SYSTEM,
      'ERROR',
      { error_code: code, message },
      {
        step_key: `${this.d.discussion_id}/${phase}/${SYSTEM}/${this.seq + 1}`,
        fallback_level: level,
        error_code: code,
      },
    );
  }
  // Stops the discussion for a person: the ERROR message, ESCALATED, and an Inbox item titled by the code.
  escalate(
    phase: number,
    code: Metadata['error_code'] & string,
    text: string,
    inbox: Pick<StepResult['inbox'][number], 'from_agent' | 'type' | 'priority'>,
  ): void {
    this.system(phase, code, text, 5);
    this.to('ESCALATED');
    const id = this.d.discussion_id;
    this.out.inbox.push({ ...inbox, title: `${code} ${id}`, body: text, discussion_id: id });
  }
  note(text: string): void {
    if (this.d.notes.indexOf(text) < 0 && this.out.notes.indexOf(text) < 0) this.out.notes.push(text);
  }
}
