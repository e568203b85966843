// Durable before acknowledged: `kaigi serve` killed (-9) at random moments while taking POST /tasks loses no task it
// answered 202 and never answers one id twice. KAIGI_KILL_ROUNDS / KAIGI_KILL_POSTS / KAIGI_KILL_SEED run it larger
// (the 20 rounds of 200: KAIGI_KILL_ROUNDS=20 KAIGI_KILL_POSTS=200 npx vitest run tests/cli/serve-kill.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killRounds } from './serve-kill-rounds.js';

const rounds = Number(process.env.KAIGI_KILL_ROUNDS ?? 8);
const posts = Number(process.env.KAIGI_KILL_POSTS ?? 50);
const seed = Number(process.env.KAIGI_KILL_SEED ?? 22);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-serve-kill-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('kaigi serve killed while taking tasks', () => {
  it('keeps every task it acknowledged, hands out no id twice, and keeps the audit chain intact', async () => {
    const report = await killRounds({
      dir,
      rounds,
      posts,
      seed,
      concurrency: 4,
      tokens: Math.ceil(posts / 50),
      log: (line) => process.stderr.write(`serve-kill: ${line}\n`),
    });
    process.stderr.write(`serve-kill: ${JSON.stringify(report)}\n`);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.lost).toEqual([]);
    expect(report.reused).toEqual([]);
    expect(report.duplicateRows).toEqual([]);
    expect(report.found).toBe(report.acknowledged);
    expect(report.verifyStatus, report.verifyOutput).toBe(0);
  }, 600_000);
});
