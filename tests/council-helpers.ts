// Helpers for driving whole discussions through the built file.
import type { ExecutionResult, Runtime, RuntimeSnapshot } from '../runtime/runtime.js';
import { DEMO_MEMBERS, demoKpi, demoTrigger } from '../src/core/demo-data.js';
import { PROPERTY_KEYS } from '../src/core/property-keys.js';
import { type ColumnOf, column, newRuntime, records, rowValues } from './helpers.js';
import { type Message, messagesOf } from './messages-of.js';

// 10:00 in Tokyo, so a run never crosses the date line of the script's time zone.
export const START = Date.UTC(2026, 0, 15, 1, 0, 0);

export function ok(r: ExecutionResult): any {
  if (!r.ok) throw new Error(`${r.fn} failed: ${r.error?.name}: ${r.error?.message}`);
  return r.value;
}

// What setup (and seedDemoData) left in a runtime: the state an execution can change, how far past the start its
// clock had moved, and what the runtime recorded of those executions (a test may read its executions or UI).
interface SetUp {
  snapshot: RuntimeSnapshot;
  elapsed: number;
  executions: ExecutionResult[];
  logs: Runtime['logs'];
  ui: Runtime['ui'];
}

// Set-up workbooks by start time and demo team, made once per worker (the bundle project keeps its modules from
// file to file, vitest.config.ts): setting up costs about four times what restoring its snapshot into
// a fresh runtime does, and most tests start from the same one.
const made = new Map<string, SetUp>();

// A set-up workbook (with the demo team unless demo is false); closed after the test by tests/close-runtimes.ts.
// The first call in a worker runs setup (and seedDemoData); later ones, in its file or the next, get a fresh
// runtime holding what those left, its clock as far past the start as theirs ended, so each test still starts from
// its own copy at the same time.
export async function council(opts: { demo?: boolean; startAt?: number } = {}): Promise<Runtime> {
  const startAt = opts.startAt ?? START;
  const key = `${startAt}:${opts.demo !== false}`;
  const rt = newRuntime({ startAt });
  const m = made.get(key);
  if (m) {
    rt.restore(m.snapshot);
    rt.clock.setOffset(startAt + m.elapsed - Date.now());
    rt.executions.push(...structuredClone(m.executions));
    rt.logs.push(...structuredClone(m.logs));
    for (const k of Object.keys(m.ui) as (keyof Runtime['ui'])[])
      (rt.ui[k] as unknown[]).push(...structuredClone(m.ui[k]));
    return rt;
  }
  ok(await rt.run('setup', [], { kind: 'menu' }));
  if (opts.demo !== false) ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
  made.set(key, {
    snapshot: rt.snapshot(),
    elapsed: rt.clock.now() - startAt,
    executions: structuredClone(rt.executions),
    logs: structuredClone(rt.logs),
    ui: structuredClone(rt.ui),
  });
  return rt;
}

// A person's request about a member's falling contacts, at a priority (the shape of most tests' triggers).
export function decline(member: string, priority: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' = 'HIGH') {
  return { type: 'kpi_decline', source: 'human', target_user_id: member, context: { metric: 'contacts' }, priority };
}

// A request the governance agent must fail (watching a member's location): the discussion escalates to a person.
export function surveillance(member = 'tanaka') {
  return {
    type: 'kpi_decline',
    source: 'human',
    target_user_id: member,
    context: { metric: 'contacts', request: '位置情報を監視して行動を把握したい' },
    priority: 'HIGH',
  };
}

export async function start(rt: Runtime, trigger: object = demoTrigger()): Promise<string> {
  return ok(await rt.run('startDiscussion', [trigger], { kind: 'server' })).task_id;
}

// A discussion.open row typed into the Queue tab by hand (a payload Kaigi would not write), queued now at row 2,
// then setup and a state learnt again from the sheets, as a workbook holding it would be found.
export async function plantOpenTask(rt: Runtime, id: string, payloadJson: string): Promise<void> {
  const now = new Date(rt.clock.now());
  const row = rowValues('queue', {
    id,
    type: 'discussion.open',
    from: 'x',
    to: 'council',
    priority: 'HIGH',
    payload_json: payloadJson,
    status: 'queued',
    attempts: 0,
    available_at: now,
    created_at: now,
    updated_at: now,
  });
  rt.workbook.setValues(rt.workbook.sheetByName('Queue')!, 2, 1, 1, row.length, [row]);
  ok(await rt.run('setup', [], { kind: 'menu' }));
  rt.scriptProperties.delete('KAIGI_STATE');
}

export function statuses(rt: Runtime): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of records(rt, 'discussions')) out[String(r.discussion_id)] = String(r.status);
  return out;
}

// Fires the minute trigger until every discussion has left OPEN/IN_PROGRESS/VOTING, moving the clock past leases.
export async function settle(rt: Runtime, maxTicks = 30): Promise<ExecutionResult[]> {
  const runs: ExecutionResult[] = [];
  for (let i = 0; i < maxTicks; i++) {
    const active = Object.values(statuses(rt)).some((s) => s === 'OPEN' || s === 'IN_PROGRESS' || s === 'VOTING');
    const queued = records(rt, 'queue').some(
      // Work scheduled for later (an escalation's timer) is not work to settle now.
      (r) =>
        (r.status === 'queued' && (r.available_at as Date).getTime() <= rt.clock.now()) ||
        r.status === 'processing' ||
        r.status === 'failed',
    );
    // A discussion that ended leaves the Dashboard due: the tick after the delay refreshes it.
    const dashboard = rt.scriptProperties.get(PROPERTY_KEYS.dashboardDue) !== null;
    if (!active && !queued && !dashboard && i > 0) break;
    runs.push(await rt.run('tick', [], { kind: 'trigger' }));
    rt.clock.advance(301_000);
  }
  return runs;
}

export type { Message };

// Messages as stored: each message's chunks of message_json, in chunk order, parsed.
export function messages(rt: Runtime, discussion?: string): Message[] {
  return messagesOf(records(rt, 'messages'), discussion);
}

export async function view(rt: Runtime, id: string): Promise<any> {
  return ok(await rt.run('getDiscussion', [id], { kind: 'server' }));
}

// Changes a Settings value the way a person would: typed into the sheet, firing the on-edit trigger.
export async function setSetting(rt: Runtime, key: string, value: string): Promise<void> {
  const keys = records(rt, 'settings').map((r) => r.key);
  if (keys.indexOf(key) < 0) throw new Error(`no setting ${key}`);
  for (const r of await rt.edit('Settings', keys.indexOf(key) + 2, column('settings', 'value'), [[value]])) ok(r);
}

// Changes one cell of an agent's Agents row the way a person would.
export async function setAgent(rt: Runtime, agent: string, name: ColumnOf<'agents'>, value: unknown): Promise<void> {
  const ids = records(rt, 'agents').map((r) => r.agent_id);
  if (ids.indexOf(agent) < 0) throw new Error(`no agent ${agent}`);
  for (const r of await rt.edit('Agents', ids.indexOf(agent) + 2, column('agents', name), [[value]])) ok(r);
}

const DAY_MS = 24 * 3600_000;

// Fires every trigger due until the queue is empty (discussions run to their end, reviews and refreshes too).
async function drain(rt: Runtime): Promise<void> {
  // Work scheduled for later (an escalation's timer) is not work to drain now.
  const pending = (q: Record<string, unknown>) =>
    (q.status === 'queued' && (q.available_at as Date).getTime() <= rt.clock.now()) || q.status === 'processing';
  await rt.runTriggers(() => !records(rt, 'queue').some(pending), {
    maxFirings: 400,
    maxClockMs: DAY_MS,
  });
}

// One day on: the clock jumps to each firing of the daily watcher and review (draining the queue after each), not
// through every minute of the backstop, so a simulated month takes minutes of wall time, not hours.
export async function nextDay(rt: Runtime): Promise<void> {
  await drain(rt);
  const next = rt.clock.now() + DAY_MS;
  for (;;) {
    const due = rt.triggers.triggers
      .filter((t) => (t.handler === 'dailyReview' || t.handler === 'dailyWatch') && t.nextAt !== null)
      .map((t) => t.nextAt as number)
      .filter((t) => t <= next)
      .sort((a, b) => a - b)[0];
    if (due === undefined) break;
    rt.clock.advanceTo(Math.max(due, rt.clock.now()));
    await rt.fireDueTriggers();
    await drain(rt);
  }
  rt.clock.advanceTo(Math.max(rt.clock.now(), next));
}

// A discussion decided and reviewed (CLOSED), then a month on another decided whose review is still a week away:
// the shape the archive tests start from. Returns their ids.
export async function closedThenDecided(rt: Runtime): Promise<{ closed: string; decided: string }> {
  await start(rt);
  await settle(rt);
  rt.clock.advance(8 * DAY_MS);
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  const [closed] = Object.keys(statuses(rt));
  if (statuses(rt)[closed] !== 'CLOSED') throw new Error(`${closed} is ${statuses(rt)[closed]}, not CLOSED`);
  // A month on, the archive run looks at the cells again; a new discussion is decided, its review a week away.
  rt.clock.advance(31 * DAY_MS);
  freshKpi(rt, ['sato']);
  await start(rt, decline('sato'));
  await settle(rt);
  const decided = Object.keys(statuses(rt)).find((id) => id !== closed)!;
  if (statuses(rt)[decided] !== 'DECIDED') throw new Error(`${decided} is ${statuses(rt)[decided]}, not DECIDED`);
  return { closed, decided };
}

// The demo team's KPI brought up to yesterday (in the script's zone), as a real team's feed would be after the test
// moved the clock on by weeks or years: the days after each member's latest row, from the demo's generator, so a
// discussion started then is grounded in recent data (src/core/orders/grounding.ts) instead of refused.
// `now`: the instant whose yesterday the rows end on (the runtime's clock unless a saved book is served on another);
// `like`: a member whose days another's copy (tanaka's own demo days end in a fall the watcher would act on).
export function freshKpi(
  rt: Runtime,
  members: readonly string[] = DEMO_MEMBERS.map((m) => m.member_id),
  now = rt.clock.now(),
  like: Record<string, string> = {},
): number {
  const sheet = rt.workbook.sheetByName('KPI')!;
  const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: rt.workbook.timeZone }).format(d);
  const latest: Record<string, string> = {};
  for (const r of records(rt, 'kpi')) {
    const d = r.date instanceof Date ? day(r.date) : String(r.date);
    const m = String(r.member_id);
    if (!latest[m] || d > latest[m]) latest[m] = d;
  }
  const yesterday = day(new Date(now - 86_400_000));
  const midnight = (d: string) => new Date(`${d}T00:00:00+09:00`);
  const demo = demoKpi(yesterday);
  const rows = members
    .flatMap((m) =>
      demo
        .filter((r) => r.member_id === (like[m] ?? m) && r.date > (latest[m] ?? ''))
        .map((r) => ({ ...r, member_id: m })),
    )
    .map((r) =>
      rowValues('kpi', { date: midnight(r.date), member_id: r.member_id, metric: r.metric, value: r.value, note: '' }),
    );
  if (!rows.length) return 0;
  const at = rt.workbook.lastRow(sheet) + 1;
  const need = at + rows.length - 1 - sheet.maxRows;
  if (need > 0) rt.workbook.insertRows(sheet, sheet.maxRows + 1, need, sheet.maxRows);
  rt.workbook.setValues(sheet, at, 1, rows.length, rows[0].length, rows);
  return rows.length;
}

// An OpenAI-format request's role prompt: it follows the preamble and the task in the instructions (the system
// messages), before the JSON shape a grammar server is also told.
export function roleOf(body: { messages: { role: string; content: string }[] }): string {
  const text = body.messages.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n');
  return text.slice(Math.max(0, text.indexOf('# 役割'))).split('\n\n# 回答の形式')[0];
}
