// kaigi run's manners: progress on stderr while a slow model thinks (read from the built CLI as it runs), none with
// --quiet, and --json's stdout one JSON object that carries the decision.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelServer } from '../../tools/model-server.js';
import { KAIGI, kaigi, root } from './serve-process.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-progress-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const phaseLines = (stderr: string) => stderr.split('\n').filter((l) => /^kaigi: phase \d/.test(l));

describe('kaigi run progress', () => {
  it('says each phase on stderr while the model still thinks (2 s an answer), before the process ends', async () => {
    const server = new ModelServer();
    server.latencyMs = 2000;
    const base = await server.start();
    // Each stderr line with how many requests the model server had received when it arrived, and the exit, in order.
    const events: { line?: string; requests: number; exited?: number }[] = [];
    try {
      const p = spawn(
        process.execPath,
        [
          KAIGI,
          'run',
          '--demo',
          '--provider',
          'openai-compatible',
          '--base-url',
          `${base}/v1`,
          '--model',
          'any',
          '--workbook',
          path.join(dir, 'slow.xlsx'),
          '--json',
        ],
        { cwd: root, env: { ...process.env, KAIGI_API_KEY: 'placeholder-cred-local' } },
      );
      let stdout = '';
      let partial = '';
      p.stdout.on('data', (d) => (stdout += d));
      p.stderr.on('data', (d) => {
        const lines = (partial + d).split('\n');
        partial = lines.pop()!;
        for (const line of lines) events.push({ line, requests: server.requests.length });
      });
      const code = await new Promise<number>((resolve) =>
        p.on('exit', (c) => {
          events.push({ requests: server.requests.length, exited: c ?? -1 });
          resolve(c ?? -1);
        }),
      );
      const stderr = events.map((e) => e.line ?? '').join('\n');
      expect(code, stderr).toBe(0);
      const total = server.requests.length;
      const phases = events.filter((e) => e.line && /^kaigi: phase \d/.test(e.line));
      // Every phase of the discussion, in order, each said to start and to end.
      for (const n of [1, 2, 3, 4, 5, 6]) {
        const started = phases.findIndex((e) => e.line!.startsWith(`kaigi: phase ${n} `) && /started/.test(e.line!));
        const ended = phases.findIndex(
          (e) => e.line!.startsWith(`kaigi: phase ${n} `) && /ended: \d+ speakers?, [\d,]+ tokens so far/.test(e.line!),
        );
        expect(started, stderr).toBeGreaterThanOrEqual(0);
        expect(ended, stderr).toBeGreaterThan(started);
      }
      // As it happens: the first phase line arrived while the council still had model calls to make (before the
      // model server had received them all), and so before the process ended.
      expect(phases[0].line).toMatch(/^kaigi: phase 1 \(situation report\) started \([\d.]+ s\)$/);
      expect(phases[0].requests, stderr).toBeLessThan(total);
      expect(events.indexOf(phases[0])).toBeLessThan(events.findIndex((e) => e.exited !== undefined));
      // Tokens so far grow phase by phase, even when several phases land in one commit.
      const so = phases
        .filter((e) => /ended/.test(e.line!))
        .map((e) => Number(/([\d,]+) tokens so far/.exec(e.line!)![1].replace(/,/g, '')));
      expect(so).toEqual([...so].sort((a, b) => a - b));
      expect(so[0]).toBeLessThan(so[so.length - 1]);
      // The end is said too; stdout holds the JSON alone.
      expect(stderr).toMatch(/^kaigi: DISC-\S+ DECIDED: \d+ messages, [\d,]+ tokens \([\d.]+ s\)$/m);
      const s = JSON.parse(stdout);
      expect(s.status).toBe('DECIDED');
      expect(s.decision.actions.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('--quiet says no progress; --json prints the decision: the orders, who carries them out, the review date', () => {
    const book = path.join(dir, 'quiet.xlsx');
    const r = kaigi(['run', '--demo', '--workbook', book, '--json', '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const s = JSON.parse(r.stdout);
    const { decision } = s;
    expect(decision.decision_id).toMatch(/^DEC-\d{4}-\d{2}-\d{2}-\d{3,}$/);
    // The actions are the order's action objects, as the Orders tab holds them.
    expect(decision.actions.length).toBeGreaterThan(0);
    for (const a of decision.actions) {
      expect(typeof a.action_type).toBe('string');
      expect(typeof a.description).toBe('string');
    }
    expect(decision.executors.length).toBeGreaterThan(0);
    expect(decision.review_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Not measured yet.
    expect(decision).not.toHaveProperty('verdict');
    expect(decision).not.toHaveProperty('effect');
    const orders = JSON.parse(kaigi(['export', '--workbook', book, '--tab', 'Orders']).stdout) as Record<
      string,
      unknown
    >[];
    expect(decision.actions).toEqual(orders.map((o) => JSON.parse(String(o.action_json))));
    expect(decision.executors).toEqual([...new Set(orders.map((o) => o.target_agent))]);
  }, 120_000);

  it('--until closed says the days and the verdict on stderr, and --json adds the effect and the verdict', () => {
    const r = kaigi(['run', '--demo', '--workbook', path.join(dir, 'closed.xlsx'), '--until', 'closed', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.decision.verdict).toBe(s.loop.outcome.verdict);
    expect(s.decision.effect).toBe(s.loop.outcome.effect);
    expect(r.stderr).toMatch(/^kaigi: demo executor: \d+ orders? reported DONE/m);
    expect(r.stderr).toMatch(/^kaigi: daily review of \d{4}-\d{2}-\d{2} \(KPI in: \d{4}-\d{2}-\d{2} contacts \d+/m);
    expect(r.stderr).toMatch(/^kaigi: DISC-\S+ CLOSED: /m);
    expect(r.stderr).toContain(`kaigi: verdict ${s.decision.verdict}, effect ${s.decision.effect}`);
    expect(phaseLines(r.stderr).length).toBeGreaterThanOrEqual(6);
  }, 180_000);
});
