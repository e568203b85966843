// What one room message may ask of the council: at most rooms.max_mentions_per_message
// council agents, at most rooms.agent_replies_per_minute answers asked of a room in a minute, and none once the
// client's daily budget or the API clients' share of the day is spent (src/core/api/api-budget.ts).
import { RateLimitError, ValidationError } from '../../core/errors.js';
import type { AgentDef } from '../../core/types.js';
import { checkClientBudget } from '../api/api-budget.js';
import type { IndexRecord } from './room-data.js';
import type { Council } from '../sheet-council.js';
import type { Caller } from '../routes/route.js';
import { parseInstant } from '../../core/instant.js';

// One call into a room; defined here, below room-writes.ts, so the two modules import one way.
export interface RoomCall {
  council: Council;
  caller: Caller;
  // The call's idempotency key (an MCP client's JSON-RPC id); empty when it has none.
  requestKey: string;
}

// Before anything is read under the lock: a message that mentions too many agents is refused whole, not cut, so
// the client knows which agents will answer.
export function checkMentions(call: RoomCall, agents: number): void {
  const max = call.council.settings().number('rooms.max_mentions_per_message');
  if (agents > max)
    throw new ValidationError(
      `The message mentions ${agents} council agents; at most ${max} may be asked at once (Settings rooms.max_mentions_per_message).`,
      'TOO_MANY_MENTIONS',
    );
}

// Under the room lock: the answers this room's messages asked for in the last minute, and the client's budget.
export function checkReplies(
  call: RoomCall,
  index: readonly IndexRecord[],
  room: string,
  agents: readonly AgentDef[],
  asked: number,
  now: number,
): void {
  const ids = new Set(agents.filter((a) => a.active).map((a) => a.agent_id.toLowerCase()));
  const since = now - 60_000;
  let recent = 0;
  for (const m of index)
    if (m.room === room && !m.replyTo && parseInstant(m.timestamp) >= since)
      recent += m.mentions.filter((n) => ids.has(n.toLowerCase())).length;
  const max = call.council.settings().number('rooms.agent_replies_per_minute');
  if (recent + asked > max)
    throw new RateLimitError(
      `${room} has asked council agents for ${recent} answers in the last minute; at most ${max} a minute (Settings rooms.agent_replies_per_minute).`,
      60,
    );
  checkClientBudget(call.council, call.caller.name, 0);
}
