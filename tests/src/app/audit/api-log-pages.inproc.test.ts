// verifyAudit's API Log reader: runs of the log kept in archives and the spreadsheet read as one log, a page at a
// time (never the whole log), rows missing below a tab's end read as blank, a run in no readable archive as blank.
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../../sheets-schema/index.js';
import { LogPages, PAGE_ROWS } from '../../../../src/app/audit/api-log-pages.js';
import type { Store } from '../../../../src/store/store.js';

const width = rowsOf('api_log').width;

// A store whose API Log tab holds `n` rows from row 2, each naming `name` and its row; counts its reads.
function fakeStore(name: string, n: number): Store & { reads: number[][] } {
  const reads: number[][] = [];
  const sheet = {
    getLastRow: () => n + 1,
    getRange: (row: number, col: number, rows: number, cols: number) => ({
      getValues: () => {
        reads.push([row, rows]);
        if (row + rows - 1 > n + 1 || col !== 1 || cols !== width) throw new Error('out of range');
        return Array.from({ length: rows }, (_, i) => [`${name}:${row + i}`]);
      },
    }),
  };
  return { reads, sheet: () => sheet } as unknown as Store & { reads: number[][] };
}

describe('LogPages', () => {
  it('reads archives then the spreadsheet as one log, a page at a time', () => {
    const first = fakeStore('a1', PAGE_ROWS + 10);
    const main = fakeStore('main', 100);
    const log = new LogPages().add(first, 2, PAGE_ROWS + 10).add(main, 2, 100);
    // Log row 2 is the first archive's row 2; a run across its page boundary and into the spreadsheet.
    expect(log.read(2, 1)[0][0]).toBe('a1:2');
    const across = log.read(PAGE_ROWS, 20);
    expect(across.map((r) => r[0])).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `a1:${PAGE_ROWS + i}`),
      ...Array.from({ length: 8 }, (_, i) => `main:${2 + i}`),
    ]);
    // Each row padded to the tab's width.
    expect(across.every((r) => r.length === width)).toBe(true);
    // Two pages of the archive and one of the spreadsheet, each read once.
    expect(first.reads).toEqual([
      [2, PAGE_ROWS],
      [PAGE_ROWS + 2, 10],
    ]);
    expect(main.reads).toEqual([[2, 100]]);
    // Past the log's end: what is there.
    expect(log.read(PAGE_ROWS + 12 + 95, 20)).toHaveLength(5);
  });

  it('keeps at most two pages: a page passed is read again only if asked for again', () => {
    const a = fakeStore('a', 3 * PAGE_ROWS);
    const log = new LogPages().add(a, 2, 3 * PAGE_ROWS);
    log.read(2, 1);
    log.read(PAGE_ROWS + 2, 1);
    log.read(2 * PAGE_ROWS + 2, 1);
    log.read(2, 1);
    expect(a.reads.map((r) => r[0])).toEqual([2, PAGE_ROWS + 2, 2 * PAGE_ROWS + 2, 2]);
  });

  it('reads rows the chain counts but the tab no longer holds, and a run in no archive, as blank rows', () => {
    // The chain says 10 rows went to the archive; it holds 7. Then 3 rows in an archive nobody lists.
    const a = fakeStore('a', 7);
    const main = fakeStore('main', 2);
    const log = new LogPages().add(a, 2, 10).add(null, 2, 3).add(main, 2, 2);
    const all = log.read(2, 100).map((r) => r[0]);
    expect(all).toEqual([
      ...Array.from({ length: 7 }, (_, i) => `a:${2 + i}`),
      '',
      '',
      '',
      '',
      '',
      '',
      'main:2',
      'main:3',
    ]);
    // Never read past the archive's last row.
    expect(a.reads).toEqual([[2, 7]]);
  });
});
