// The simulated council's retrieval matrix grown by new rows is the matrix decoded from every row.
import { describe, expect, it } from 'vitest';
import { embedOffline, encodeVector } from '../../src/core/memory/embedding.js';
import type { Learning } from '../../src/core/memory/memory.js';
import { decodeMatrix } from '../../src/core/memory/retrieval.js';
import { grownMatrix } from '../../tools/grown-matrix.js';

const DIMS = 32;
const row = (n: number, text: string) => ({ row: n, embedding: encodeVector(embedOffline(text, DIMS)) }) as Learning;
const whole = (rows: Learning[]) =>
  decodeMatrix(
    rows.map((l) => l.embedding),
    DIMS,
    rows.map((l) => l.row),
  );

describe('grownMatrix', () => {
  it('adds the new rows to the rows decoded before, and decodes afresh when an old row changed', () => {
    const rows = [row(2, 'contacts fell'), row(3, 'praise rose')];
    const first = grownMatrix(decodeMatrix([], DIMS), rows, DIMS);
    expect(first).toEqual(whole(rows));
    rows.push(row(4, 'overtime up'), row(5, 'login streak broken'));
    const grown = grownMatrix(first, rows, DIMS);
    expect(grown).toEqual(whole(rows));
    expect(first.rows).toBe(2);
    const changed = [rows[0], row(3, 'something else'), ...rows.slice(2), row(6, 'one more')];
    expect(grownMatrix(grown, changed, DIMS)).toEqual(whole(changed));
  });
});
