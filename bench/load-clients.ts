// The load bench's clients: each loops until the end time with a seeded think time, doing what its role does —
// coordinators start discussions (idempotency keys, some re-sent on purpose) and post KPI, workers talk in rooms,
// report orders and post KPI, viewers poll the status and read — and notes in the ledger what the server acknowledged.
import { DEFAULT_METRICS } from '../src/core/orders/metric-table.js';
import { seededRandom } from '../tools/seeded-random.js';
import { type Answer, HttpClient, NO_ANSWER, type Sample } from './load-http.js';
import type { LoadClient } from './load-serve.js';

interface TaskAck {
  client: string;
  key: string;
  task_id: string;
  discussion_id: string;
}

// What the server acknowledged, to be found in the saved workbook exactly once.
export interface Ledger {
  // By client and idempotency key.
  tasks: Map<string, TaskAck>;
  // Keys every answer refused with an error status (nothing was done, so nothing may be found).
  refused: Map<string, { client: string; key: string }>;
  messages: { client: string; room: string; messageId: string; text: string }[];
  kpi: { member_id: string; date: string; metric: string; value: number }[];
  reports: { order_id: string; status: string }[];
  // A repeated call answered differently from the first: another task or discussion, or a KPI batch written again.
  mismatches: number;
  // Rooms that exist, for viewers to read.
  rooms: Set<string>;
}

export function newLedger(): Ledger {
  return { tasks: new Map(), refused: new Map(), messages: [], kpi: [], reports: [], mismatches: 0, rooms: new Set() };
}

export const taskKey = (client: string, key: string) => `${client}\u0000${key}`;

const MEMBERS = ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'];
const METRICS = DEFAULT_METRICS.map((m) => m.name);
const THINK_MIN_MS = 500;
const THINK_MAX_MS = 2000;
// An executor's step forward from each open status (FAILED is left out: a final status ends the order's ladder).
const FORWARD: Record<string, string[]> = {
  PENDING: ['ACKNOWLEDGED', 'IN_PROGRESS', 'DONE'],
  ACKNOWLEDGED: ['IN_PROGRESS', 'DONE'],
  IN_PROGRESS: ['IN_PROGRESS', 'DONE'],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = (a: Answer) => a.status >= 200 && a.status < 300;

class Loop {
  private readonly http: HttpClient;
  private readonly rnd: () => number;
  private n = 0;
  // Coordinator: keys acknowledged (with their bodies), and a key to send again after an error.
  private readonly keys: { key: string; body: Record<string, unknown> }[] = [];
  private retry: { key: string; body: Record<string, unknown> } | null = null;
  private mine: string[] = [];
  // Worker: the last KPI batch acknowledged.
  private lastKpi: Record<string, unknown>[] | null = null;

  constructor(
    private readonly c: LoadClient,
    exec: string,
    seed: number,
    private readonly ledger: Ledger,
  ) {
    this.http = new HttpClient(exec, c.token);
    this.rnd = seededRandom(seed * 1000 + c.index);
  }

  get samples(): Sample[] {
    return this.http.samples;
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)];
  }

  async run(endAt: number): Promise<void> {
    // Staggered starts, so the clients do not all arrive in the same millisecond.
    await sleep(this.rnd() * THINK_MAX_MS);
    while (performance.now() < endAt) {
      this.n++;
      const r = this.rnd();
      // Reads outnumber writes, as with real integrators; still far more writes than one script lock can commit.
      if (this.c.role === 'coordinator') {
        if (r < 0.15) await this.startTask();
        else if (r < 0.3) await this.postKpi();
        else if (r < 0.7) await this.http.get('GET /status', '/status');
        else await this.readTask();
      } else if (this.c.role === 'worker') {
        if (r < 0.25) await this.sendMessage();
        else if (r < 0.45) await this.reportOrder();
        else if (r < 0.6) await this.postKpi();
        else if (r < 0.85) await this.http.get('GET /status', '/status');
        else await this.readRoom();
      } else if (r < 0.6) await this.http.get('GET /status', '/status');
      else if (r < 0.8) await this.readRoom();
      else await this.readTask();
      // A client that was told to come back later (503 lock_timeout, 429) does, as the answer asks.
      await sleep(Math.max(this.http.retryAfterMs, THINK_MIN_MS + this.rnd() * (THINK_MAX_MS - THINK_MIN_MS)));
    }
  }

  // A new key, one acknowledged before (re-sent on purpose: the same answer must come back), or one that failed.
  private async startTask(): Promise<void> {
    let sent = this.retry;
    let kind = 'POST /tasks (retry)';
    if (!sent && this.keys.length && this.rnd() < 0.25) {
      sent = this.pick(this.keys);
      kind = 'POST /tasks (re-sent)';
    }
    if (!sent) {
      kind = 'POST /tasks';
      const member = this.pick(MEMBERS);
      sent = {
        key: `load-${this.c.index}-${this.n}`,
        body: {
          type: 'kpi_decline',
          source: 'crm',
          target_user_id: member,
          context: { metric: 'contacts', summary: `load ${this.c.name} ${this.n}: ${member}` },
          priority: this.pick(['LOW', 'MEDIUM', 'HIGH']),
        },
      };
    }
    const a = await this.http.post(kind, '/tasks', { ...sent.body, idempotency_key: sent.key });
    const id = taskKey(this.c.name, sent.key);
    if (a.status === 202) {
      const ack = { client: this.c.name, key: sent.key, task_id: a.body.task_id, discussion_id: a.body.discussion_id };
      const first = this.ledger.tasks.get(id);
      if (first && (first.task_id !== ack.task_id || first.discussion_id !== ack.discussion_id))
        this.ledger.mismatches++;
      if (!first) {
        this.ledger.tasks.set(id, ack);
        this.keys.push(sent);
        this.mine.push(ack.discussion_id);
      }
      this.ledger.refused.delete(id);
      this.retry = null;
      return;
    }
    // An error answer says nothing was done; no answer at all leaves it unknown, so the key is not counted on.
    if (!this.ledger.tasks.has(id)) {
      if (a.status === NO_ANSWER) this.ledger.refused.delete(id);
      else this.ledger.refused.set(id, { client: this.c.name, key: sent.key });
    }
    this.retry = a.status === 503 || a.status === NO_ANSWER ? sent : null;
  }

  private async readTask(): Promise<void> {
    const all = this.mine.length ? this.mine : [...this.ledger.tasks.values()].map((t) => t.discussion_id);
    if (!all.length) {
      await this.http.get('GET /status', '/status');
      return;
    }
    await this.http.get('GET /tasks/{id}', `/tasks/${this.pick(all)}`);
  }

  private async readRoom(): Promise<void> {
    const rooms = [...this.ledger.rooms];
    if (!rooms.length) {
      await this.http.get('GET /status', '/status');
      return;
    }
    await this.http.get('GET /rooms/{room}/messages', `/rooms/${this.pick(rooms)}/messages`, { limit: '20' });
  }

  // A message in the room it entered before the load, naming the client and its count.
  private async sendMessage(): Promise<void> {
    const room = this.c.room!;
    const text = `load message ${this.c.name} #${this.n}`;
    const a = await this.http.post('POST /rooms/{room}/messages', `/rooms/${room}/messages`, {
      message: text,
    });
    if (ok(a)) this.ledger.messages.push({ client: this.c.name, room, messageId: a.body.messageId, text });
  }

  // The orders as an executor pulls them, then one step forward on an open one.
  private async reportOrder(): Promise<void> {
    const list = await this.http.get('GET /orders', '/orders', { limit: '200' });
    const open = ok(list)
      ? (list.body.orders as { order_id: string; status: string }[]).filter((o) => FORWARD[o.status])
      : [];
    if (!open.length) return;
    await sleep(THINK_MIN_MS * this.rnd());
    const o = this.pick(open);
    const status = this.pick(FORWARD[o.status]);
    const a = await this.http.post('POST /orders/{id}/report', `/orders/${o.order_id}/report`, {
      status,
      report: `load report by ${this.c.name}`,
    });
    if (ok(a)) this.ledger.reports.push({ order_id: o.order_id, status });
  }

  // One to three rows on a member, day and metric (of the metric table) no other row uses; now and then the last
  // acknowledged batch again, which must be counted as duplicates and written nowhere.
  private async postKpi(): Promise<void> {
    if (this.lastKpi && this.rnd() < 0.2) {
      const a = await this.http.post('POST /kpi (re-sent)', '/kpi', { rows: this.lastKpi });
      if (ok(a) && a.body.accepted !== 0) this.ledger.mismatches++;
      return;
    }
    const rows = Array.from({ length: 1 + Math.floor(this.rnd() * 3) }, (_, j) => {
      // A slot of its own: each client has 10,000, each call 3; a slot is a metric, a member and a day from 2000 on
      // (long before the demo's days, and within Settings kpi.earliest_date).
      const k = this.c.index * 10_000 + this.n * 3 + j;
      return {
        member_id: MEMBERS[Math.floor(k / METRICS.length) % MEMBERS.length],
        date: new Date(Date.UTC(2000, 0, 2) + Math.floor(k / (METRICS.length * MEMBERS.length)) * 86_400_000)
          .toISOString()
          .slice(0, 10),
        metric: METRICS[k % METRICS.length],
        value: Math.floor(this.rnd() * 20),
        note: 'load bench',
      };
    });
    const a = await this.http.post('POST /kpi', '/kpi', { rows });
    if (!ok(a)) return;
    this.lastKpi = rows;
    for (const r of rows)
      this.ledger.kpi.push({ member_id: r.member_id, date: r.date, metric: r.metric, value: r.value });
  }
}

// Every client at once until `seconds` of real time have passed; each finishes the call it is making.
export async function runClients(
  clients: readonly LoadClient[],
  exec: string,
  seconds: number,
  seed: number,
  ledger: Ledger,
): Promise<Sample[]> {
  const endAt = performance.now() + seconds * 1000;
  for (const c of clients) if (c.room) ledger.rooms.add(c.room);
  const loops = clients.map((c) => new Loop(c, exec, seed, ledger));
  await Promise.all(loops.map((l) => l.run(endAt)));
  return loops.flatMap((l) => l.samples);
}
