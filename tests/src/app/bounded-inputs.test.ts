// Bounded inputs end to end: a 120,000-character memo in a trigger costs a bounded discussion, every
// prompt as sent carries it cut with a pointer, the forecast is noted at creation, and the full memo stays exportable.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRoot, type Runtime } from '../../../runtime/runtime.js';
import { localModelServer } from '../../model-server-hooks.js';
import { council, decline, setSetting, settle, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';

const MEMO_CHARS = 120_000;
const POINTER =
  /\[… (\d+) characters omitted; full value: Discussion Log (DISC-[\d-]+) trigger_context_json → context\.memo, sha256 ([0-9a-f]{64})\]/;
const root = findRoot();

function memo(): string {
  const unit = '田中さんの営業メモ：顧客訪問の記録と所感。次回は提案書を持参。';
  return unit.repeat(Math.ceil(MEMO_CHARS / unit.length)).slice(0, MEMO_CHARS);
}

const trigger = (text: string) => ({ ...decline('tanaka'), context: { metric: 'contacts', memo: text } });

// The discussion's tokens as the Messages tab holds them: tokens_consumed of each message, once (on its first chunk).
function tokens(rt: Runtime, id: string): number {
  return records(rt, 'messages')
    .filter((r) => r.discussion_id === id && Number(r.chunk) === 0)
    .reduce((a, r) => a + Number(r.tokens_consumed), 0);
}

function only(rt: Runtime) {
  const log = records(rt, 'discussions');
  expect(log).toHaveLength(1);
  return log[0];
}

const models = localModelServer();

describe('a trigger with a 120,000-character memo', () => {
  it('costs at most 60,000 tokens with the rule-based council, and the full memo is still exportable', async () => {
    const rt = await council();
    const text = memo();
    await start(rt, trigger(text));
    await settle(rt);
    const d = only(rt);
    expect(d.status).toBe('DECIDED');
    const spent = tokens(rt, String(d.discussion_id));
    console.log(`rule-based council: ${spent} tokens`);
    expect(spent).toBeGreaterThan(30_000);
    expect(spent).toBeLessThanOrEqual(60_000);
    // The forecast at creation, in the notes column (the demo council speaks Japanese), near what was spent.
    const note = /見積り: 約(\d+)トークン/.exec(String(d.notes));
    expect(note, String(d.notes)).not.toBeNull();
    expect(Math.abs(Number(note![1]) - spent) / spent).toBeLessThan(0.15);
    // The record keeps the whole memo: the log row overflows and `kaigi export` reassembles it unchanged.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-bounded-'));
    const book = path.join(dir, 'memo.xlsx');
    await rt.save(book);
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'bin', 'kaigi.js'), 'export', '--workbook', book, '--tab', 'Discussion Log'],
      { encoding: 'utf8', cwd: root, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(r.status, r.stderr).toBe(0);
    const [row] = JSON.parse(r.stdout);
    const stored = JSON.parse(row.trigger_context_json).context.memo;
    expect(stored.length).toBe(MEMO_CHARS);
    expect(stored).toBe(text);
  });

  it('says at creation, once, when the forecast passes the discussion limit: a note and one Inbox notice', async () => {
    const rt = await council();
    await setSetting(rt, 'limits.max_tokens_per_discussion', '30000');
    await start(rt, trigger(memo()));
    await settle(rt);
    const d = only(rt);
    expect(String(d.notes)).toMatch(/見積り: 約\d+トークン（上限30000を超過/);
    const told = records(rt, 'inbox').filter((i) => i.discussion_id === d.discussion_id);
    expect(told).toHaveLength(1);
    expect(String(told[0].title)).toMatch(
      new RegExp(`^${d.discussion_id}: 見積り約\\d+トークンが上限30000を超えています$`),
    );
    // Without the memo the same council stays under that limit and tells no one.
    const plain = await council();
    await setSetting(plain, 'limits.max_tokens_per_discussion', '30000');
    await start(plain);
    await settle(plain);
    expect(String(only(plain).notes)).toMatch(/見積り: 約\d+トークン（上限30000）/);
    expect(records(plain, 'inbox')).toHaveLength(0);
  });

  it('sends every model request the memo cut to its head and tail with a pointer (measured at a real HTTP server)', async () => {
    const rt = await council();
    rt.scriptProperties.set({ KAIGI_KEY_OPENAI: 'placeholder-cred-tests' });
    rt.scriptProperties.set({
      KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
        provider: 'openai',
        model: 'gpt-4o-mini',
        base_url: `${models.base()}/v1`,
      }),
    });
    models.allow(rt);
    const text = memo();
    const from = models.server.requests.length;
    await start(rt, trigger(text));
    await settle(rt);
    const sent = models.server.requests.slice(from).filter((q) => q.path.endsWith('/chat/completions'));
    const d = only(rt);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    expect(sent.length).toBeGreaterThanOrEqual(15);
    for (const q of sent) {
      // The trigger is in the shared data, a user message; never in a system message.
      const m = POINTER.exec(q.user);
      expect(m, q.user.slice(0, 300)).not.toBeNull();
      expect(POINTER.exec(q.system)).toBeNull();
      expect(m![2]).toBe(d.discussion_id);
      expect(Number(m![1])).toBeGreaterThan(MEMO_CHARS - 2000);
      // The prompt as sent is a few thousand characters, not the memo's 120,000.
      expect(q.system.length + q.user.length).toBeLessThan(20_000);
    }
    const spent = tokens(rt, String(d.discussion_id));
    expect(spent).toBeLessThanOrEqual(60_000);
    const longest = Math.max(...sent.map((q) => q.system.length + q.user.length));
    console.log(`model server: ${sent.length} requests, longest prompt ${longest} characters, ${spent} tokens`);
  });
});
