// A council agent answers a room message that mentioned it: asked through its own model (the daily budget and
// the rules fallback as for any answer), with the room's recent messages as delimited data, and written back to
// the room as the agent's message, once per mentioning message.
import { rowsOf } from '../../../sheets-schema/index.js';
import { cellDate, dayOf } from '../../store/records.js';
import { answerErrors, type Message, type RoomAnswer } from '../../core/discussion/messages.js';
import type { AgentRequest, AgentResponse, RoomLine } from '../../core/provider.js';
import { BUDGET_NOTE } from '../../core/providers/budget.js';
import { costUsd, modelPrice, pricesOf, roundUsd } from '../../core/providers/model-table.js';
import { RulesProvider } from '../../core/providers/rules.js';
import { roomAnswerRequest, ruleRoomAnswer } from '../../core/api/rooms-answer.js';
import type { AgentDef } from '../../core/types.js';
import { chargeRoomAnswer, clientMayAnswer } from '../api/api-budget.js';
import type { Council } from '../sheet-council.js';
import type { RoomReplyPayload } from '../../core/queue-tasks.js';
import { readTexts, type IndexRecord, type RoomRecord } from './room-data.js';
import { withRoomLock } from './room-lock.js';
import { RoomSnapshot } from './room-snapshot.js';

const messageCols = rowsOf('room_messages');
// The client a council agent's answers are recorded under.
const COUNCIL_CLIENT = 'council';

// Why nothing was written, or the id of the answer written (now or by an earlier run).
export type ReplyOutcome = { answered: string; again: boolean } | { skipped: string };

function answerOf(index: readonly IndexRecord[], p: RoomReplyPayload): IndexRecord | undefined {
  return index.find((m) => m.replyTo === p.message_id && m.agentName === p.agent_id && m.client === COUNCIL_CLIENT);
}

// The agent's active prompt in the council's language, else any active one, else its description.
function promptOf(council: Council, agent: AgentDef, lang: 'ja' | 'en'): string {
  const own = council.prompts().filter((p) => p.agent_id === agent.agent_id && p.active);
  return (own.find((p) => p.language === lang) ?? own[0])?.text ?? agent.description;
}

// The answer to store: the model's when it is usable, else the rules' (fallback level 4) with the reason.
function settle(
  res: AgentResponse,
  agent: AgentDef,
  ruleContent: () => RoomAnswer,
): {
  answer: RoomAnswer;
  level: number;
  note?: string;
} {
  const problem = res.ok ? answerErrors('ROOM_ANSWER', res.content, []) : (res.error?.message ?? 'no answer');
  if (!problem)
    return {
      answer: res.content as RoomAnswer,
      level: Math.max(res.repaired || res.attempts > 1 ? 1 : 0, res.fallbackLevel ?? 0),
      note: res.note,
    };
  return {
    answer: ruleContent(),
    level: 4,
    note: `${agent.agent_id}'s model gave no usable answer (${problem.slice(0, 300)}): rule-based answer`,
  };
}

// What the agent's model (or the rules) answered, priced, with the text to store and its metadata.
interface Asked {
  req: AgentRequest;
  res: AgentResponse;
  got: ReturnType<typeof settle>;
  cost: number;
  text: string;
  metadata: Record<string, unknown>;
}

// The room as the mention found it: the visible messages before it, the newest context_messages of them (none at 0),
// sent to the agent's model as delimited data.
function ask(
  council: Council,
  p: RoomReplyPayload,
  snap: RoomSnapshot,
  room: RoomRecord,
  mention: IndexRecord,
  agent: AgentDef,
  deadline: number,
): Asked {
  const s = council.settings();
  const keep = Math.max(0, s.number('rooms.context_messages'));
  const earlier = snap.visible(room).filter((m) => m.seq < mention.seq);
  const before = keep ? earlier.slice(-keep) : [];
  const texts = readTexts(council.store, before.concat([mention]));
  const line = (m: IndexRecord): RoomLine => ({
    id: m.id,
    agentName: m.agentName,
    message: texts[m.id].message,
    timestamp: m.timestamp,
  });
  const lang = s.raw('locale') === 'en' ? 'en' : 'ja';
  const req = roomAnswerRequest({
    agent,
    system: promptOf(council, agent, lang),
    room: { name: p.room, mention: line(mention), recent: before.map(line) },
    settings: s,
    lang,
    today: dayOf(council.now(), council.tz),
  });
  council.models.deadline = deadline;
  const rules = new RulesProvider(() => council.now());
  // A client past its day (or all clients past theirs) gets the rules' answer, which costs no tokens.
  const spendable = !p.client || clientMayAnswer(council, p.client);
  const [res] = (spendable ? council.models.providerFor(agent, rules) : rules).respond([req]);
  const got = settle(res, agent, () => ruleRoomAnswer(agent, req.context));
  const price = modelPrice(pricesOf(s), res.model)?.price;
  const cost = roundUsd(costUsd(price, res.tokensIn, res.tokensOut, res));
  const text =
    got.answer.message.indexOf(`@${p.sender}`) >= 0 ? got.answer.message : `@${p.sender} ${got.answer.message}`;
  const metadata: Record<string, unknown> = {
    model_used: res.model,
    tokens_consumed: res.tokensIn + res.tokensOut,
    fallback_level: got.level,
  };
  if (cost) metadata.cost_usd = cost;
  if (got.note) metadata.note = got.note;
  return { req, res, got, cost, text, metadata };
}

// The answer written as the agent's message in one commit under the lock, with the day's tokens and cost.
function writeAnswer(council: Council, p: RoomReplyPayload, room: RoomRecord, asked: Asked): ReplyOutcome {
  const store = council.store;
  const { req, res, got, cost, text, metadata } = asked;
  return withRoomLock(store, (state): ReplyOutcome => {
    // Under the lock again: another execution may have answered while the model was asked.
    const now = new RoomSnapshot(store, state);
    const again = answerOf(now.index(), p);
    if (again) return { answered: again.id, again: true };
    const seq = now.stored(room).reduce((a, x) => Math.max(a, x.seq), 0) + 1;
    const t = council.now();
    const c = store.begin(state, p.agent_id);
    const id = `RMSG-${c.nextSeq('room_message')}`;
    const meta = JSON.stringify(metadata);
    // The day's tokens and cost, and the budget's one notice to a person, as for a discussion's answers.
    const usage: Pick<Message, 'metadata'> = {
      metadata: {
        processing_time_ms: res.ms,
        model_used: res.model,
        tokens_consumed: res.tokensIn + res.tokensOut,
        fallback_level: got.level,
        step_key: req.key,
        cost_usd: cost || undefined,
        note: got.note === BUDGET_NOTE ? BUDGET_NOTE : undefined,
      },
    };
    const after = council.models.recordUsage(c, [usage as Message]);
    const charged = p.client ? chargeRoomAnswer(council, p.client, res.tokensIn + res.tokensOut) : () => {};
    c.setMarker(
      'room_messages',
      'append',
      messageCols.write({
        message_id: id,
        room_name: p.room,
        seq,
        agent_name: p.agent_id,
        client: COUNCIL_CLIENT,
        mentions_json: JSON.stringify([p.sender]),
        reply_to: p.message_id,
        request_key: `${COUNCIL_CLIENT}:${p.message_id}:${p.agent_id}`,
        timestamp: cellDate(t),
        size_chars: text.length + meta.length,
        message: text,
        metadata_json: meta,
      }),
      `Room Messages:${id}`,
    );
    c.audit({
      actor: p.agent_id,
      event: 'room_answer',
      tab: 'Room Messages',
      row_key: id,
      payload: { room: p.room, seq, reply_to: p.message_id, model: res.model, fallback_level: got.level },
    });
    c.run(new Date(t).toISOString());
    after();
    charged();
    return { answered: id, again: false };
  });
}

export function answerMention(council: Council, p: RoomReplyPayload, deadline: number): ReplyOutcome {
  const snap = new RoomSnapshot(council.store, council.store.readState());
  const found = snap.find(p.room);
  if (found?.kind !== 'free') return { skipped: `room ${p.room} is gone` };
  const done = answerOf(snap.index(), p);
  if (done) return { answered: done.id, again: true };
  const mention = snap.index().find((m) => m.id === p.message_id);
  if (!mention) return { skipped: `message ${p.message_id} is not in ${p.room}` };
  const agent = council.config.agents().find((a) => a.agent_id === p.agent_id && a.active);
  if (!agent) return { skipped: `${p.agent_id} is not an enabled council agent` };
  return writeAnswer(council, p, found.room, ask(council, p, snap, found.room, mention, agent, deadline));
}
