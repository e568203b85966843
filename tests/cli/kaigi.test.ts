// The command line as a user runs it: the demo, export (through a pipe too), verify-audit on a saved workbook, order
// reports and escalation orders, and its exit codes.
import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportTabs } from './saved-workbook.js';
import { kaigi as runKaigi, root } from './serve-process.js';
import { newRuntime, rowValues } from '../helpers.js';

// `kaigi …` to completion, as tests/cli/serve-process.ts runs it.
const kaigi = (...args: string[]) => runKaigi(args);

describe('kaigi', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-cli-'));
  const book = path.join(dir, 'demo.xlsx');
  // The discussion the trigger-file test escalates, which the resolve test approves.
  let escalated = '';

  it('run --demo --json reaches DECIDED with 14 speakers over six phases and saves the workbook', () => {
    const r = kaigi('run', '--demo', '--workbook', book, '--json');
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout.trim());
    expect(s).toMatchObject({ status: 'DECIDED', workbook: book });
    expect(s.discussion_id).toMatch(/^DISC-\d{4}-\d{2}-\d{2}-001$/);
    expect(s.phases.map((p: { phase: number }) => p.phase)).toEqual([1, 2, 3, 4, 5, 6]);
    const speakers = new Set(s.phases.flatMap((p: { speakers: string[] }) => p.speakers));
    expect(speakers.size).toBe(14);
    for (const p of s.phases) expect(p).toHaveProperty('ms');
    // The demo's example: six phases without feedback rounds, sixteen messages.
    expect(s.messages).toBe(16);
    // The token total is the sum over the stored messages.
    const stored = JSON.parse(kaigi('export', '--workbook', book, '--tab', 'Messages').stdout);
    expect(stored.length).toBe(16);
    expect(s.tokens).toBe(stored.reduce((a: number, m: { tokens_consumed: number }) => a + m.tokens_consumed, 0));
    expect(s.tokens).toBeGreaterThan(0);
    expect(s.fallbacks).toEqual({ '0': s.messages });
    expect(fs.existsSync(book)).toBe(true);
  });

  it("prints a readable transcript without --json, in the workbook's language (ja by default)", () => {
    const r = kaigi('run', '--demo', '--workbook', path.join(dir, 'text.xlsx'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/── フェーズ 1/);
    expect(r.stdout).toMatch(/分析特化\s+状況報告/);
    expect(r.stdout).toMatch(/12 → 5/);
    expect(r.stdout).toMatch(/決裁者\s+実行指示/);
    expect(r.stdout).not.toMatch(/[A-Z]+_[A-Z_]+/);
  });

  it('exports logical rows by English or Japanese tab name, as JSON or CSV', () => {
    const json = kaigi('export', '--workbook', book, '--tab', '議論ログ');
    expect(json.status, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout);
    expect(rows.length).toBe(1);
    expect(rows[0].status).toBe('DECIDED');
    expect(JSON.parse(rows[0].messages_json).length).toBe(16);
    const csv = kaigi('export', '--workbook', book, '--tab', 'Orders', '--format', 'csv');
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe(
      'order_id,decision_id,discussion_id,target_agent,action_json,status,review_date,success_criteria_json,updated_at,last_report',
    );
    expect(kaigi('export', '--workbook', book, '--tab', 'Nope').status).toBe(2);
  });

  it('verify-audit passes on the saved workbook and fails with the row after an edit in a spreadsheet program', async () => {
    const ok = kaigi('verify-audit', '--workbook', book);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/audit chain intact/);
    const x = new ExcelJS.Workbook();
    await x.xlsx.readFile(book);
    x.getWorksheet('Discussion Log')!.getCell('N2').value = 'changed in Excel';
    const tampered = path.join(dir, 'tampered.xlsx');
    await x.xlsx.writeFile(tampered);
    fs.copyFileSync(`${book}.project.json`, `${tampered}.project.json`);
    const bad = kaigi('verify-audit', '--workbook', tampered);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/audit broken at Discussion Log row 2/);
  });

  it('runs one tick on a saved workbook', () => {
    const r = kaigi('tick', '--workbook', book);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ran: true });
  });

  it('exits 2 with a one-line reason for bad usage or input', () => {
    const none = kaigi('run');
    expect(none.status).toBe(2);
    expect(none.stderr.split('\n')[0]).toMatch(/^kaigi: give --demo or --trigger/);
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, '{"type": 1}');
    expect(kaigi('run', '--trigger', file, '--workbook', path.join(dir, 'x.xlsx')).status).toBe(2);
    expect(kaigi('frobnicate').status).toBe(2);
    expect(kaigi('tick', '--workbook', path.join(dir, 'missing.xlsx')).status).toBe(2);
    // A usage error is one line and where the command's usage is, not the whole usage.
    expect(none.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^kaigi: give --demo/),
      'see `kaigi help run`',
    ]);
    const typo = kaigi('run', '--demmo');
    expect(typo.status).toBe(2);
    expect(typo.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^kaigi: unknown option --demmo for kaigi run \(it takes /),
      'see `kaigi help run`',
    ]);
  });

  it('runs a trigger file and exits 1 when the discussion ends escalated', () => {
    const file = path.join(dir, 'trigger.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        type: 'manual',
        source: 'human',
        target_user_id: 'tanaka',
        context: { request: '位置情報を監視したい' },
        priority: 'HIGH',
      }),
    );
    const r = kaigi('run', '--demo', '--trigger', file, '--workbook', path.join(dir, 'esc.xlsx'), '--json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).status).toBe('ESCALATED');
    escalated = JSON.parse(r.stdout).discussion_id;
  });

  it('resolve --order takes an EXECUTION_ORDER content, and names the wrong field in one line when it is not one', async () => {
    const esc = path.join(dir, 'esc.xlsx');
    // Tabs read in this process, as `kaigi export` prints them (the tests above run that command): a process each
    // costs seconds.
    const tabs = (...names: string[]) => exportTabs(esc, names);
    const [log] = (await tabs('Discussion Log'))['Discussion Log'];
    expect([log.discussion_id, log.status]).toEqual([escalated, 'ESCALATED']);
    const order = {
      target_agents: ['buddy'],
      actions: [
        {
          action_type: 'ONE_ON_ONE',
          target: 'tanaka',
          description: '位置情報は使わず、週1回の1on1で状況を聞く',
          intensity: 'low',
          timing: '金曜 16:00',
          duration_days: 14,
        },
      ],
      monitoring: {
        metrics: ['contacts'],
        review_date: '2026-12-31',
        success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
      },
    };
    const resolve = (name: string, content: unknown) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, JSON.stringify(content));
      return kaigi(
        'resolve',
        '--workbook',
        esc,
        '--discussion',
        log.discussion_id,
        '--action',
        'approve',
        '--order',
        file,
      );
    };
    const oneLine = (r: ReturnType<typeof kaigi>) => {
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      return r.stderr.trim();
    };
    const bad = { ...order, actions: [{ ...order.actions[0], intensity: 'extreme' }] };
    expect(oneLine(resolve('bad-order.json', bad))).toMatch(
      /^kaigi: --order \S+bad-order\.json: actions\.0\.intensity: /,
    );
    const late = { ...order, monitoring: { ...order.monitoring, review_date: '31/12/2026' } };
    expect(oneLine(resolve('late.json', late))).toMatch(/monitoring\.review_date: expected YYYY-MM-DD$/);
    const unlisted = { ...order, actions: [{ ...order.actions[0], action_type: 'LOCATION_TRACKING' }] };
    expect(oneLine(resolve('unlisted.json', unlisted))).toMatch(
      /actions\.0\.action_type: LOCATION_TRACKING is not in the allow-list \(Settings actions\.allow_list\)$/,
    );
    // The trigger shape that used to be asked for is no order.
    expect(oneLine(resolve('trigger.json', { type: 'request', target_user_id: 'tanaka' }))).toMatch(/target_agents: /);
    // Still escalated: nothing was enqueued.
    expect((await tabs('Discussion Log'))['Discussion Log'][0].status).toBe('ESCALATED');
    const good = resolve('order.json', order);
    expect(good.status, good.stderr).toBe(0);
    const t = await tabs('Discussion Log', 'Orders');
    // It prints what happened: the new status and the order ids, not a queue task.
    expect(JSON.parse(good.stdout)).toEqual({
      discussion_id: log.discussion_id,
      status: 'DECIDED',
      orders: t.Orders.map((o: { order_id: string }) => ({ order_id: o.order_id, status: 'PENDING' })),
    });
    // A discussion that is no longer escalated takes no resolution: exit 2 naming its state, nothing queued.
    const again = resolve('again.json', order);
    expect(oneLine(again)).toBe(`kaigi: ${log.discussion_id} is DECIDED; only an ESCALATED discussion can be resolved`);
    const [after] = t['Discussion Log'];
    expect(after.status).toBe('DECIDED');
    const decided = JSON.parse(after.final_decision_json);
    expect(decided.actions).toEqual(order.actions);
    expect(decided.decision_id).toMatch(/^DEC-\d{4}-\d{2}-\d{2}-\d{3}$/);
    expect(t.Orders.map((o: { decision_id: string; status: string }) => [o.decision_id, o.status])).toEqual([
      [decided.decision_id, 'PENDING'],
    ]);
  });

  it('writes all of a tab over 1 MB through a pipe before it exits', async () => {
    const big = path.join(dir, 'big.xlsx');
    const rt = newRuntime();
    const setup = await rt.run('setup', [], { kind: 'editor' });
    expect(setup.ok, setup.error?.message).toBe(true);
    const kpi = rt.workbook.sheetByName('KPI')!;
    // About 1.3 MB of JSON: over the megabyte, twenty pipe buffers of 64 KB (12,000 rows, 2.2 MB, proved no more).
    const n = 7_000;
    const rows = Array.from({ length: n }, (_, i) =>
      rowValues('kpi', {
        date: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 50) * 86_400_000),
        member_id: `member-${i % 50}`,
        metric: 'contacts',
        value: i % 17,
        note: `note ${i} ${'・'.repeat(20)}`,
      }),
    );
    rt.workbook.insertRows(kpi, kpi.maxRows + 1, n, kpi.maxRows);
    rt.workbook.setValues(kpi, 2, 1, n, rows[0].length, rows);
    await rt.save(big);
    const sh = (command: string) =>
      spawnSync('bash', ['-c', command], { encoding: 'utf8', cwd: root, timeout: 120_000, maxBuffer: 64 << 20 });
    const file = path.join(dir, 'big.json');
    const direct = sh(`node bin/kaigi.js export --workbook '${big}' --tab KPI > '${file}'`);
    expect(direct.status, direct.stderr).toBe(0);
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(1 << 20);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toHaveLength(n);
    const piped = sh(`node bin/kaigi.js export --workbook '${big}' --tab KPI | cat | wc -c`);
    expect(piped.status, piped.stderr).toBe(0);
    expect(Number(piped.stdout.trim())).toBe(size);
    const csv = sh(`node bin/kaigi.js export --workbook '${big}' --tab KPI --format csv | cat | wc -l`);
    // The header, then one line per row (the last line ends with the newline print adds).
    expect(Number(csv.stdout.trim())).toBe(n + 1);
  });
});

describe('kaigi with a model provider', () => {
  it('run --demo --provider openai-compatible reaches DECIDED against the local model server; no key leaks', async () => {
    const { ModelServer } = await import('../../tools/model-server.js');
    const { spawn } = await import('node:child_process');
    const server = new ModelServer();
    const base = await server.start();
    const key = 'placeholder-cred-local';
    server.plan = (r) =>
      r.system.indexOf('「心理学特化」') >= 0
        ? { status: 401, fault: 'echo_auth' }
        : r.system.indexOf('「倫理特化」') >= 0
          ? { fault: 'echo_auth' }
          : {};
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-llm-'));
    const book = path.join(dir, 'llm.xlsx');
    try {
      const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const p = spawn(
          process.execPath,
          [
            path.join(root, 'bin', 'kaigi.js'),
            'run',
            '--demo',
            '--provider',
            'openai-compatible',
            '--base-url',
            `${base}/v1`,
            '--model',
            'any',
            '--workbook',
            book,
            '--json',
          ],
          {
            cwd: root,
            env: { ...process.env, KAIGI_API_KEY: key },
          },
        );
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (d) => (stdout += d));
        p.stderr.on('data', (d) => (stderr += d));
        p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      });
      expect(out.code, out.stderr).toBe(0);
      // The local --base-url is the one local origin UrlFetchApp may reach, and the CLI says so once.
      expect(out.stderr.split('\n').filter((l) => l.startsWith('kaigi: allowing UrlFetchApp'))).toEqual([
        `kaigi: allowing UrlFetchApp to reach ${base} (local model server): a deployed Kaigi cannot reach it`,
      ]);
      const s = JSON.parse(out.stdout.trim());
      expect(s.status).toBe('DECIDED');
      // The demo's fifteen calls, plus the substitute's after psychology's 401, which is not retried, and the agent
      // review's two (ethics and legal read the order itself).
      expect(server.requests.length).toBe(18);
      expect(server.requests.filter((r) => r.system.indexOf('「心理学特化」') >= 0).length).toBe(1);
      for (const r of server.requests) {
        expect(r.body.response_format.type).toBe('json_schema');
        expect(r.body.response_format.json_schema.schema.type).toBe('object');
        expect(r.headers.authorization).toBe(`Bearer ${key}`);
      }
      expect(out.stdout + out.stderr).not.toContain(key);
      const x = new ExcelJS.Workbook();
      await x.xlsx.readFile(book);
      x.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => expect(String(cell.value)).not.toContain(key))));
      expect(fs.readFileSync(`${book}.project.json`, 'utf8')).not.toContain(key);
      const exported = kaigi('export', '--workbook', book, '--tab', 'Messages');
      expect(exported.stdout).toContain('[redacted]');
      expect(exported.stdout).not.toContain(key);
    } finally {
      await server.stop();
    }
  });
});
