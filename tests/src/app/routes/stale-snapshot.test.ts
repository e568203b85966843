// A reader outside the lock takes its Script Properties (the store's state, so the tabs' tails) when its execution
// begins, and reads the sheet later: a commit that lands in between shows its Discussion Log row to the reader while
// the state it holds still ends the tabs before that commit's rows. GET /tasks/{id} must still find them.
import { describe, expect, it, vi } from 'vitest';
import { withPropertySnapshot } from '../../../../src/store/property-reads.js';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { discussionAnswer } from '../../../../src/app/routes/council/get-discussion.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { sample } from '../../../../tools/model-server.js';
import { envelope, schemaOf } from '../../../../tools/model-wire.js';
import { decline, type Kaigi, kaigi, settle, statuses } from '../inproc.js';

interface Tails {
  tails: Record<string, { last: number }>;
}

// Every property as it was after each write of the store's state, in order.
function recordStates(k: Kaigi): Record<string, string>[] {
  const seen: Record<string, string>[] = [];
  const props = k.ports.properties;
  const keep = () => {
    if (props.values[PROPERTY_KEYS.state] !== undefined) seen.push(props.getProperties());
  };
  const one = props.setProperty.bind(props);
  const many = props.setProperties.bind(props);
  vi.spyOn(props, 'setProperty').mockImplementation((key, value) => {
    one(key, value);
    keep();
  });
  vi.spyOn(props, 'setProperties').mockImplementation((values) => {
    many(values);
    keep();
  });
  return seen;
}

const tailsOf = (p: Record<string, string>) => (JSON.parse(p[PROPERTY_KEYS.state]) as Tails).tails;

// The last properties, among those recorded, in which the discussion's row exists and its orders do not: what a
// GET that began just before the deciding commit holds while it reads the row that commit wrote.
function beforeDecision(seen: Record<string, string>[], ordersTail: number): Record<string, string> {
  const open = seen.filter((p) => tailsOf(p).discussions.last >= 2 && tailsOf(p).orders.last === ordersTail);
  expect(open.length).toBeGreaterThan(0);
  return open[open.length - 1];
}

// A model on the wire whose specialists answer at the longest an opinion may be: the discussion's messages are then
// too long for the log row's cell and stored behind a pointer to their rows in the Messages tab.
function longModel(k: Kaigi): void {
  k.ports.properties.setProperty(
    PROPERTY_KEYS.providerOverride,
    JSON.stringify({ provider: 'openai-compatible', model: 'm', base_url: 'http://models.invalid/v1' }),
  );
  k.ports.fetch.answer = (request) => {
    const schema = schemaOf('openai', JSON.parse(request.payload));
    const answer = sample(schema);
    if (schema.properties?.hypothesis) {
      answer.analysis = 'a'.repeat(1200);
      answer.evidence = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(400).slice(0, 400));
      answer.hypothesis = 'h'.repeat(600);
    }
    const body = envelope('openai', JSON.stringify(answer), 'm', { input: 1000, output: 1000 });
    return { code: 200, headers: {}, body: JSON.stringify(body) };
  };
}

describe('GET /tasks/{id} on a snapshot taken before the deciding commit', () => {
  it.each([
    ['in the log row', false],
    ['behind a pointer to the Messages tab', true],
  ])('answers the decided discussion, its messages %s, with its orders past the tails it knew', (_, long) => {
    const k = kaigi();
    if (long) longModel(k);
    // The Orders tab's last row before the discussion (its header is row 1).
    const ordersTail = k.records('orders').length + 1;
    const seen = recordStates(k);
    const r = startDiscussion(decline('tanaka'), k.council());
    settle(k);
    const cell = String(k.records('discussions').find((d) => d.discussion_id === r.discussion_id)!.messages_json);
    expect(cell.indexOf('"$ref":"Messages"') >= 0).toBe(long);
    expect(statuses(k)[r.discussion_id]).toBe('DECIDED');
    const written = k.records('orders').filter((o) => o.discussion_id === r.discussion_id);
    expect(written.length).toBeGreaterThan(0);
    const early = beforeDecision(seen, ordersTail);
    const answer = withPropertySnapshot(() => discussionAnswer(k.council(), r.discussion_id), early) as {
      state: string;
      orders: { order_id: string; status: string }[];
      messages: number;
    };
    expect(answer.state).toBe('DECIDED');
    expect(answer.messages).toBe(k.records('messages').filter((m) => m.discussion_id === r.discussion_id).length);
    expect(answer.orders.map((o) => o.order_id)).toEqual(written.map((o) => o.order_id));
    expect(answer.orders.every((o) => o.status === 'PENDING')).toBe(true);
  });
});
