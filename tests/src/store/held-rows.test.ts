// The rows a commit wrote, answered only while the committed state is still the one that commit left.
import { describe, expect, it } from 'vitest';
import { HeldRows } from '../../../src/store/held-rows.js';

const width = () => 3;

describe('HeldRows', () => {
  it('answers rows the last commit wrote while the state is its own, and nothing once another commit moved it', () => {
    const h = new HeldRows();
    h.remember(
      'S1',
      [
        { tab: 'queue', row: 2, rows: [['Q-1', 'queued', null]] },
        {
          tab: 'orders',
          row: 5,
          rows: [
            ['O-1', 'DEC-1'],
            ['O-2', 'DEC-2'],
            ['O-3', 'DEC-1'],
          ],
        },
        // A later write of a row wins.
        { tab: 'queue', row: 2, rows: [['Q-1', 'done', 7]] },
      ],
      { orders: [5, 7] },
      width,
    );
    expect(h.rows('S1', 'queue', 2, 1)).toEqual([['Q-1', 'done', 7]]);
    expect(h.rows('S1', 'orders', 5, 2)).toEqual([
      ['O-1', 'DEC-1', ''],
      ['O-2', 'DEC-2', ''],
    ]);
    // A row the commit did not write, or any row once the state is another's, is read from the sheet.
    expect(h.rows('S1', 'queue', 2, 2)).toBeNull();
    expect(h.rows('S2', 'queue', 2, 1)).toBeNull();
    expect(h.appended('S1', 'orders', 1, 'DEC-1').map((x) => x.row)).toEqual([5, 7]);
    expect(h.appended('S2', 'orders', 1, 'DEC-1')).toEqual([]);
    // Rows it only updated are not "appended".
    expect(h.appended('S1', 'queue', 0, 'Q-1')).toEqual([]);
    // Copies: a caller changing a row does not change what is held.
    h.rows('S1', 'queue', 2, 1)![0][1] = 'changed';
    expect(h.rows('S1', 'queue', 2, 1)).toEqual([['Q-1', 'done', 7]]);
    h.drop();
    expect(h.rows('S1', 'queue', 2, 1)).toBeNull();
  });
});
