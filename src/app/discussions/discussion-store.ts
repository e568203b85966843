// Discussions in the sheet: load one with its messages, and commit a step with the log row as the commit point.
import { rowsOf } from '../../../sheets-schema/index.js';
import { sha256Hex } from '../../store/crypto.js';
import { discussionFromRow, inboxRow, logRow, messageRecord, messagesFromRows, orderRow } from '../../store/records.js';
import type { Commit, Store } from '../../store/store.js';
import { props } from '../../store/services.js';
import type { ClockPort } from '../../ports.js';
import { MAX_CELL_CHARS, parsePointer, pointerText } from '../../core/cells.js';
import { applyStep, type StepResult } from '../../core/engine.js';
import { NotFoundError } from '../../core/errors.js';
import { roundUsd } from '../../core/providers/model-table.js';
import { canMoveOrder, isOrderStatus } from '../../core/orders/order-status.js';
import type { Message } from '../../core/discussion/messages.js';
import type { Discussion } from '../../core/types.js';

export interface Loaded {
  row: number;
  d: Discussion;
  raw: unknown[];
  resolved: unknown[];
  span: [number, number] | null;
}

// Runs inside a step's commit, before the log row; what it returns runs once the commit is written.
export type CommitHook = (c: Commit, before: Discussion, after: Discussion, r: StepResult) => (() => void) | undefined;

const logCols = rowsOf('discussions');
const orderCols = rowsOf('orders');
const MESSAGES_CELL = logCols.index('messages_json');
const ESTIMATE_TOKENS = logCols.index('estimate_tokens');
const ESTIMATE_COST = logCols.index('estimate_cost_usd');

export class DiscussionStore {
  constructor(
    private readonly store: Store,
    private readonly clock: ClockPort,
    private readonly hooks: readonly CommitHook[],
  ) {}

  // The log row this execution has just appended and committed (discussion.open), so that discussion.advance, going
  // straight on in the same execution, does not read back what it wrote: the lease makes it the only writer.
  private opened: { id: string; row: number; raw: unknown[] } | null = null;

  noteOpened(id: string, row: number, raw: unknown[]): void {
    this.opened = { id, row, raw };
  }

  load(id: string, hint?: number): Loaded {
    let row = hint && hint >= 2 ? hint : 0;
    const held = this.opened && this.opened.id === id && this.opened.row === row ? this.opened.raw : null;
    this.opened = null;
    let raw = held ?? (row ? this.store.readRows('discussions', row, 1)[0] : null);
    if (!raw || logCols.read(raw).discussion_id !== id) {
      const found = this.store.findRow('discussions', id);
      if (!found) throw new NotFoundError(`discussion ${id} was not found in the Discussion Log`);
      row = found;
      raw = this.store.readRows('discussions', row, 1)[0];
    }
    const resolved = this.store.resolveOverflow([raw])[0];
    const base = discussionFromRow(resolved);
    const cell = logCols.read(raw).messages_json;
    const p = parsePointer(cell);
    let messages: Message[];
    let span: [number, number] | null = p ? p.rows : null;
    if (p) {
      const at = this.messageRows(p);
      span = at.span;
      messages = messagesFromRows(at.rows, id);
      if (sha256Hex(JSON.stringify(messages)) !== p.sha256)
        throw new Error(`the messages of ${id} do not match the SHA-256 in its log row`);
    } else messages = cell === '' ? [] : JSON.parse(String(cell));
    return { row, d: { ...base, messages }, raw, resolved, span };
  }

  // A pointer's Messages rows where they are now. Rows above them may have moved to the archive
  // (src/app/audit/retention.ts), which moves the span up, and rows within it too, which shortens it: it then starts at its
  // first message's row and is no longer than it was. One read when nothing moved.
  private messageRows(p: { rows: [number, number]; first_id?: string }): { span: [number, number]; rows: unknown[][] } {
    const len = p.rows[1] - p.rows[0] + 1;
    let last = this.store.readState().tails.messages?.last ?? p.rows[1];
    // Read outside the lock on a state from before the commit that wrote the log row: the state as it is now.
    if (p.rows[1] > last) last = this.store.readStateNow().tails.messages?.last ?? p.rows[1];
    const rows = p.rows[1] <= last ? this.store.readRows('messages', p.rows[0], len) : [];
    if (!p.first_id || (rows.length && rows[0][0] === p.first_id)) return { span: p.rows, rows };
    const at = this.store.findRow('messages', p.first_id);
    if (!at) return { span: p.rows, rows };
    const n = Math.max(1, Math.min(len, last - at + 1));
    return { span: [at, at + n - 1], rows: this.store.readRows('messages', at, n) };
  }

  // Writes one step: messages, orders, inbox rows, audit rows, then the log row as the commit point.
  commitStep(
    c: Commit,
    l: Loaded,
    r: StepResult,
    extra: (c: Commit) => void = () => {},
    afterCommit: () => void = () => {},
  ): Loaded {
    const now = this.clock.now();
    const d = applyStep(l.d, r);
    const span = this.writeMessages(c, l, r.messages);
    if (r.cancelDecision) this.cancelOrders(c, r.cancelDecision, now);
    for (const o of r.orders) {
      const placed = c.appendOne('orders', orderRow(o, now), `Orders:${o.order_id}`);
      c.audit({
        actor: 'decider',
        event: 'order',
        tab: 'Orders',
        row_key: o.order_id,
        payload: { row: placed.row },
      });
    }
    for (const item of r.inbox) {
      const inbox = { ...item, inbox_id: `INB-${c.nextSeq('inbox')}` };
      c.append('inbox', [inboxRow(inbox, now)]);
      c.audit({
        actor: inbox.from_agent,
        event: 'inbox',
        tab: 'Inbox',
        row_key: inbox.inbox_id,
        payload: { title: inbox.title },
      });
    }
    for (const t of r.transitions)
      c.audit({
        actor: 'kaigi',
        event: 'status',
        tab: 'Discussion Log',
        row_key: d.discussion_id,
        payload: { from: t.from, to: t.to },
      });
    extra(c);
    const after = this.hooks.map((h) => h(c, l.d, d, r));
    const cell = messagesCell(d, span);
    const tokens = d.messages.reduce((a, m) => a + m.metadata.tokens_consumed, 0);
    const cost = d.messages.reduce((a, m) => a + (m.metadata.cost_usd ?? 0), 0);
    d.notes = d.notes
      .filter((n) => n.indexOf('usage: ') !== 0)
      .concat([`usage: tokens=${tokens} cost_usd=${roundUsd(cost)}`]);
    // The estimate written at open stays as it was; the spent cells are recomputed from the messages.
    const estimate = { tokens: l.resolved[ESTIMATE_TOKENS] ?? '', cost_usd: l.resolved[ESTIMATE_COST] ?? '' };
    const values = logRow(d, cell, estimate);
    // Unchanged long values keep their overflow pointer instead of being stored again.
    values.forEach((v, i) => {
      if (i !== MESSAGES_CELL && v === l.resolved[i] && l.raw[i] !== l.resolved[i]) values[i] = l.raw[i];
    });
    const placed = c.setMarker('discussions', l.row || 'append', values, `Discussion Log:${d.discussion_id}`);
    c.audit({
      actor: 'kaigi',
      event: l.row ? 'log_row_updated' : 'log_row',
      tab: 'Discussion Log',
      row_key: d.discussion_id,
      payload: { row: placed.row, status: d.status },
    });
    // The commit's state after it, and what the hooks and the caller store after it (usage, the API ledger, the
    // Dashboard's mark), in one property write (props.batch).
    props.batch(() => {
      c.run(new Date(now).toISOString());
      for (const f of after) f?.();
      afterCommit();
    });
    return { row: placed.row, d, raw: placed.values, resolved: logRow(d, cell, estimate), span };
  }

  // The rows of an execution order's actions, found by its decision id.
  orderRows(decision: string): number[] {
    const s = this.store.sheet('orders');
    return s
      .getRange(1, orderCols.index('decision_id') + 1, s.getMaxRows(), 1)
      .createTextFinder(decision)
      .matchEntireCell(true)
      .findAll()
      .map((r) => r.getRow());
  }

  // Appends the step's messages (chunked) with an audit event each; returns the discussion's span of rows.
  private writeMessages(c: Commit, l: Loaded, messages: Message[]): [number, number] | null {
    const records = messages.map((m) => messageRecord(m));
    const rows = records.flatMap((r) => r.rows);
    if (!rows.length) return l.span;
    const first = c.append('messages', rows);
    const last = first + rows.length - 1;
    let at = first;
    messages.forEach((m, k) => {
      const n = records[k].rows.length;
      c.audit({
        actor: m.speaker,
        event: 'message',
        tab: 'Messages',
        row_key: m.message_id,
        payload: { type: m.message_type, rows: [at, at + n - 1], sha256: records[k].sha256 },
      });
      at += n;
    });
    if (l.span) return [l.span[0], last];
    if (!l.d.messages.length) return [first, last];
    const start = this.store.findRow('messages', l.d.messages[0].message_id);
    return [start ?? first, last];
  }

  // A replacing decision cancels the orders still open; one already reported DONE or FAILED keeps its status,
  // since what was carried out (or failed) stays on the record (src/core/orders/order-status.ts).
  private cancelOrders(c: Commit, decision: string, now: number): void {
    for (const row of this.orderRows(decision)) {
      const raw = this.store.readRows('orders', row, 1)[0];
      const status = orderCols.read(raw).status;
      if (isOrderStatus(status) && !canMoveOrder(status, 'CANCELLED')) continue;
      c.update('orders', row, orderCols.write({ status: 'CANCELLED', updated_at: new Date(now) }, raw));
      c.audit({
        actor: 'decider',
        event: 'order_cancelled',
        tab: 'Orders',
        row_key: String(orderCols.read(raw).order_id),
        payload: { row },
      });
    }
  }
}

// Column J holds the whole message array when it fits in a cell, else a pointer to the Messages rows.
function messagesCell(d: Discussion, span: [number, number] | null): string {
  const all = JSON.stringify(d.messages);
  if (all.length <= MAX_CELL_CHARS || !span) return all;
  return pointerText({
    $ref: 'Messages',
    id: d.discussion_id,
    sha256: sha256Hex(all),
    length: all.length,
    rows: span,
    count: d.messages.length,
    first_id: d.messages[0].message_id,
    last_id: d.messages[d.messages.length - 1].message_id,
  });
}
