// One judgment scenario on the built file in the local runtime, on its clock: a fresh workbook (a copy of one set
// up once), the scenario's team, KPI, Settings and directives, its trigger through the start dialog's door, the
// triggers until the discussion rests, then, with `after` rows, the orders carried out and the member's days coming
// in through the KPI import's code until the daily review measures the decision.
import { Runtime, type RuntimeSnapshot } from '../../runtime/runtime.js';
import type { CellValue } from '../../runtime/host/values.js';
import { rowsOf, tabByKey } from '../../sheets-schema/index.js';
import { MAX_DAYS } from '../../src/core/discussion/messages.js';
import type { KpiRow } from '../../src/core/types.js';
import { call } from '../shared.js';
import { discussionOfTask, queueIdle } from '../workbook-reads.js';
import { dayOf, type Scenario } from './scenario.js';

// 10:00 in Tokyo on D: a run never crosses the date line of the script's time zone before the review.
const START = Date.UTC(2026, 0, 15, 1, 0, 0);
const D = '2026-01-15';
const RESTING = ['DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'];

type Row = Record<string, unknown>;

interface Message {
  message_id: string;
  speaker: string;
  message_type: string;
  content: unknown;
  metadata: { contradicted?: unknown[] } & Record<string, unknown>;
}

export interface Ran {
  // REFUSED when the door refused the trigger; else the discussion's status before any review.
  status: string;
  refusal: string;
  discussion_id: string;
  actions: string[];
  effect: string;
  forecast: string;
  messages: Message[];
  kpi: KpiRow[];
  ms: number;
}

export interface ProviderChoice {
  // Script Properties a model provider needs (its key, the provider override); none for the rules.
  properties: Record<string, string>;
  allowLocalFetch: string[];
}

async function rowsOfTab(rt: Runtime, name: string): Promise<Row[]> {
  return ((await call(rt, 'exportTab', [name])) as { rows: Row[] }).rows;
}

function messagesOf(rows: Row[], id: string): Message[] {
  const parts: Record<string, { chunk: number; json: string }[]> = {};
  for (const r of rows)
    if (r.discussion_id === id)
      (parts[String(r.message_id)] ??= []).push({ chunk: Number(r.chunk), json: String(r.message_json) });
  return Object.keys(parts)
    .sort()
    .map((m) =>
      JSON.parse(
        parts[m]
          .sort((a, b) => a.chunk - b.chunk)
          .map((p) => p.json)
          .join(''),
      ),
    );
}

// Midnight of a day in Tokyo, the runtime's script time zone: the date cell a person's paste would hold.
const dateCell = (day: string) => new Date(`${day}T00:00:00+09:00`);

export class ScenarioRunner {
  private constructor(
    private readonly rt: Runtime,
    private readonly bases: { bare: RuntimeSnapshot; demo: RuntimeSnapshot },
    private readonly elapsed: { bare: number; demo: number },
  ) {}

  // One runtime, set up once bare and once with the demo team; each scenario starts from a copy of one of them.
  static async create(choice: ProviderChoice): Promise<ScenarioRunner> {
    const rt = new Runtime({ startAt: START, allowLocalFetch: choice.allowLocalFetch });
    if (Object.keys(choice.properties).length) rt.scriptProperties.set(choice.properties);
    await call(rt, 'setup');
    const bare = rt.snapshot();
    const bareAt = rt.clock.now() - START;
    await call(rt, 'seedDemoData');
    return new ScenarioRunner(rt, { bare, demo: rt.snapshot() }, { bare: bareAt, demo: rt.clock.now() - START });
  }

  async close(): Promise<void> {
    await this.rt.close();
  }

  async run(s: Scenario): Promise<Ran> {
    const t0 = Date.now();
    const rt = this.rt;
    const base = s.members ? 'bare' : 'demo';
    rt.restore(this.bases[base]);
    rt.clock.setOffset(START + this.elapsed[base] - Date.now());
    if (s.members) await this.members(s);
    if (s.kpi.length) this.replaceKpi(s);
    const settings = { ...(s.locale ? { locale: s.locale } : {}), ...(s.settings ?? {}) };
    for (const [key, value] of Object.entries(settings)) await call(rt, 'updateSetting', [{ key, value }], 'server');
    for (const d of s.directives ?? [])
      await call(
        rt,
        'addDirective',
        [
          {
            content: d.text,
            target_agents: d.to,
            priority: d.priority,
            member_id: d.member,
            ban: d.ban ?? [],
            prefer: d.prefer ?? [],
          },
        ],
        'server',
      );
    const started = await rt.run('startDiscussion', [s.trigger], { kind: 'server' });
    if (!started.ok)
      return { ...empty([]), status: 'REFUSED', refusal: started.error?.message ?? '', ms: Date.now() - t0 };
    const task = (started.value as { task_id: string }).task_id;
    const status = () => discussionOfTask(rt, task)?.status ?? '';
    await rt.runTriggers(() => RESTING.indexOf(status()) >= 0, { maxFirings: 2000, maxClockMs: 3 * 24 * 3600_000 });
    const d = discussionOfTask(rt, task);
    const id = d?.id ?? '';
    const rested = status();
    const orders = (await rowsOfTab(rt, 'Orders')).filter((o) => o.discussion_id === id && o.status !== 'CANCELLED');
    const actions = [...new Set(orders.map((o) => String(JSON.parse(String(o.action_json)).action_type)))];
    // The data the council had: claims are checked against it, not against the days that came after.
    const had = await this.kpi();
    if (s.after?.length && rested === 'DECIDED') await this.closeLoop(s, id, orders, status);
    const outcome = (await rowsOfTab(rt, 'Outcomes')).find((o) => o.discussion_id === id);
    return {
      status: rested,
      refusal: '',
      discussion_id: id,
      actions,
      effect: outcome ? String(outcome.effect ?? '') : '',
      forecast: outcome ? String(outcome.verdict ?? '') : '',
      messages: messagesOf(await rowsOfTab(rt, 'Messages'), id),
      kpi: had,
      ms: Date.now() - t0,
    };
  }

  // The scenario's team, typed into Members as a person would (the edit moves the configuration on).
  private async members(s: Scenario): Promise<void> {
    const cols = rowsOf('members');
    const rows = (s.members ?? []).map((m) =>
      cols.write({
        member_id: m.member_id,
        name: m.name,
        team: m.team ?? '',
        role: m.role ?? '',
        joined_at: dateCell('2024-04-01'),
        best_login_streak: m.best_login_streak ?? 0,
        profile_json: JSON.stringify(m.profile ?? {}),
      }),
    );
    for (const r of await this.rt.edit(tabByKey('members').name, 2, 1, rows))
      if (!r.ok) throw new Error(`writing the scenario's Members failed: ${r.error?.message}`);
  }

  // The scenario's KPI rows replace the rows of the members they name, as a person would paste over them.
  private replaceKpi(s: Scenario): void {
    const wb = this.rt.workbook;
    const sheet = wb.sheetByName(tabByKey('kpi').name)!;
    const cols = rowsOf('kpi');
    const named = new Set(s.kpi.map((r) => r.member_id));
    const last = wb.lastRow(sheet);
    const kept: unknown[][] =
      last < 2
        ? []
        : wb.getValues(sheet, 2, 1, last - 1, cols.width).filter((v) => !named.has(String(cols.read(v).member_id)));
    const added = s.kpi.map((r) =>
      cols.write({
        date: dateCell(dayOf(r.date, D)),
        member_id: r.member_id,
        metric: r.metric,
        value: r.value,
        note: '',
      }),
    );
    const rows: unknown[][] = kept.concat(added);
    const height = Math.max(rows.length, last - 1);
    const need = height + 1 - sheet.maxRows;
    if (need > 0) wb.insertRows(sheet, sheet.maxRows + 1, need, sheet.maxRows);
    const blank = () => new Array(cols.width).fill('');
    const all = rows.concat(Array.from({ length: height - rows.length }, blank));
    if (all.length) wb.setValues(sheet, 2, 1, all.length, cols.width, all as CellValue[][]);
  }

  private async kpi(): Promise<KpiRow[]> {
    return (await rowsOfTab(this.rt, 'KPI'))
      .filter((r) => r.member_id !== '' && typeof r.value === 'number')
      .map((r) => ({
        date: String(r.date).slice(0, 10),
        member_id: String(r.member_id),
        metric: String(r.metric),
        value: Number(r.value),
      }));
  }

  // Every order carried out and reported DONE; then, day by day, the `after` rows of the days that have ended come in
  // through the KPI import's code. The daily triggers fire from the review date on (the days before it hold nothing
  // the scenario measures), until the review closes the discussion or its window has passed.
  private async closeLoop(s: Scenario, id: string, orders: Row[], status: () => string): Promise<void> {
    const rt = this.rt;
    for (const o of orders)
      await call(rt, 'reportOrder', [{ order_id: o.order_id, status: 'DONE', report: 'eval: carried out' }], 'server');
    const log = (await rowsOfTab(rt, 'Discussion Log')).find((r) => r.discussion_id === id);
    const decision = JSON.parse(String(log?.final_decision_json || '{}')) as { monitoring?: { review_date?: string } };
    const reviewDay = decision.monitoring?.review_date ?? dayOf(`D+${MAX_DAYS}`, D);
    const first = rt.triggers.triggers.find((t) => t.handler === 'dailyReview' && t.nextAt !== null)?.nextAt;
    if (!first) return;
    const rows = (s.after ?? []).map((r) => ({ ...r, day: dayOf(r.date, D) }));
    const zone = new Intl.DateTimeFormat('en-CA', { timeZone: rt.manifest.timeZone });
    let fed = D;
    for (let i = 0; status() === 'DECIDED' && i <= MAX_DAYS + 1; i++) {
      rt.clock.advanceTo(first + i * 86_400_000);
      const today = zone.format(rt.clock.now());
      const due = rows.filter((r) => r.day > fed && r.day < today);
      if (due.length) {
        const csv = ['date,member_id,metric,value']
          .concat(due.map((r) => `${r.day},${r.member_id},${r.metric},${r.value}`))
          .join('\n');
        await call(rt, 'importKpiCsv', [{ text: csv }], 'server');
        fed =
          due
            .map((r) => r.day)
            .sort()
            .pop() ?? fed;
      }
      if (today < reviewDay) continue;
      await rt.fireDueTriggers();
      await rt.runTriggers(() => queueIdle(rt), { maxFirings: 50 });
    }
  }
}

function empty(kpi: KpiRow[]): Omit<Ran, 'status' | 'refusal' | 'ms'> {
  return { discussion_id: '', actions: [], effect: '', forecast: '', messages: [], kpi };
}
