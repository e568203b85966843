// The zod inputs of the room operations: one schema serves a REST call (body, query string and the {roomName} path
// segment merged) and an MCP tool's arguments. Query strings carry numbers and booleans as text, so those are read
// from text too, while the generated JSON Schema still says number and boolean.
import { z } from '../../../core/zod.js';
import { NAME_PATTERN } from '../../../core/api/rooms.js';

const NAME_RULE = 'letters, digits, hyphens and underscores';

export const roomName = () =>
  z
    .string()
    .regex(NAME_PATTERN, `a room name is ${NAME_RULE}`)
    .describe(`Room name (${NAME_RULE}); a discussion's room is its id, DISC-…`);

// A name to look for (list_rooms, get_messages): any member's.
export const agentName = () =>
  z.string().regex(NAME_PATTERN, `an agent name is ${NAME_RULE}`).describe(`An agent name in the rooms (${NAME_RULE})`);

// Who acts (enter, leave, send): a room member is its API client, so this is the client's own name or absent; any
// other name is refused (src/app/rooms/room-writes.ts memberName).
export const ownAgentName = () =>
  z
    .string()
    .describe("Your API client's name, which is your name in the rooms (the default); any other name is refused")
    .optional();

// A number from JSON, or from a query string's text.
function numberFrom(schema: z.ZodNumber) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
}

// A boolean from JSON, or "true"/"false" from a query string.
function booleanFrom() {
  return z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
}

export const limitInput = () => numberFrom(z.number().int().min(1).max(500));
export const offsetInput = () => numberFrom(z.number().int().min(0));
export const flagInput = booleanFrom;

export const profileInput = () =>
  z
    .object({
      role: z.string().max(200).optional().describe('Role, e.g. coordinator, analyzer, reporter'),
      description: z.string().max(2000).optional(),
      capabilities: z.array(z.string().max(200)).max(50).optional(),
      metadata: z.record(z.string(), z.unknown()).optional().describe('Any other custom metadata'),
    })
    .describe('Your profile in the room, shown by list_room_users');

export const metadataInput = () =>
  z.record(z.string(), z.unknown()).describe('Optional metadata kept with the message');
