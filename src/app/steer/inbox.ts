// The Inbox from the sidebar: list, mark read or archived, and reply (the reply becomes a directive to the agent).
import { rowsOf } from '../../../sheets-schema/index.js';
import { bumpConfigVersion } from '../../store/store.js';
import { dayOf } from '../../store/records.js';
import { props } from '../../store/services.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { writeDirective } from '../surfaces/admin.js';
import type { Council } from '../sheet-council.js';
import { plainRow, text } from './plain.js';
import { speakerName } from '../../core/labels.js';
import { INBOX_STATUSES, INBOX_TYPES } from '../../core/discussion/vocab.js';
import { suggestionView } from './prompt-suggestion.js';
import { InboxRows } from '../../store/repositories/inbox-rows.js';

const cols = rowsOf('inbox');
const STATUSES: readonly string[] = INBOX_STATUSES;
// The sidebar shows the newest items; older ones stay in the tab.
const LIST_LIMIT = 200;

export type InboxItem = Record<string, unknown> & { inbox_id: string; status: string };

const senderOf = (from: unknown): string => (text(from) === 'system' ? 'kaigi' : text(from));

export interface InboxFilter {
  status?: string;
  type?: string;
  agent?: string;
  limit?: number;
}

// The newest items (one read of the tail, one more only when a long body lives in Overflow), newest first, narrowed
// by state, type and sender; a filter value the Inbox cannot hold is refused rather than answered with nothing.
export function listInbox(council: Council, filter: InboxFilter = {}): InboxItem[] {
  const status = filter?.status ? String(filter.status) : '';
  if (status && STATUSES.indexOf(status) < 0)
    throw new ValidationError(`status must be one of ${STATUSES.join(', ')}`, 'invalid_status');
  const type = filter?.type ? String(filter.type) : '';
  if (type && (INBOX_TYPES as readonly string[]).indexOf(type) < 0)
    throw new ValidationError(`type must be one of ${INBOX_TYPES.join(', ')}, not "${type}"`, 'invalid_type');
  const agent = filter?.agent ? String(filter.agent) : '';
  // Kaigi's own notices are sent as "kaigi" or "system" and are asked for as "kaigi"; any other sender is an agent.
  const senders = ['kaigi'].concat(council.config.agents().map((a) => a.agent_id));
  if (agent && senders.indexOf(agent) < 0)
    throw new ValidationError(`agent must be one of ${senders.join(', ')}, not "${agent}"`, 'invalid_agent');
  const limit = Math.max(1, Math.min(LIST_LIMIT, Number(filter?.limit) || LIST_LIMIT));
  const state = council.store.readState();
  const last = state.tails.inbox?.last ?? 1;
  const from = Math.max(2, last - LIST_LIMIT + 1);
  const raw = council.store.readTail(state, 'inbox', from).filter((v) => text(v[0]) !== '');
  const agents = council.config.agents();
  // The sender by name in both languages (the page picks one); the id stays in from_agent. A prompt suggestion
  // carries its change as a diff against the active prompt.
  const named = (item: InboxItem): InboxItem => {
    // Kaigi's own notices are written from 'system': named as Kaigi, as the sender filter calls them.
    const id = senderOf(item.from_agent);
    const suggestion = suggestionView(council, item);
    return {
      ...item,
      from_name_ja: speakerName(agents, id, 'ja'),
      from_name_en: speakerName(agents, id, 'en'),
      ...(suggestion ? { suggestion } : {}),
    };
  };
  const wanted = raw.filter((v) => {
    const row = cols.read(v);
    return (
      (!status || row.status === status) &&
      (!type || row.type === type) &&
      (!agent || senderOf(row.from_agent) === agent)
    );
  });
  return council.store
    .resolveOverflow(wanted)
    .map((v) => named(plainRow(cols.read(v)) as InboxItem))
    .reverse()
    .slice(0, limit);
}

function locate(council: Council, id: string): { row: number; values: unknown[] } {
  const row = new InboxRows(council.store).rowOf(id);
  const values = row ? council.store.readRows('inbox', row, 1)[0] : null;
  if (!row || !values || cols.read(values).inbox_id !== id) throw new NotFoundError(`no Inbox item ${id}`);
  return { row, values };
}

export function setInboxStatus(
  council: Council,
  input: { inbox_id: string; status: string },
  by: string,
): { inbox_id: string; status: string } {
  const id = text(input?.inbox_id);
  const status = text(input?.status);
  if (!id) throw new ValidationError('inbox_id is required');
  if (status !== 'read' && status !== 'archived')
    throw new ValidationError('status must be read or archived', 'invalid_status');
  return council.store.withLock((state) => {
    const { row, values } = locate(council, id);
    const from = text(cols.read(values).status);
    if (from === status) return { inbox_id: id, status };
    const c = council.store.begin(state, by);
    const now = council.now();
    c.setMarker('inbox', row, cols.write({ status, updated_at: new Date(now) }, values), `Inbox:${id}`);
    c.audit({ actor: by, event: 'inbox_status', tab: 'Inbox', row_key: id, payload: { from, to: status } });
    c.run(new Date(now).toISOString());
    return { inbox_id: id, status };
  });
}

// A person replies to an item once a day: a reply that could steer an agent is not a channel to repeat.
function onceToday(council: Council, id: string, by: string): void {
  const day = dayOf(council.now(), council.tz);
  const raw = props.get(PROPERTY_KEYS.inboxReplies);
  let held: { day: string; seen: string[] } = { day, seen: [] };
  try {
    const parsed = raw ? (JSON.parse(raw) as { day?: unknown; seen?: unknown }) : null;
    if (parsed && parsed.day === day && Array.isArray(parsed.seen)) held = { day, seen: parsed.seen.map(String) };
  } catch {
    // An unreadable record starts today's afresh: the limit is a brake, not a ledger.
  }
  const key = `${id}|${by}`;
  if (held.seen.indexOf(key) >= 0)
    throw new ConflictError(`${by} has replied to ${id} today already: one reply per item a day`, 'reply_limit');
  props.set({ [PROPERTY_KEYS.inboxReplies]: JSON.stringify({ day, seen: held.seen.concat([key]) }) });
}

// In one commit: the reply in `response`, the item `responded`, and, when a coordinator replies, a directive to the
// agent that wrote it, which reaches that agent in its next discussion (src/app/discussions/decision-memory.ts
// memoryFor). Anyone else's reply is a note: kept and shown in the Inbox, never sent to a model (a directive is words
// every later prompt of that agent reads, which addDirective keeps for coordinators). An item from Kaigi itself (a
// notice) has no agent to direct. directive_id is null when no directive was written.
export function replyInbox(
  council: Council,
  input: { inbox_id: string; reply: string },
  by: string,
  directs = true,
): { inbox_id: string; directive_id: string | null } {
  const id = text(input?.inbox_id);
  const reply = typeof input?.reply === 'string' ? input.reply : '';
  if (!id) throw new ValidationError('inbox_id is required');
  if (!reply.trim()) throw new ValidationError('a reply needs text', 'invalid_reply');
  if (reply.length > 20000) throw new ValidationError('a reply is at most 20000 characters', 'invalid_reply');
  const agents = council.config.agents().map((a) => a.agent_id);
  const out = council.store.withLock((state) => {
    const { row, values } = locate(council, id);
    const item = cols.read(values);
    const sender = text(item.from_agent);
    onceToday(council, id, by);
    const c = council.store.begin(state, by);
    const now = council.now();
    const directive =
      directs && agents.indexOf(sender) >= 0
        ? writeDirective(
            council,
            c,
            {
              type: 'inbox_reply',
              content: `Reply to ${id} (${text(item.title)}): ${reply}`,
              target_agents: [sender],
              priority: (['low', 'normal', 'high', 'urgent'].indexOf(text(item.priority)) >= 0
                ? text(item.priority)
                : 'normal') as 'normal',
              by,
            },
            now,
            false,
          ).directive_id
        : null;
    c.setMarker(
      'inbox',
      row,
      cols.write({ status: 'responded', response: reply, updated_at: new Date(now) }, values),
      `Inbox:${id}`,
    );
    c.audit({
      actor: by,
      event: 'inbox_reply',
      tab: 'Inbox',
      row_key: id,
      payload: { directive_id: directive, ...(directs ? {} : { note_only: true }) },
    });
    c.run(new Date(now).toISOString());
    return { inbox_id: id, directive_id: directive };
  });
  if (out.directive_id) bumpConfigVersion(['directives']);
  return out;
}
