// kaigi: the command line (SPEC §12) — runs the built Apps Script file in the local runtime on a workbook.
import fs from 'node:fs';
import path from 'node:path';
import { isLocalUrl, originOf, Runtime, type ExecutionResult } from '../runtime/runtime.js';
import { FormatError, FormatVersionError } from '../runtime/host/format-errors.js';
import { rowsOf } from '../sheets-schema/index.js';
import { demoTrigger } from '../src/core/demo-data.js';
import { CONTENT_SCHEMAS, MAX_DAYS } from '../src/core/messages.js';
import { REPORT_STATUSES } from '../src/core/order-status.js';
import { Settings } from '../src/core/settings.js';
import { registry as vendors } from '../src/core/providers/vendor-registry.js';

// Bad usage (exit 2, with the usage), and bad input that the usage would not help with (exit 2, one line).
class UsageError extends Error {}
class InputError extends UsageError {}

const USAGE = `usage:
  kaigi run [--demo] [--trigger FILE.json] [--workbook FILE.xlsx] [--provider ${['rules', ...vendors.names()].join('|')}]
            [--base-url URL] [--model NAME] [--until decided|closed|idle] [--json]
  kaigi tick --workbook FILE.xlsx
  kaigi export --workbook FILE.xlsx --tab NAME [--format json|csv]
  kaigi verify-audit --workbook FILE.xlsx
  kaigi object --workbook FILE.xlsx --discussion ID --reason TEXT [--alternative TEXT] [--urgency LEVEL] [--objector WHO]
  kaigi resolve --workbook FILE.xlsx --discussion ID --action approve|return|reject [--guidance TEXT] [--order FILE.json]
  kaigi report --workbook FILE.xlsx --discussion ID --status ${REPORT_STATUSES.join('|')} [--report TEXT] [--by NAME]`;

const FLAGS = new Set(['demo', 'json']);

function parse(argv: string[]): { command: string; opts: Record<string, string | boolean> } {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') throw new UsageError('');
  const opts: Record<string, string | boolean> = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument "${a}"`);
    const key = a.slice(2);
    if (FLAGS.has(key)) opts[key] = true;
    else {
      const v = rest[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`--${key} needs a value`);
      opts[key] = v;
    }
  }
  return { command, opts };
}

// Output is written before the process exits, to a pipe too: a pipe takes 64 KB at a time, and process.exit()
// would drop the rest. Each write resolves once the stream has handed it on; the reader having gone (EPIPE,
// `| head`) is not an error of ours.
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) =>
    stream.write(text, (e) => (e && (e as NodeJS.ErrnoException).code !== 'EPIPE' ? reject(e) : resolve())),
  );
}
const print = (text: string) => write(process.stdout, `${text}\n`);
const warn = (text: string) => write(process.stderr, `${text}\n`);
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });

function need(opts: Record<string, string | boolean>, key: string): string {
  const v = opts[key];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${key} is required`);
  return v;
}

async function call(
  rt: Runtime,
  fn: string,
  args: unknown[] = [],
  kind: 'editor' | 'trigger' | 'server' = 'editor',
): Promise<any> {
  const r: ExecutionResult = await rt.run(fn, args, { kind });
  if (!r.ok) throw new Error(`${fn} failed: ${r.error?.message}`);
  return r.value;
}

// Environment variable → Script Property, one per registered vendor.
const ENV_KEYS = vendors.envKeys();
const OVERRIDE = 'KAIGI_PROVIDER_OVERRIDE';

// Keys come from the environment only; they reach the script as properties that are never saved.
function keysFromEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [env, prop] of Object.entries(ENV_KEYS)) if (process.env[env]) out[prop] = String(process.env[env]);
  return out;
}

function defaultProvider(): string {
  // The first vendor in registry order whose key is set and that needs no --base-url.
  return vendors.all.find((v) => process.env[v.envKey] && !v.needs.baseUrl)?.name ?? 'rules';
}

async function openWorkbook(
  file: string,
  secrets: Record<string, string> = {},
  allowLocalFetch: string[] = [],
): Promise<{ rt: Runtime; fresh: boolean }> {
  const fresh = !fs.existsSync(file);
  const rt = await Runtime.open(file, { echoLogs: process.env.KAIGI_DEBUG === '1', secrets, allowLocalFetch });
  if (fresh) await call(rt, 'setup');
  return { rt, fresh };
}

function readTrigger(file: string): Record<string, unknown> {
  let t: unknown;
  try {
    t = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`cannot read trigger ${file}: ${(e as Error).message}`);
  }
  const x = t as Record<string, unknown>;
  if (!x || typeof x !== 'object' || Array.isArray(x)) throw new InputError('a trigger file holds a JSON object');
  if (typeof x.type !== 'string' || typeof x.target_user_id !== 'string')
    throw new InputError('a trigger needs "type" and "target_user_id" strings');
  return x;
}

// An EXECUTION_ORDER content for `resolve --order`, checked against the message schema (Kaigi gives an approved
// order its own decision id, so the file may leave decision_id out) and the workbook's action allow-list.
function readOrder(file: string, rt: Runtime): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`cannot read order ${file}: ${(e as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new InputError(`--order ${file}: an order file holds a JSON object (an EXECUTION_ORDER content)`);
  const parsed = CONTENT_SCHEMAS.EXECUTION_ORDER.omit({ decision_id: true }).safeParse(raw);
  if (!parsed.success)
    throw new InputError(
      `--order ${file}: ${parsed.error.issues
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')
        .replace(/\s+/g, ' ')}`,
    );
  const allow = settingsOf(rt).get<string[]>('actions.allow_list');
  parsed.data.actions.forEach((a, i) => {
    if (allow.indexOf(a.action_type) < 0)
      throw new InputError(
        `--order ${file}: actions.${i}.action_type: ${a.action_type} is not in the allow-list (Settings actions.allow_list)`,
      );
  });
  return parsed.data as unknown as Record<string, unknown>;
}

// The workbook's Settings as the script reads them (defaults for rows it lacks).
function settingsOf(rt: Runtime): Settings {
  const wb = rt.workbook;
  const sheet = wb.sheetByName('Settings') ?? wb.sheetByName('設定');
  const cols = rowsOf('settings');
  const values: Record<string, string> = {};
  if (sheet && wb.lastRow(sheet) >= 2)
    for (const r of wb.getValues(sheet, 2, 1, wb.lastRow(sheet) - 1, cols.width).map((v) => cols.read(v)))
      if (r.key !== '') values[String(r.key)] = String(r.value);
  return new Settings(values);
}

// The discussion a queue task became, once a tick has opened it.
function discussionOfTask(rt: Runtime, taskId: string): { id: string; status: string } | null {
  const wb = rt.workbook;
  const queue = wb.sheetByName('Queue');
  const log = wb.sheetByName('Discussion Log') ?? wb.sheetByName('議論ログ');
  if (!queue || !log) return null;
  const queueCols = rowsOf('queue');
  const q = wb
    .getValues(queue, 1, 1, Math.max(1, wb.lastRow(queue)), queueCols.index('payload_json') + 1)
    .map((r) => queueCols.read(r))
    .find((r) => r.id === taskId);
  if (!q) return null;
  let id = '';
  try {
    id = String(JSON.parse(String(q.payload_json)).discussion_id ?? '');
  } catch {
    return null;
  }
  if (!id) return null;
  const logCols = rowsOf('discussions');
  const row = wb
    .getValues(log, 1, 1, Math.max(1, wb.lastRow(log)), logCols.index('status') + 1)
    .map((r) => logCols.read(r))
    .find((r) => r.discussion_id === id);
  return row ? { id, status: String(row.status) } : null;
}

function queueIdle(rt: Runtime): boolean {
  const wb = rt.workbook;
  const queue = wb.sheetByName('Queue');
  if (!queue || wb.lastRow(queue) < 2) return true;
  const cols = rowsOf('queue');
  return wb
    .getValues(queue, 2, 1, wb.lastRow(queue) - 1, cols.index('status') + 1)
    .map((r) => cols.read(r).status)
    .every((status) => status === 'done' || status === 'dead');
}

const TERMINAL = ['DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'];

interface View {
  discussion_id: string;
  status: string;
  messages: {
    message_id: string;
    phase: number;
    speaker: string;
    type: string;
    brief: string;
    timestamp: string;
    tokens: number;
    processing_ms: number;
    stated: number | null;
    computed: number | null;
    fallback_level: number;
    error_code: string;
    model: string;
    cost_usd?: number;
  }[];
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
    cost_usd: Math.round(view.messages.reduce((a, m) => a + (m.cost_usd ?? 0), 0) * 1e6) / 1e6,
    fallbacks,
    workbook,
  };
}

function transcript(view: View, s: ReturnType<typeof summary>): string {
  const lines = [`${view.discussion_id}  ${view.status}`, ''];
  for (const p of s.phases) {
    lines.push(`── Phase ${p.phase}  (${p.ms} ms, ${p.speakers.length} speaker${p.speakers.length === 1 ? '' : 's'})`);
    for (const m of view.messages.filter((x) => x.phase === p.phase)) {
      const conf =
        m.stated !== null || m.computed !== null ? ` conf stated=${m.stated ?? '-'} computed=${m.computed ?? '-'}` : '';
      const fb = m.fallback_level ? ` fallback=L${m.fallback_level}` : '';
      const err = m.error_code ? ` ${m.error_code}` : '';
      lines.push(`  ${m.speaker.padEnd(16)} ${m.type.padEnd(22)}${conf}${fb}${err}  ${m.processing_ms}ms`);
      lines.push(`      ${m.brief.replace(/^\[[^\]]*\]\s*/, '').slice(0, 160)}`);
    }
  }
  lines.push(
    '',
    `messages ${s.messages}, tokens ${s.tokens}, fallbacks ${JSON.stringify(s.fallbacks)}`,
    `workbook: ${s.workbook}`,
  );
  return lines.join('\n');
}

async function run(opts: Record<string, string | boolean>): Promise<number> {
  const workbook = path.resolve(String(opts.workbook ?? 'kaigi.xlsx'));
  const until = String(opts.until ?? 'decided');
  if (['decided', 'closed', 'idle'].indexOf(until) < 0) throw new UsageError('--until must be decided, closed or idle');
  const provider = String(opts.provider ?? defaultProvider());
  if (vendors.find(provider)?.needs.baseUrl && !opts['base-url'])
    throw new UsageError(`--provider ${provider} needs --base-url`);
  if (provider !== 'rules' && !vendors.find(provider)) throw new UsageError(`unknown provider ${provider}`);
  if (!opts.demo && !opts.trigger) throw new UsageError('give --demo or --trigger FILE.json');
  const trigger = opts.trigger ? readTrigger(String(opts.trigger)) : null;
  // UrlFetchApp cannot reach this machine or a private network from Google's servers, and neither can the runtime,
  // except for the one local model server the user names here; said once, since a deployed Kaigi cannot reach it.
  const baseUrl = opts['base-url'] ? String(opts['base-url']) : '';
  const allow = baseUrl && (await isLocalUrl(baseUrl)) ? [originOf(baseUrl)] : [];
  if (allow.length)
    await warn(
      `kaigi: allowing UrlFetchApp to reach ${allow[0]} (local model server): a deployed Kaigi cannot reach it`,
    );
  const { rt } = await openWorkbook(workbook, keysFromEnv(), allow);
  // The model choice is configuration of this workbook, kept with its project state (no secret in it).
  if (provider === 'rules') rt.scriptProperties.delete(OVERRIDE);
  else
    rt.scriptProperties.set({
      [OVERRIDE]: JSON.stringify({
        provider,
        model: opts.model ? String(opts.model) : 'default',
        base_url: opts['base-url'] ? String(opts['base-url']) : '',
      }),
    });
  try {
    if (!trigger) await call(rt, 'seedDemoData');
    const request = trigger ?? demoTrigger();
    const { task_id } = await call(rt, 'startDiscussion', [request], 'server');
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
    // A review is at most MAX_DAYS ahead.
    for (let day = 0; until === 'closed' && status() === 'DECIDED' && day <= MAX_DAYS + 1; day++) {
      const review = rt.triggers.triggers.find((t) => t.handler === 'dailyReview' && t.nextAt !== null);
      if (!review) break;
      rt.clock.advanceTo(review.nextAt!);
      await rt.fireDueTriggers();
      await rt.runTriggers(() => queueIdle(rt), { maxFirings: 50 });
    }
    const d = discussionOfTask(rt, task_id);
    await rt.save(workbook);
    if (!d) {
      await warn(`kaigi: task ${task_id} never became a discussion`);
      return 1;
    }
    const view = (await call(rt, 'getDiscussion', [d.id], 'server')) as View;
    const s = summary(view, workbook);
    await print(opts.json ? JSON.stringify(s) : transcript(view, s));
    const reached =
      until === 'idle'
        ? queueIdle(rt)
        : until === 'closed'
          ? d.status === 'CLOSED'
          : d.status === 'DECIDED' || d.status === 'CLOSED';
    return reached ? 0 : 1;
  } finally {
    await rt.close();
  }
}

function csv(columns: string[], rows: Record<string, unknown>[]): string {
  const cell = (v: unknown) => {
    const s = v === undefined || v === null ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.map(cell).join(',')].concat(rows.map((r) => columns.map((c) => cell(r[c])).join(','))).join('\n');
}

async function existing(opts: Record<string, string | boolean>): Promise<{ rt: Runtime; file: string }> {
  const file = path.resolve(need(opts, 'workbook'));
  if (!fs.existsSync(file)) throw new InputError(`no workbook at ${file}`);
  return { rt: await Runtime.open(file, { secrets: keysFromEnv() }), file };
}

async function main(argv: string[]): Promise<number> {
  const { command, opts } = parse(argv);
  switch (command) {
    case 'run':
      return run(opts);
    case 'tick': {
      const { rt, file } = await existing(opts);
      try {
        const r = await rt.run('tick', [], { kind: 'trigger' });
        await rt.save(file);
        await print(JSON.stringify(r.ok ? r.value : { error: r.error?.message }));
        return r.ok ? 0 : 1;
      } finally {
        await rt.close();
      }
    }
    case 'export': {
      const format = String(opts.format ?? 'json');
      if (format !== 'json' && format !== 'csv') throw new UsageError('--format must be json or csv');
      const { rt } = await existing(opts);
      try {
        const r = await rt.run('exportTab', [need(opts, 'tab')], { kind: 'editor' });
        if (!r.ok) throw new InputError(r.error!.message);
        const out = r.value as { columns: string[]; rows: Record<string, unknown>[] };
        await print(format === 'json' ? JSON.stringify(out.rows, null, 1) : csv(out.columns, out.rows));
        return 0;
      } finally {
        await rt.close();
      }
    }
    case 'verify-audit': {
      const { rt } = await existing(opts);
      try {
        const report = (await call(rt, 'verifyAudit')) as {
          ok: boolean;
          rows: number;
          problem?: { tab: string; row: number; detail: string };
        };
        await print(
          report.ok
            ? `audit chain intact: ${report.rows} rows`
            : `audit broken at ${report.problem!.tab} row ${report.problem!.row}: ${report.problem!.detail}`,
        );
        return report.ok ? 0 : 1;
      } finally {
        await rt.close();
      }
    }
    case 'object':
    case 'resolve': {
      const { rt, file } = await existing(opts);
      try {
        const input: Record<string, unknown> = { discussion_id: need(opts, 'discussion') };
        if (command === 'object')
          Object.assign(input, {
            reason: need(opts, 'reason'),
            alternative: opts.alternative ?? '-',
            urgency: opts.urgency ?? 'MEDIUM',
            objector: opts.objector ?? 'human',
            source: 'human',
          });
        else {
          Object.assign(input, { action: need(opts, 'action'), guidance: opts.guidance, by: 'cli' });
          if (opts.order) input.order = readOrder(String(opts.order), rt);
        }
        const r = await rt.run(command === 'object' ? 'fileObjection' : 'resolveEscalation', [input], {
          kind: 'server',
        });
        if (!r.ok) throw new InputError(r.error!.message);
        await rt.runTriggers(() => queueIdle(rt), { maxFirings: 200 });
        await rt.save(file);
        await print(JSON.stringify(r.value));
        return 0;
      } finally {
        await rt.close();
      }
    }
    case 'report': {
      const status = need(opts, 'status');
      if ((REPORT_STATUSES as readonly string[]).indexOf(status) < 0)
        throw new UsageError(`--status must be ${REPORT_STATUSES.join(', ')}; got ${status}`);
      const input: Record<string, unknown> = { discussion_id: need(opts, 'discussion'), status };
      if (opts.report !== undefined) input.report = String(opts.report);
      if (opts.by !== undefined) input.by = String(opts.by);
      const { rt, file } = await existing(opts);
      try {
        const r = await rt.run('reportOrder', [input], { kind: 'server' });
        // An unknown discussion, a report its orders' status does not allow, a bad field: bad input (exit 2).
        if (!r.ok) throw new InputError(r.error!.message);
        await rt.save(file);
        await print(JSON.stringify(r.value));
        return 0;
      } finally {
        await rt.close();
      }
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

// Exits only once everything printed has been written; the runtime's workers are closed by then.
async function exit(code: number | Promise<number>): Promise<never> {
  process.exit(await code);
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (e) =>
    exit(
      // An unreadable workbook is bad input, not a broken audit.
      e instanceof InputError || e instanceof FormatError || e instanceof FormatVersionError
        ? warn(`kaigi: ${e.message.replace(/\s*\n\s*/g, ' ')}`).then(() => 2)
        : e instanceof UsageError
          ? warn(e.message ? `kaigi: ${e.message}\n${USAGE}` : USAGE).then(() => 2)
          : warn(`kaigi: ${(e as Error).message}`).then(() => 1),
    ),
);
