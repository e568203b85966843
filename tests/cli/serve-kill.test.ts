// Durable before acknowledged: `kaigi serve` killed (-9) at random moments while taking POST /tasks loses no task it
// answered 202 and never answers one id twice. KAIGI_KILL_ROUNDS / KAIGI_KILL_POSTS / KAIGI_KILL_SEED run it larger
// (the 20 rounds of 200: KAIGI_KILL_ROUNDS=20 KAIGI_KILL_POSTS=200 npx vitest run tests/cli/serve-kill.test.ts).
// The server runs at --time-scale 0.05, so requests are not paced to Apps Script's seconds; a journal that is not
// written before the answer (Journal.sync skipping its write) fails the first test with the lost tasks named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoTrigger } from '../../src/core/demo-data.js';
import { killRounds, postTask } from './serve-kill-rounds.js';
import { kaigi, serve } from './serve-process.js';

// Eight kills at seeded moments, each restart replaying the journal the kills before it left; thirty posts a round
// keep four clients in flight at every kill (a kill is drawn among a round's posts) for less than two thirds of the
// requests fifty took.
const rounds = Number(process.env.KAIGI_KILL_ROUNDS ?? 8);
const posts = Number(process.env.KAIGI_KILL_POSTS ?? 30);
const seed = Number(process.env.KAIGI_KILL_SEED ?? 22);
// A twentieth of Apps Script's modelled time per call: the same requests and kills, answered without the wait.
const TIME_SCALE = 0.05;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-serve-kill-'));

// The killed workbook and one of its tokens, for the reader below.
let book = '';
let token = '';

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('kaigi serve killed while taking tasks', () => {
  it(
    'keeps every task it acknowledged, hands out no id twice, and keeps the audit chain intact',
    async () => {
      const {
        report,
        book: made,
        tokens,
      } = await killRounds({
        dir,
        rounds,
        posts,
        seed,
        concurrency: 4,
        timeScale: TIME_SCALE,
        tokens: Math.ceil(posts / 50),
        log: (line) => process.stderr.write(`serve-kill: ${line}\n`),
      });
      process.stderr.write(`serve-kill: ${JSON.stringify(report)}\n`);
      book = made;
      token = tokens[0];
      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report.lost).toEqual([]);
      expect(report.reused).toEqual([]);
      expect(report.duplicateRows).toEqual([]);
      expect(report.found).toBe(report.acknowledged);
      expect(report.verifyStatus, report.verifyOutput).toBe(0);
    },
    // A second a request is far more than a round needs; the full 20 x 200 needs more than the usual ten minutes.
    Math.max(600_000, rounds * posts * 1000),
  );

  it('lets a reader beside the running serve see an acknowledged task before any save', async () => {
    expect(book).not.toBe('');
    const served = await serve(book, '--time-scale', String(TIME_SCALE));
    try {
      const answer = await postTask(served.url, { token, ...demoTrigger(), idempotency_key: 'read-beside' });
      expect(answer).toMatchObject({ status: 202, task_id: expect.stringMatching(/^Q-\d+$/) });
      // Within the 30 s between saves: only the journal holds it.
      const exported = kaigi(['export', '--workbook', book, '--tab', 'Queue']);
      expect(exported.status, exported.stderr).toBe(0);
      expect((JSON.parse(exported.stdout) as { id: string }[]).map((r) => r.id)).toContain(answer!.task_id);
      expect(kaigi(['verify-audit', '--workbook', book]).status).toBe(0);
    } finally {
      await served.stop('SIGKILL');
    }
  }, 120_000);
});
