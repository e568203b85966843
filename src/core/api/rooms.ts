// Rooms as pure rules: names, @mentions, paging from the newest message back, presence, and how a
// discussion's messages read as a room's.
import { ConflictError, TooLargeError, ValidationError } from '../errors.js';
import type { Message } from '../discussion/messages.js';
import { MAIN_TEXT_KEYS } from '../prompts/prompt.js';

// Room and agent names are letters, digits, hyphens and underscores.
export const NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
// Discussions are rooms under their id; a free room may not take a name of that form.
const DISCUSSION_ROOM = /^DISC-/i;
// Names that would pass for Kaigi itself in a room.
const RESERVED_NAMES = ['kaigi', 'council', 'system', 'human'];
// A message mentions at most this many names; more @tokens are text like any other.
const MAX_MENTIONS = 20;

export function isDiscussionRoom(name: string): boolean {
  return DISCUSSION_ROOM.test(name);
}

function checkName(kind: 'room' | 'agent', name: string, maxChars: number): string {
  const code = kind === 'room' ? 'INVALID_ROOM_NAME' : 'INVALID_AGENT_NAME';
  if (!NAME_PATTERN.test(name))
    throw new ValidationError(`A${kind === 'agent' ? 'n' : ''} ${kind} name is letters, digits, - and _.`, code);
  if (name.length > maxChars)
    throw new TooLargeError(`A ${kind} name is at most ${maxChars} characters (Settings rooms.max_name_chars).`, code);
  return name;
}

// A name a client may create a room under: well formed, within the limit, and not a discussion's.
export function checkRoomName(name: string, maxChars: number): string {
  checkName('room', name, maxChars);
  if (isDiscussionRoom(name))
    throw new ValidationError(`Room names starting with DISC- are the discussions' own rooms.`, 'INVALID_ROOM_NAME');
  return name;
}

// A name a client may speak under: well formed, within the limit, and neither a council agent's id (those speak for
// the council, through its models) nor one of Kaigi's own names.
export function checkAgentName(name: string, maxChars: number, councilAgents: readonly string[]): string {
  checkName('agent', name, maxChars);
  const lower = name.toLowerCase();
  if (councilAgents.some((a) => a.toLowerCase() === lower) || RESERVED_NAMES.indexOf(lower) >= 0)
    throw new ConflictError(
      `${name} is reserved for the council's own answers; enter under another name.`,
      'AGENT_NAME_RESERVED',
    );
  return name;
}

// The names a message mentions, in order, each once: `@name` not glued to a word before it (an e-mail address
// is no mention), as long as a name may be.
export function parseMentions(text: string, maxChars: number): string[] {
  const out: string[] = [];
  const re = /(^|[^A-Za-z0-9_.@-])@([A-Za-z0-9_-]+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const name = m[2];
    if (name.length <= maxChars && out.indexOf(name) < 0) out.push(name);
    if (out.length >= MAX_MENTIONS) break;
  }
  return out;
}

// A message's length as the room limits count it: characters (code points), so an emoji is one.
export function charCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++;
    n++;
  }
  return n;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

// One page of a chronological list, counted from the newest: offset skips the newest messages, limit takes the
// ones before them, the page stays chronological, and hasMore says whether older messages remain.
export function pageFromNewest<T>(all: readonly T[], limit: number, offset: number): Page<T> {
  const end = Math.max(0, all.length - offset);
  const start = Math.max(0, end - limit);
  return { items: all.slice(start, end), hasMore: start > 0 };
}

// Online while the latest call of the member's name, or of the client it entered with, is within the window.
export function isOnline(lastSeen: readonly (number | null)[], now: number, windowSeconds: number): boolean {
  const latest = Math.max(0, ...lastSeen.map((t) => t ?? 0));
  return latest > 0 && now - latest <= windowSeconds * 1000;
}

export interface RoomProfile {
  role?: string;
  description?: string;
  capabilities?: string[];
  metadata?: Record<string, unknown>;
}

// A message as get_messages answers it, plus the message a council agent answered.
export interface RoomMessageView {
  id: string;
  agentName: string;
  message: string;
  timestamp: string;
  mentions: string[];
  metadata?: Record<string, unknown>;
  replyTo?: string;
}

// The readable text of a discussion message: its main field whole, with the phase and type in front; an order
// names its actions and review. The structured content travels in the metadata.
function discussionText(m: Message): string {
  const c = m.content as Record<string, unknown>;
  const head = `[P${m.phase} ${m.message_type}]`;
  if (m.message_type === 'EXECUTION_ORDER') {
    const actions = Array.isArray(c.actions) ? (c.actions as { action_type?: string; intensity?: string }[]) : [];
    const review = (c.monitoring as { review_date?: string } | undefined)?.review_date ?? '';
    return `${head} ${String(c.decision_id ?? '')}: ${actions.map((a) => `${a.action_type}(${a.intensity})`).join(', ')}${review ? `; review ${review}` : ''}`;
  }
  if (typeof c.check_result === 'string')
    return `${head} ${c.check_result}${typeof c.notes === 'string' && c.notes ? `: ${c.notes}` : ''}`;
  const key = MAIN_TEXT_KEYS.find((k) => typeof c[k] === 'string');
  return key ? `${head} ${String(c[key])}` : head;
}

// A discussion's message as a message of its read-only room: the speaker as the sender; a feedback request
// mentions the agent it asks.
export function discussionMessageView(m: Message): RoomMessageView {
  const target = (m.content as { target_agent?: unknown }).target_agent;
  return {
    id: m.message_id,
    agentName: m.speaker,
    message: discussionText(m),
    timestamp: m.timestamp,
    mentions: m.message_type === 'FEEDBACK_REQUEST' && typeof target === 'string' && target ? [target] : [],
    metadata: {
      discussion_id: m.discussion_id,
      phase: m.phase,
      message_type: m.message_type,
      content: m.content,
      model_used: m.metadata.model_used,
      fallback_level: m.metadata.fallback_level,
    },
  };
}

// Messages that mention a name (mentionsOnly): the name as mentioned, matched exactly.
export function mentioning<T extends { mentions: string[] }>(messages: readonly T[], name: string): T[] {
  return messages.filter((m) => m.mentions.indexOf(name) >= 0);
}
