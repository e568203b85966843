// kaigi run: set up the workbook if new, enqueue a trigger (or the demo's), run trigger executions on the
// clock until the discussion reaches --until, save, and print a transcript or one JSON summary.
import fs from 'node:fs';
import path from 'node:path';
import { demoTrigger } from '../../src/core/demo-data.js';
import { MAX_DAYS } from '../../src/core/discussion/messages.js';
import { readProject } from '../../runtime/project-file.js';
import { roundUsd } from '../../src/core/providers/model-table.js';
import { registry as vendors } from '../../src/core/providers/vendor-registry.js';
import {
  allowLocalModel,
  call,
  type Command,
  InputError,
  keysFromEnv,
  openWorkbook,
  type Opts,
  PROVIDER_OVERRIDE,
  print,
  refuseWhileServed,
  UsageError,
  writableWorkbook,
  warn,
} from '../shared.js';
import { closeDemoLoop, type LoopReport } from '../demo-loop.js';
import { decisionOf } from '../run-decision.js';
import { formatInZone } from '../../src/core/time-display.js';
import { RunProgress } from '../run-progress.js';
import { discussionOfTask, queueIdle } from '../workbook-reads.js';
import { type Names, outcomeText, type TranscriptView, transcriptText } from '../transcript.js';
import type { Lang } from '../../src/core/i18n.js';
import { triggerLabel } from '../../src/core/labels.js';
import type { Runtime } from '../../runtime/runtime.js';

// The workbook's Settings locale, for a run that names none.
async function workbookLocale(rt: Runtime): Promise<string> {
  const rows = ((await call(rt, 'exportTab', ['Settings'])) as { rows: Record<string, unknown>[] }).rows;
  return String(rows.find((r) => r.key === 'locale')?.value ?? 'ja');
}

function defaultProvider(): string {
  // The first vendor in registry order whose key is set and that needs no --base-url.
  return vendors.all.find((v) => process.env[v.envKey] && !v.needs.baseUrl)?.name ?? 'rules';
}

// A provider that needs a key and has none (neither in the environment nor saved with this workbook) would fall
// back to rules on every call and end ESCALATED: say which variable to set instead.
function refuseKeyless(provider: string, workbook: string): void {
  const vendor = vendors.find(provider);
  if (!vendor?.needs.key || process.env[vendor.envKey]) return;
  let saved = '';
  try {
    saved = readProject(workbook)?.scriptProperties[vendor.keyProperty] ?? '';
  } catch {
    // An unreadable sidecar is reported when the workbook is opened; here it only means no saved key.
  }
  if (!saved)
    throw new InputError(
      `--provider ${provider} needs an API key: set ${vendor.envKey} in the environment (or save the key in the settings dialog)`,
    );
}

function readTrigger(file: string): Record<string, unknown> {
  let t: unknown;
  try {
    t = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`--trigger ${file}: cannot read it: ${(e as Error).message}`);
  }
  const x = t as Record<string, unknown>;
  if (!x || typeof x !== 'object' || Array.isArray(x))
    throw new InputError(`--trigger ${file}: a trigger file holds a JSON object`);
  if (typeof x.type !== 'string' || typeof x.target_user_id !== 'string')
    throw new InputError(`--trigger ${file}: a trigger needs "type" and "target_user_id" strings`);
  return x;
}

const TERMINAL = ['DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'];

type View = TranscriptView;

// Who the discussion is about and who spoke, by name in the workbook's language (the Members, Agents and Settings
// tabs, read once after the run).
async function namesOf(rt: Runtime, view: View, lang: Lang): Promise<Names> {
  const rows = async (tab: string) =>
    ((await call(rt, 'exportTab', [tab])) as { rows: Record<string, unknown>[] }).rows;
  const member = (await rows('Members')).find((m) => m.member_id === view.trigger.target_user_id);
  const agents: Record<string, string> = {};
  for (const a of await rows('Agents'))
    agents[String(a.agent_id)] = String((lang === 'ja' ? a.name_ja : a.name_en) || a.agent_id);
  const setting = (await rows('Settings')).find((r) => r.key === 'triggers.types');
  let types: { type: string; label_ja?: string; label_en?: string }[] = [];
  try {
    types = JSON.parse(String(setting?.value ?? '[]'));
  } catch {
    // A triggers.types cell that is not JSON is refused when a discussion starts; here the type shows readable.
  }
  return {
    lang,
    // The member by name, as the pages show them; the id only when the Members tab has no name for them.
    member: member?.name ? String(member.name) : view.trigger.target_user_id,
    trigger: triggerLabel(Array.isArray(types) ? types : [], view.trigger.type, lang),
    agents,
    // The spreadsheet's time zone, which the transcript's times are shown in.
    zone: rt.workbook.timeZone,
  };
}

function summary(view: View, workbook: string) {
  const phases = [1, 2, 3, 4, 5, 6].map((phase) => {
    const ms = view.messages.filter((m) => m.phase === phase);
    const times = ms.map((m) => Date.parse(m.timestamp));
    const speakers = [...new Set(ms.map((m) => m.speaker))];
    return ms.length
      ? {
          phase,
          speakers,
          started_at: new Date(Math.min(...times) - Math.max(...ms.map((m) => m.processing_ms))).toISOString(),
          ended_at: new Date(Math.max(...times)).toISOString(),
          ms: Math.max(...times) - Math.min(...times) + Math.max(...ms.map((m) => m.processing_ms)),
        }
      : { phase, speakers, started_at: null, ended_at: null, ms: 0 };
  });
  const fallbacks: Record<string, number> = {};
  for (const m of view.messages) fallbacks[String(m.fallback_level)] = (fallbacks[String(m.fallback_level)] ?? 0) + 1;
  return {
    discussion_id: view.discussion_id,
    status: view.status,
    phases,
    messages: view.messages.length,
    tokens: view.messages.reduce((a, m) => a + m.tokens, 0),
    cost_usd: roundUsd(view.messages.reduce((a, m) => a + (m.cost_usd ?? 0), 0)),
    fallbacks,
    workbook,
  };
}

async function run(opts: Opts): Promise<number> {
  const workbook = path.resolve(String(opts.workbook ?? 'kaigi.xlsx'));
  const until = String(opts.until ?? 'decided');
  if (['decided', 'closed', 'idle'].indexOf(until) < 0) throw new UsageError('--until must be decided, closed or idle');
  const provider = String(opts.provider ?? defaultProvider());
  if (vendors.find(provider)?.needs.baseUrl && !opts['base-url'])
    throw new UsageError(`--provider ${provider} needs --base-url`);
  if (provider !== 'rules' && !vendors.find(provider))
    throw new UsageError(`--provider must be ${['rules', ...vendors.names()].join(', ')}; got ${provider}`);
  if (!opts.demo && !opts.trigger) throw new UsageError('give --demo or --trigger FILE.json');
  const locale = opts.locale === undefined ? '' : String(opts.locale);
  if (locale && locale !== 'ja' && locale !== 'en') throw new UsageError('--locale must be ja or en');
  const trigger = opts.trigger ? readTrigger(String(opts.trigger)) : null;
  const baseUrl = opts['base-url'] ? String(opts['base-url']) : '';
  // Everything that would stop the run is refused before anything runs (exit 2).
  writableWorkbook(workbook);
  refuseKeyless(provider, workbook);
  refuseWhileServed(workbook);
  const allow = await allowLocalModel(baseUrl);
  // The one command on the simulated clock: it goes on from where the last run left it, and saves where it ends.
  const { rt } = await openWorkbook(workbook, keysFromEnv(), allow, { clock: 'simulated' });
  // The model choice is configuration of this workbook, kept with its project state (no secret in it).
  if (provider === 'rules') rt.scriptProperties.delete(PROVIDER_OVERRIDE);
  else
    rt.scriptProperties.set({
      [PROVIDER_OVERRIDE]: JSON.stringify({
        provider,
        model: opts.model ? String(opts.model) : 'default',
        base_url: opts['base-url'] ? String(opts['base-url']) : '',
      }),
    });
  let progress: RunProgress | null = null;
  try {
    // --demo loads the demo team, with or without a trigger file of one's own.
    if (opts.demo) await call(rt, 'seedDemoData');
    // The workbook's language (Settings locale): the prompts, the rule-based agents' texts and the Dashboard follow it.
    if (locale) await call(rt, 'updateSetting', [{ key: 'locale', value: locale }]);
    const request = trigger ?? demoTrigger();
    const started = await rt.run('startDiscussion', [request], { kind: 'server' });
    // A trigger the door refuses (an unknown member or type, a misspelt key) is bad input: exit 2, nothing saved.
    if (!started.ok)
      throw new InputError(
        opts.trigger ? `--trigger ${opts.trigger}: ${started.error!.message}` : started.error!.message,
      );
    const { task_id } = started.value as { task_id: string };
    // Progress goes to stderr as the executions commit it (stdout keeps the transcript or the JSON alone).
    progress = opts.quiet ? null : new RunProgress(rt, task_id, (line) => process.stderr.write(`${line}\n`));
    progress?.start();
    const status = () => discussionOfTask(rt, task_id)?.status ?? '';
    const done = () => {
      if (until === 'idle') return queueIdle(rt);
      const d = discussionOfTask(rt, task_id);
      if (!d) return false;
      return until === 'closed' ? d.status === 'CLOSED' || d.status === 'TIMEOUT' : TERMINAL.indexOf(d.status) >= 0;
    };
    await rt.runTriggers(() => done() || (until === 'closed' && TERMINAL.indexOf(status()) >= 0), {
      maxFirings: 2000,
      maxClockMs: 3 * 24 * 3600_000,
    });
    // Closing waits for the review date: skip the idle minutes and go from one daily review to the next.
    // A review is at most MAX_DAYS ahead. With --demo the loop closes whole: the demo's executor carries the orders
    // out and the demo member's KPI comes in day by day (cli/demo-loop.ts); with a team of one's own, the reports
    // and the KPI are that team's to send.
    const decided = discussionOfTask(rt, task_id);
    let loop: LoopReport | null = null;
    const say = (line: string) => progress?.say(line);
    if (until === 'closed' && opts.demo && decided && decided.status === 'DECIDED')
      loop = await closeDemoLoop(rt, { id: decided.id, member: String(request.target_user_id) }, status, MAX_DAYS, say);
    for (let day = 0; until === 'closed' && status() === 'DECIDED' && day <= MAX_DAYS + 1; day++) {
      const review = rt.triggers.triggers.find((t) => t.handler === 'dailyReview' && t.nextAt !== null);
      if (!review) break;
      rt.clock.advanceTo(review.nextAt!);
      // The review's day on the script's calendar, with its time there.
      say(`daily review at ${formatInZone(rt.clock.now(), rt.manifest.timeZone, 'en')}`);
      await rt.fireDueTriggers();
      await rt.runTriggers(() => queueIdle(rt), { maxFirings: 50 });
    }
    progress?.stop();
    const d = discussionOfTask(rt, task_id);
    // The Dashboard as the run left the workbook: its tables and five charts, in the workbook's language.
    await call(rt, 'refreshDashboard');
    await rt.save(workbook);
    if (!d) {
      await warn(`kaigi: task ${task_id} never became a discussion`);
      return 1;
    }
    const view = (await call(rt, 'getDiscussion', [d.id], 'server')) as View;
    const s = { ...summary(view, workbook), ...(loop ? { loop } : {}) };
    const decision = await decisionOf(rt, d.id);
    if (decision?.verdict !== undefined)
      say(`verdict ${decision.verdict}${decision.effect ? `, effect ${decision.effect}` : ''}`);
    if (opts.json) await print(JSON.stringify({ ...s, decision }));
    else {
      const lang: Lang = (locale || (await workbookLocale(rt))) === 'en' ? 'en' : 'ja';
      const names = await namesOf(rt, view, lang);
      const after = until === 'closed' ? outcomeText(view, loop, names) : '';
      await print(transcriptText(view, s, names) + after);
    }
    const reached =
      until === 'idle'
        ? queueIdle(rt)
        : until === 'closed'
          ? d.status === 'CLOSED'
          : d.status === 'DECIDED' || d.status === 'CLOSED';
    return reached ? 0 : 1;
  } finally {
    progress?.halt();
    await rt.close();
  }
}

export const runCommand: Command = {
  name: 'run',
  options: ['workbook', 'trigger', 'provider', 'base-url', 'model', 'until', 'locale'],
  flags: ['demo', 'json', 'quiet'],
  run: ({ opts }) => run(opts),
};
