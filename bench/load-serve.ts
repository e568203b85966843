// The load bench's workbook and server: the demo team in a temp dir, one API client per load client made before
// serving, `kaigi serve` spawned on it (one-shot triggers within seconds), stopped with SIGTERM (it saves), and
// `kaigi verify-audit` afterwards. Tokens stay in this process's memory: nothing here prints one.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { type ExecutionResult, findRoot, Runtime } from '../runtime/runtime.js';

type LoadRole = 'coordinator' | 'worker' | 'viewer';

export interface LoadClient {
  index: number;
  name: string;
  role: LoadRole;
  token: string;
  // A worker's room, which it has entered (as itself: a room member is its client) before the load starts.
  room?: string;
}

const ROOMS = 3;

// Coordinators start discussions, workers talk in rooms, report orders and post KPI, viewers read.
const ROLES: readonly LoadRole[] = ['coordinator', 'worker', 'viewer'];

function kaigi(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['bin/kaigi.js', ...args], {
    cwd: findRoot(),
    encoding: 'utf8',
    timeout: 180_000,
  });
}

function must(r: ExecutionResult): unknown {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.message}`);
  return r.value;
}

// The demo team and its decided discussion (`kaigi run --demo`), then the clients and settings through the script's
// own entry points, as `kaigi token create` does, in one opening of the workbook rather than one process per client.
export async function prepareWorkbook(file: string, clients: number): Promise<LoadClient[]> {
  const run = kaigi(['run', '--demo', '--workbook', file]);
  if (run.status !== 0) throw new Error(`kaigi run --demo failed: ${run.stderr.slice(-500)}`);
  // On the simulated clock each execution starts after the last one ended on Apps Script's clock. On real time the
  // modelled lock holds of 30 back-to-back executions would pile up ahead of the wall clock, and the later ones
  // would time out waiting for the earlier ones' locks.
  const rt = await Runtime.open(file);
  try {
    // The load is about locks and latency, not money: every client may spend the whole day's budget, and the day
    // holds every discussion the run can start (the rules provider's tokens are counted all the same).
    for (const [key, value] of [
      ['limits.daily_token_budget', '100000000'],
      ['api.client_daily_tokens', '100%'],
      ['budget.reserve_share', '0'],
    ])
      must(await rt.run('updateSetting', [{ key, value }], { kind: 'server' }));
    const out: LoadClient[] = [];
    for (let i = 0; i < clients; i++) {
      const role = ROLES[i % ROLES.length];
      const name = `load-${role}-${String(i).padStart(2, '0')}`;
      const made = must(await rt.run('createApiClient', [{ name, role }], { kind: 'editor' })) as { token: string };
      out.push({ index: i, name, role, token: made.token });
    }
    // Each worker in one of a few rooms, through the web app as a client would; the load then measures messages.
    for (const c of out.filter((x) => x.role === 'worker')) {
      const room = `load-room-${c.index % ROOMS}`;
      const post = async (route: string, body: object) =>
        JSON.parse((await rt.doPost({ path: route }, JSON.stringify({ token: c.token, ...body }))).body);
      const made = await post('/rooms', { roomName: room, description: 'load bench' });
      if (made.status !== 200 && made.error?.code !== 'ROOM_ALREADY_EXISTS')
        throw new Error(`creating ${room}: ${JSON.stringify(made.error)}`);
      const entered = await post(`/rooms/${room}/enter`, {
        profile: { role: 'load', description: 'a load bench client' },
      });
      if (entered.status !== 200) throw new Error(`entering ${room}: ${JSON.stringify(entered.error)}`);
      c.room = room;
    }
    await rt.save(file);
    return out;
  } finally {
    await rt.close();
  }
}

// The trigger executions the server ran while serving, from its log lines (cli/commands/serve.ts, trigger-loop.ts).
export interface TriggerRuns {
  ran: number;
  failed: number;
  // Of the failed, those that could not have the script lock in time.
  lock_timeouts: number;
  by_fn: Record<string, number>;
}

export interface Serving {
  exec: string;
  triggers: TriggerRuns;
  // SIGTERM, then the exit code once it has saved.
  stop(): Promise<number | null>;
  stderr(): string;
}

export function startServe(file: string, afterMaxMs: number, lockOrder = 'fifo'): Promise<Serving> {
  const args = ['bin/kaigi.js', 'serve', '--workbook', file, '--port', '0', '--after-max-ms', String(afterMaxMs)];
  args.push('--lock-order', lockOrder);
  const child: ChildProcess = spawn(process.execPath, args, { cwd: findRoot(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let partial = '';
  const triggers: TriggerRuns = { ran: 0, failed: 0, lock_timeouts: 0, by_fn: {} };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (d) => {
    // Only the tail is kept: a long run logs every trigger failure, and the report quotes the end.
    err = (err + d).slice(-20_000);
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const m = /trigger (\S+) (ran|failed)/.exec(line);
      if (!m) continue;
      triggers.by_fn[m[1]] = (triggers.by_fn[m[1]] ?? 0) + 1;
      if (m[2] === 'ran') triggers.ran++;
      else triggers.failed++;
      if (m[2] === 'failed' && /BusyError|lock_timeout/.test(line)) triggers.lock_timeouts++;
    }
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m)
        resolve({
          exec: `${m[1].replace(/\/$/, '')}/exec`,
          triggers,
          stop: () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
          stderr: () => err,
        });
    });
    exited.then((code) => reject(new Error(`kaigi serve exited (${code}) before listening: ${err.slice(-500)}`)));
  });
}

export interface VerifyAudit {
  ok: boolean;
  line: string;
}

export function verifyAudit(file: string): VerifyAudit {
  const r = kaigi(['verify-audit', '--workbook', file]);
  const line = (r.stdout.trim().split('\n').pop() ?? '') || r.stderr.trim().split('\n').pop() || '';
  return { ok: r.status === 0 && /audit chain intact/.test(line), line };
}
