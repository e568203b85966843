// The API log's inbox as data: keys that sort as the calls came and never collide, entries read back, and a value
// that is not an entry kept as a row that says so.
import { describe, expect, it } from 'vitest';
import { anyWaiting, encodeEntry, inboxKey, waitingRows } from '../../../../src/core/api/api-log-inbox.js';

const P = 'KAIGI_APILOG_Q_';
const entry = (time: number, call = 'GET /status') => ({ time, client: 'c', call, status: 200, code: '', ms: 12 });

describe('the API log inbox', () => {
  it('names keys that sort by time, oldest first, whatever the random part', () => {
    const keys = [inboxKey(P, 1_000_000, 'zzzz'), inboxKey(P, 35, 'aaaa'), inboxKey(P, 1_000_000, 'aaaa')];
    expect(keys.slice().sort()).toEqual([keys[1], keys[2], keys[0]]);
    expect(keys[1]).toBe(`${P}00000000z_aaaa`);
  });

  it('reads the waiting rows back, oldest first, among other properties, up to a limit', () => {
    const all: Record<string, string> = {
      KAIGI_STATE: '{}',
      [inboxKey(P, 2000, 'b')]: encodeEntry(entry(2000, 'POST /tasks')),
      [inboxKey(P, 1000, 'a')]: encodeEntry(entry(1000)),
    };
    expect(anyWaiting(all, P)).toBe(true);
    expect(anyWaiting({ KAIGI_STATE: '{}' }, P)).toBe(false);
    const rows = waitingRows(all, P);
    expect(rows.map((r) => r.entry)).toEqual([entry(1000), entry(2000, 'POST /tasks')]);
    expect(waitingRows(all, P, 1).map((r) => r.entry.time)).toEqual([1000]);
  });

  it('keeps a value that is not an entry as a row saying so, at the key’s time, instead of dropping it', () => {
    const key = inboxKey(P, 5000, 'x');
    const [row] = waitingRows({ [key]: 'not json' }, P);
    expect(row.entry).toMatchObject({ time: 5000, call: 'unknown', code: 'unreadable_log_entry' });
    expect(row.unreadable).toBe('not json');
  });
});
