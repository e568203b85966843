// The security round's findings replayed against `kaigi serve` and `kaigi gateway` on loopback, each printed as
// fixed (the attack is refused or has no effect) or OPEN. What each probe sends is what the finding's reproduction
// sent; tokens stay in this process's memory.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRoot, Runtime } from '../runtime/runtime.js';
import { startServe } from './load-serve.js';

export interface Probe {
  finding: string;
  fixed: boolean;
  detail: string;
}

const kaigi = (args: string[]) =>
  spawnSync(process.execPath, ['bin/kaigi.js', ...args], { cwd: findRoot(), encoding: 'utf8', timeout: 180_000 });

type Json = Record<string, any>;

function client(exec: string, token: string) {
  const post = async (route: string, body: Json = {}): Promise<Json> => {
    const res = await fetch(`${exec}?path=${encodeURIComponent(route)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, ...body }),
      redirect: 'follow',
      signal: AbortSignal.timeout(60_000),
    });
    return JSON.parse(await res.text());
  };
  const get = async (route: string, query: Record<string, string> = {}): Promise<{ code: number; text: string }> => {
    const q = new URLSearchParams({ path: route, ...query, token });
    const res = await fetch(`${exec}?${q}`, { redirect: 'follow', signal: AbortSignal.timeout(60_000) });
    return { code: res.status, text: await res.text() };
  };
  return { post, get };
}

// `kaigi gateway` in front of the served web app, on a free loopback port.
function gatewayOn(exec: string): Promise<{ url: string; stop: () => void }> {
  const proc = spawn(process.execPath, ['bin/kaigi.js', 'gateway', '--url', exec, '--listen', '127.0.0.1:0'], {
    cwd: findRoot(),
  });
  let out = '';
  return new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m) resolve({ url: m[1].replace(/\/$/, ''), stop: () => proc.kill('SIGTERM') });
    });
    proc.once('exit', (code) => reject(new Error(`kaigi gateway exited (${code}) before listening`)));
  });
}

// The decided discussion of the demo run, from the Discussion Log.
async function decidedOf(file: string): Promise<string> {
  const rt = await Runtime.open(file);
  try {
    const r = await rt.run('exportTab', ['Discussion Log'], { kind: 'server' });
    const rows = (r.value as { rows: Json[] }).rows;
    return String(rows.find((x) => x.status === 'DECIDED')?.discussion_id ?? '');
  } finally {
    await rt.close();
  }
}

async function prepare(file: string, settings: [string, string][]): Promise<Record<string, string>> {
  const rt = await Runtime.open(file);
  try {
    for (const [key, value] of settings) {
      const r = await rt.run('updateSetting', [{ key, value }], { kind: 'server' });
      if (!r.ok) throw new Error(`updateSetting ${key}: ${r.error?.message}`);
    }
    const tokens: Record<string, string> = {};
    for (const [name, role] of [
      ['probe-coord', 'coordinator'],
      ['probe-worker', 'worker'],
      ['probe-other', 'worker'],
    ]) {
      const r = await rt.run('createApiClient', [{ name, role }], { kind: 'editor' });
      if (r.ok) tokens[name] = (r.value as { token: string }).token;
    }
    await rt.save(file);
    return tokens;
  } finally {
    await rt.close();
  }
}

export async function securityProbe(): Promise<Probe[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kaigi-probe-'));
  const file = path.join(dir, 'probe.xlsx');
  const out: Probe[] = [];
  const note = (finding: string, fixed: boolean, detail: string) => {
    out.push({ finding, fixed, detail });
    if (process.env.KAIGI_PROBE_DEBUG) console.error(`${fixed ? 'fixed' : 'OPEN'} ${finding}: ${detail}`);
  };
  try {
    const run = kaigi(['run', '--demo', '--workbook', file]);
    if (run.status !== 0) throw new Error(`kaigi run --demo failed: ${run.stderr.slice(-300)}`);
    const t = await prepare(file, []);
    const serving = await startServe(file, 2000);
    try {
      const coord = client(serving.exec, t['probe-coord']);
      const worker = client(serving.exec, t['probe-worker']);
      const other = client(serving.exec, t['probe-other']);
      // N2: a new metric name would have become a column of every prompt.
      const n2 = await worker.post('/kpi', {
        rows: [{ member_id: 'tanaka', date: '2026-01-10', metric: `x${'y'.repeat(190)}`, value: 1 }],
      });
      note('N2 token amplification (new metric names)', n2.status === 400, `POST /kpi → ${n2.status}`);
      // N13: a value of 1e308 and a date in 2999.
      const huge = await worker.post('/kpi', {
        rows: [{ member_id: 'tanaka', date: '2026-01-10', metric: 'contacts', value: 1e308 }],
      });
      const future = await worker.post('/kpi', {
        rows: [{ member_id: 'tanaka', date: '2999-01-01', metric: 'contacts', value: 5 }],
      });
      note(
        'N13 KPI ranges and dates',
        huge.status === 400 && future.status === 400,
        `${huge.status}, ${future.status}`,
      );
      // N10: a prototype-member parameter name.
      const proto = await coord.get('/status', { toString: '1' });
      note(
        'N10 prototype-member query names',
        proto.code === 200 && /"status":\s*400/.test(proto.text),
        proto.text.slice(0, 80),
      );
      // N12: a caller-sent source.
      const started = await coord.post('/tasks', {
        type: 'kpi_decline',
        source: 'watcher',
        target_user_id: 'sato',
        context: { metric: 'contacts' },
        priority: 'MEDIUM',
      });
      const taskId = String(started.task_id ?? '');
      const task = taskId ? await coord.get(`/tasks/${taskId}`) : { code: 0, text: '' };
      const src = /"source":\s*"([^"]+)"/.exec(task.text)?.[1] ?? '';
      note(
        'N12 trigger.source from the caller',
        started.status === 400 || (src !== '' && src !== 'watcher'),
        `status ${started.status}, source ${src || '-'}`,
      );
      // N11: entering a room under another client's name.
      await worker.post('/rooms', { roomName: 'probe-room' });
      const entered = await worker.post('/rooms/probe-room/enter', { agentName: 'probe-other' });
      const mine = await other.post('/rooms/probe-room/enter', { agentName: 'probe-other' });
      note(
        "N11 room names are the clients'",
        mine.status === 200,
        `another's name → ${entered.status}; the real client → ${mine.status}`,
      );
      // N8 (seeded here, checked after the save): a formula in a room message.
      await worker.post('/rooms/probe-room/enter', {});
      await worker.post('/rooms/probe-room/messages', { message: '=HYPERLINK("http://example.invalid","x")' });
      // N6: a 100-message JSON-RPC batch through the gateway.
      const gw = await gatewayOn(serving.exec);
      try {
        const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
        const res = await fetch(`${gw.url}/mcp`, {
          method: 'POST',
          headers: {
            Authorization: 'Bearer not-a-token',
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify(batch),
        });
        note(
          'N6 gateway batch amplification',
          res.status >= 400 && res.status < 500,
          `100-message batch → ${res.status}`,
        );
      } finally {
        gw.stop();
      }
    } finally {
      await serving.stop();
    }
    // N7: the workbook the server saved is the owner's alone.
    const mode = statSync(file).mode & 0o777;
    note('N7 files only the owner can write', mode === 0o600, `mode ${mode.toString(8)}`);
    // N8: the formula comes out of a CSV export neutralised.
    const csv = kaigi(['export', '--workbook', file, '--tab', 'Room Messages', '--format', 'csv']);
    note(
      'N8 CSV export neutralises formulas',
      /'=HYPERLINK/.test(csv.stdout) && !/(^|,)"?=HYPERLINK/m.test(csv.stdout),
      csv.status === 0 ? 'exported' : csv.stderr.slice(0, 80),
    );
    // N3: an objection past the client's cap, to the demo's decided discussion (before N5 reports on its order:
    // an objection to a decision in execution is 409 whatever the budget).
    const decided = await decidedOf(file);
    await prepare(file, [['api.client_daily_tokens', '100']]);
    const again = await startServe(file, 2000);
    try {
      const objection = await client(again.exec, t['probe-coord']).post('/objections', {
        discussion_id: decided,
        reason: 'probe',
      });
      note('N3 objections charge the client', objection.status === 429, `POST /objections → ${objection.status}`);
      const worker = client(again.exec, t['probe-worker']);
      // N5: the same status reported again writes no new message.
      const orders = await worker.get('/orders', { status: 'PENDING' });
      const order = /"order_id":\s*"([^"]+)"/.exec(orders.text)?.[1];
      if (order) {
        const first = await worker.post(`/orders/${order}/report`, { status: 'IN_PROGRESS', report: 'probe' });
        const again = await worker.post(`/orders/${order}/report`, { status: 'IN_PROGRESS', report: 'probe again' });
        note(
          'N5 a repeated report adds no message',
          first.success === true && again.success === true && again.message_id === '',
          `message ids ${first.message_id || '-'}, ${again.message_id || '-'}`,
        );
      } else note('N5 a repeated report adds no message', false, 'no pending order to report on');
    } finally {
      await again.stop();
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printSecurity(p: Probe[]): void {
  console.log('\nSecurity round two, replayed on loopback (kaigi serve and kaigi gateway)');
  for (const x of p) console.log(`  ${x.fixed ? 'fixed' : 'OPEN '}  ${x.finding}: ${x.detail}`);
}
