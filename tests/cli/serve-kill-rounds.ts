// The kill test's rounds: `kaigi serve` takes concurrent POST /tasks, is killed (-9) at a seeded random moment and
// restarted on the same workbook, round after round; then every task answered 202 must be in the workbook, no id may
// have been answered for two requests, and the audit chain must verify.
import path from 'node:path';
import { demoTrigger } from '../../src/core/demo-data.js';
import { Runtime } from '../../runtime/runtime.js';
import { seededRandom } from '../../tools/seeded-random.js';
import { spawnSync } from 'node:child_process';
import { KAIGI, root, type Served, serve } from './serve-process.js';

export interface KillOptions {
  dir: string;
  rounds: number;
  // POST /tasks per round (fewer when the kill comes first).
  posts: number;
  // Requests in flight at once.
  concurrency: number;
  seed: number;
  // Coordinator tokens the posts take turns with, so no token meets the per-minute rate limit.
  tokens: number;
  // `kaigi serve --time-scale`: the share of Apps Script's modelled time each call takes. Answers are paced to their
  // executions' modelled ends and lock holds last that long, so at 1 four clients get about one task a second
  // acknowledged; durability does not depend on that pace, and a smaller share sends the same requests sooner.
  timeScale: number;
  log?: (line: string) => void;
}

export interface KillReport {
  sent: number;
  acknowledged: number;
  // Acknowledged tasks found in the workbook at the end, and those missing.
  found: number;
  lost: string[];
  // Ids answered for two different requests.
  reused: string[];
  // Ids the Queue tab holds twice.
  duplicateRows: string[];
  // Answers other than 202 (a status and how often), and requests with no answer (the kill).
  refused: Record<string, number>;
  unanswered: number;
  verifyStatus: number | null;
  verifyOutput: string;
  wallMs: number;
}

interface Ack {
  request: string;
  task_id: string;
  discussion_id: string;
}

export async function postTask(
  url: string,
  body: unknown,
): Promise<{ status?: number; task_id?: string; discussion_id?: string } | null> {
  try {
    const res = await fetch(`${url}/exec?path=${encodeURIComponent('/tasks')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    if (res.status !== 200) return { status: res.status };
    return (await res.json()) as { status?: number };
  } catch {
    // The server was killed before it answered (or before its echo URL did).
    return null;
  }
}

// One round: `posts` requests, `concurrency` at a time, and a kill -9 shortly after a drawn one is sent.
async function round(
  served: Served,
  o: KillOptions,
  r: number,
  draw: () => number,
  tokens: string[],
  out: {
    acks: Ack[];
    report: KillReport;
  },
): Promise<void> {
  const killAt = 1 + Math.floor(draw() * o.posts);
  const killDelay = Math.floor(draw() * 400);
  let next = 0;
  let killed = false;
  let kill: Promise<unknown> | null = null;
  const worker = async () => {
    while (!killed && next < o.posts) {
      const i = next++;
      const request = `r${r}-${i}`;
      const keyed = draw() < 0.5;
      const body = {
        token: tokens[i % tokens.length],
        ...demoTrigger(),
        ...(keyed ? { idempotency_key: request } : {}),
      };
      out.report.sent++;
      if (i + 1 === killAt)
        kill = new Promise((resolve) => setTimeout(resolve, killDelay)).then(() => {
          killed = true;
          return served.stop('SIGKILL');
        });
      const answer = await postTask(served.url, body);
      if (!answer) out.report.unanswered++;
      else if (answer.status === 202 && answer.task_id) {
        out.acks.push({ request, task_id: answer.task_id, discussion_id: String(answer.discussion_id ?? '') });
        out.report.acknowledged++;
      } else {
        const k = String(answer.status);
        out.report.refused[k] = (out.report.refused[k] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  killed = true;
  await (kill ?? served.stop('SIGKILL'));
}

// The report, and the workbook and tokens for a test to go on with (never printed: a token is a secret).
export async function killRounds(o: KillOptions): Promise<{ report: KillReport; book: string; tokens: string[] }> {
  const started = Date.now();
  const log = o.log ?? (() => {});
  const draw = seededRandom(o.seed);
  const book = path.join(o.dir, 'kill.xlsx');
  const report: KillReport = {
    sent: 0,
    acknowledged: 0,
    found: 0,
    lost: [],
    reused: [],
    duplicateRows: [],
    refused: {},
    unanswered: 0,
    verifyStatus: null,
    verifyOutput: '',
    wallMs: 0,
  };
  // A new workbook with the demo team (the trigger door lets in only members) and the coordinator tokens, made in
  // this process and saved once: what `kaigi run --demo` and `kaigi token create` would leave, without two more
  // processes that each load the CLI and save the workbook. Its simulated clock has moved on (each execution's
  // modelled time), so serve's real clock keeps a saved offset beside its own, as after a `kaigi run`.
  // Thousands of discussions from a few clients: the per-client and shared API budgets (issue 22) would refuse most of
  // them with 429, and this test is about durability, not budgets.
  const tokens: string[] = [];
  const rt = await Runtime.open(book);
  try {
    const step = async (fn: string, args: unknown[] = []) => {
      const r = await rt.run(fn, args, { kind: 'editor' });
      if (!r.ok) throw new Error(`${fn} failed: ${r.error?.message}`);
      return r.value;
    };
    await step('setup');
    await step('seedDemoData');
    for (const [key, value] of [
      ['limits.daily_token_budget', '100000000000'],
      ['api.client_daily_tokens', '100%'],
    ])
      await step('updateSetting', [{ key, value }]);
    for (let i = 0; i < o.tokens; i++)
      tokens.push(
        ((await step('createApiClient', [{ name: `kill-${i}`, role: 'coordinator' }])) as { token: string }).token,
      );
    await rt.save(book);
  } finally {
    await rt.close();
  }
  log(`workbook and ${o.tokens} tokens made in ${Date.now() - started} ms`);
  const acks: Ack[] = [];
  for (let r = 0; r < o.rounds; r++) {
    const t0 = Date.now();
    const served = await serve(book, '--time-scale', String(o.timeScale));
    const t1 = Date.now();
    const before = report.acknowledged;
    await round(served, o, r, draw, tokens, { acks, report });
    log(
      `round ${r + 1}: started in ${t1 - t0} ms, ${report.acknowledged - before} acknowledged in ${Date.now() - t1} ms, killed`,
    );
  }
  // Answered twice: one id for two requests.
  for (const field of ['task_id', 'discussion_id'] as const) {
    const by = new Map<string, string>();
    for (const a of acks) {
      if (!a[field]) continue;
      const first = by.get(a[field]);
      if (first !== undefined && first !== a.request) report.reused.push(`${a[field]} (${first}, ${a.request})`);
      else by.set(a[field], a.request);
    }
  }
  // Thousands of rows: more output than spawnSync's 1 MB default, and minutes on a busy machine.
  const slow = (args: string[]) =>
    spawnSync(process.execPath, [KAIGI, ...args], {
      encoding: 'utf8',
      cwd: root,
      timeout: 1_800_000,
      maxBuffer: 1 << 30,
    });
  const tE = Date.now();
  const exported = slow(['export', '--workbook', book, '--tab', 'Queue']);
  log(`export ${Date.now() - tE} ms`);
  if (exported.status !== 0)
    throw new Error(`kaigi export failed (${exported.status} ${exported.signal}): ${exported.stderr}`);
  const rows = JSON.parse(exported.stdout) as Record<string, string>[];
  const ids = rows.map((row) => String(row.id));
  const queued = new Map<string, string>(rows.map((row) => [String(row.id), String(row.payload_json ?? '')]));
  report.duplicateRows = ids.filter((id, i) => ids.indexOf(id) !== i);
  for (const a of acks) {
    const payload = queued.get(a.task_id);
    if (payload !== undefined && payload.indexOf(a.discussion_id) >= 0) report.found++;
    else report.lost.push(`${a.task_id}/${a.discussion_id} (${a.request})`);
  }
  const tV = Date.now();
  const verify = slow(['verify-audit', '--workbook', book]);
  log(`verify ${Date.now() - tV} ms`);
  report.verifyStatus = verify.status;
  report.verifyOutput = (verify.stdout + verify.stderr).trim();
  report.wallMs = Date.now() - started;
  return { report, book, tokens };
}
