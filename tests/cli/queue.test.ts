// kaigi queue: the work queue's debug view, counts by type and state and the items, filtered by type or state.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kaigi as runKaigi } from './serve-process.js';

// `kaigi …` to completion, as tests/cli/serve-process.ts runs it.
const kaigi = (...args: string[]) => runKaigi(args);

describe('kaigi queue', () => {
  it('lists the queue with counts by type and state, and filters', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-queue-'));
    const book = path.join(dir, 'q.xlsx');
    expect(kaigi('run', '--demo', '--workbook', book).status).toBe(0);
    const all = JSON.parse(kaigi('queue', '--workbook', book, '--json').stdout);
    // The demo's discussion was one task, opened and advanced to the end.
    expect(all.counts['discussion.advance']).toMatchObject({ done: 1, queued: 0, dead: 0 });
    expect(all.items.map((i: { id: string }) => i.id)).toContain('Q-1');
    const done = JSON.parse(kaigi('queue', '--workbook', book, '--state', 'done', '--json').stdout);
    expect(done.items.every((i: { status: string }) => i.status === 'done')).toBe(true);
    const none = JSON.parse(kaigi('queue', '--workbook', book, '--type', 'nope', '--json').stdout);
    expect(none).toEqual({ counts: {}, items: [] });
    const text = kaigi('queue', '--workbook', book);
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^type\s+queued\s+processing\s+done\s+failed\s+dead$/);
    expect(text.stdout).toMatch(/^discussion\.advance\s+0\s+0\s+1\s+0\s+0$/m);
    const bad = kaigi('queue', '--workbook', book, '--state', 'asleep');
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('kaigi: --state must be queued, processing, done, failed, dead; got asleep');
  });
});
