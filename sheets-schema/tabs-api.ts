// The tabs of the web API and rooms (SPEC §11, seed 004): rooms, who is in them, their messages, and the API log.
import { col, type TabSpec } from './types.js';

const MEMBER_STATUSES = ['in', 'out'] as const;

export const API_TABS = [
  {
    key: 'rooms',
    audit: { key: 'room_name' },
    name: 'Rooms',
    nameJa: 'ルーム',
    kind: 'log',
    frozenRows: 1,
    protected: true,
    description:
      'Free rooms clients created (seed 004); every discussion is also a read-only room and has no row here.',
    columns: [
      col('room_name', 'id', 160, 'Room name: letters, digits, hyphen and underscore'),
      col('description', 'text', 260, 'What the room is for'),
      col('created_by', 'text', 140, 'The API client that created it'),
      col('created_at', 'datetime', 150, 'Creation time'),
      col('cleared_through', 'integer', 110, 'Messages up to this room sequence number are hidden from the room view'),
      col('cleared_at', 'datetime', 150, 'When the room was last cleared'),
      col('cleared_by', 'text', 140, 'The API client that cleared it'),
    ],
  },
  {
    key: 'room_members',
    audit: { key: 'member_key' },
    name: 'Room Members',
    nameJa: 'ルーム参加者',
    kind: 'log',
    frozenRows: 1,
    protected: true,
    description: 'Who entered which room, with their profile; online status comes from their recent calls.',
    columns: [
      col('member_key', 'id', 220, 'room_name/agent_name'),
      col('room_name', 'text', 160, 'Room'),
      col('agent_name', 'text', 160, 'The name the client entered with'),
      col('client', 'text', 140, 'The API client that entered'),
      col('status', 'enum', 70, 'in or out', MEMBER_STATUSES),
      col('profile_json', 'json', 260, 'Profile: role, description, capabilities, metadata'),
      col('joined_at', 'datetime', 150, 'Last entered'),
      col('left_at', 'datetime', 150, 'Last left'),
    ],
  },
  {
    key: 'room_messages',
    audit: { key: 'message_id' },
    name: 'Room Messages',
    nameJa: 'ルームメッセージ',
    kind: 'log',
    frozenRows: 1,
    protected: true,
    description: 'Messages sent to free rooms, and council agents’ answers to mentions; kept when a room is cleared.',
    columns: [
      col('message_id', 'id', 200, 'RMSG-…'),
      col('room_name', 'text', 160, 'Room'),
      col('seq', 'integer', 70, 'Sequence number within the room'),
      col('agent_name', 'text', 160, 'Sender'),
      col('client', 'text', 140, 'The API client that sent it, or council for an agent’s answer'),
      col('mentions_json', 'json', 180, 'Names mentioned with @'),
      col('reply_to', 'text', 200, 'The message a council agent answered'),
      col('request_key', 'text', 200, 'Idempotency key of the call that sent it'),
      col('timestamp', 'datetime', 150, 'When it was sent'),
      col('size_chars', 'integer', 90, 'Characters of the message and its metadata as stored'),
      // The long columns come last, so the room index (everything above) is read in one range without them.
      col('message', 'text', 420, 'The message, as sent (text, never a formula)'),
      col('metadata_json', 'json', 220, 'Metadata the sender attached'),
    ],
  },
  {
    key: 'api_log',
    name: 'API Log',
    nameJa: 'APIログ',
    kind: 'log',
    frozenRows: 1,
    protected: true,
    description: 'One row per web API or MCP call: who, what, the status and how long it took; never the token.',
    columns: [
      col('time', 'datetime', 150, 'When the call arrived'),
      col('client', 'text', 140, 'API client name, or empty when the token was missing or bad'),
      col('call', 'text', 260, 'METHOD /route, or mcp METHOD [tool]'),
      col('status', 'integer', 70, 'Status in the answer'),
      col('code', 'text', 160, 'Error code, when the answer is an error'),
      col('duration_ms', 'integer', 90, 'Time the execution took to answer'),
    ],
  },
] as const satisfies readonly TabSpec[];
