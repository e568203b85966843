// The command line as a user runs it: the demo, export, verify-audit on a saved workbook, and its exit codes.
import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRoot } from '../../runtime/runtime.js';

const root = findRoot();
const kaigi = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'bin', 'kaigi.js'), ...args], {
    encoding: 'utf8',
    cwd: root,
    timeout: 120_000,
  });

describe('kaigi', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-cli-'));
  const book = path.join(dir, 'demo.xlsx');

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
    // The seed's example: six phases without feedback rounds, sixteen messages.
    expect(s.messages).toBe(16);
    // The token total is the sum over the stored messages.
    const stored = JSON.parse(kaigi('export', '--workbook', book, '--tab', 'Messages').stdout);
    expect(stored.length).toBe(16);
    expect(s.tokens).toBe(stored.reduce((a: number, m: { tokens_consumed: number }) => a + m.tokens_consumed, 0));
    expect(s.tokens).toBeGreaterThan(0);
    expect(s.fallbacks).toEqual({ '0': s.messages });
    expect(fs.existsSync(book)).toBe(true);
  });

  it('prints a readable transcript without --json', () => {
    const r = kaigi('run', '--demo', '--workbook', path.join(dir, 'text.xlsx'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/── Phase 1/);
    expect(r.stdout).toMatch(/analyst\s+SITUATION_REPORT/);
    expect(r.stdout).toMatch(/12 → 5/);
    expect(r.stdout).toMatch(/decider\s+EXECUTION_ORDER/);
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
      'order_id,decision_id,discussion_id,target_agent,action_json,status,review_date,success_criteria_json,updated_at',
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
  });

  it('runs a trigger file and exits 1 when the discussion ends escalated', () => {
    const file = path.join(dir, 'trigger.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        type: 'request',
        source: 'human',
        target_user_id: 'tanaka',
        context: { request: '位置情報を監視したい' },
        priority: 'HIGH',
      }),
    );
    const r = kaigi('run', '--trigger', file, '--workbook', path.join(dir, 'esc.xlsx'), '--json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).status).toBe('ESCALATED');
  });
});

describe('kaigi with a model provider', () => {
  it('run --demo --provider openai-compatible reaches DECIDED against the local model server; no key leaks', async () => {
    const { ModelServer } = await import('../../tools/model-server.js');
    const { spawn } = await import('node:child_process');
    const server = new ModelServer();
    const base = await server.start();
    const key = 'local-test-key-9f8e7d6c5b4a3210';
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
      // The demo's fifteen calls, plus the substitute's after psychology's 401, which is not retried.
      expect(server.requests.length).toBe(16);
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

describe('kaigi run --until closed', () => {
  it('waits for the review date, evaluates the outcome and closes the discussion', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-closed-'));
    const r = kaigi('run', '--demo', '--workbook', path.join(dir, 'c.xlsx'), '--until', 'closed', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim()).status).toBe('CLOSED');
    const rows = JSON.parse(kaigi('export', '--workbook', path.join(dir, 'c.xlsx'), '--tab', 'Outcomes').stdout);
    expect(rows.length).toBe(1);
    // No KPI arrives after the decision in the demo, so there are too few data points to judge.
    expect(rows[0].verdict).toBe('inconclusive');
  });
});
