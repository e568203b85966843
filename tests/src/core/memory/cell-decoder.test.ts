// The embedding cell decoder: cells earlier releases wrote read to the same values, it agrees with the byte-wise base64 decoder, and refuses what it always refused.
import { describe, expect, it } from 'vitest';
import { payloadChars, payloadInto } from '../../../../src/core/memory/cell-decoder.js';
import {
  base64Into,
  bytesToBase64,
  decodeVector,
  EmbeddingFormatError,
  readVectorCell,
  vectorInto,
} from '../../../../src/core/memory/embedding.js';
import { decodeMatrix } from '../../../../src/core/memory/retrieval.js';

// Cells as earlier releases wrote them, with the values they decoded to then (taken from the decoder before this one).
const FIXTURES: [string, number, number[]][] = [
  ['2|0.007874|f4AAAf8qf4E', 8, [127, -128, 0, 1, -1, 42, 127, -127]],
  ['0.00787402|f4AAAf8qf4E=', 8, [127, -128, 0, 1, -1, 42, 127, -127]],
  ['2|0.003691|HeMo3CqzWMhXmR3SQgBdgQ', 16, [29, -29, 40, -36, 42, -77, 88, -56, 87, -103, 29, -46, 66, 0, 93, -127]],
  ['2|0.005322|Ft0AHeUU8kAxKbqB6iMUDwA', 17, [22, -35, 0, 29, -27, 20, -14, 64, 49, 41, -70, -127, -22, 35, 20, 15, 0]],
];

// The decoder before this one, as it read a cell: the header, then base64 a byte at a time, then the count.
function oldDecode(cell: string, dims: number): Int8Array | null {
  const c = readVectorCell(cell);
  if (!c) return null;
  const out = new Int8Array(dims + 8);
  return base64Into(cell, out, 0, c.start) === dims ? out.subarray(0, dims) : null;
}

function newDecode(cell: string, dims: number): Int8Array | null {
  const out = new Int8Array(dims);
  try {
    vectorInto(cell, dims, out, 0);
    return out;
  } catch (e) {
    if (e instanceof EmbeddingFormatError) return null;
    throw e;
  }
}

let seed = 11;
const randomByte = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed >> 23;
};

describe('payloadInto', () => {
  it('reads cells of both stored versions to the values they decoded to before', () => {
    for (const [cell, dims, values] of FIXTURES) {
      expect(Array.from(newDecode(cell, dims) ?? [])).toEqual(values);
      expect(Array.from(oldDecode(cell, dims) ?? [])).toEqual(values);
    }
    const m = decodeMatrix(
      FIXTURES.slice(0, 2).map((f) => f[0]),
      8,
    );
    expect(Array.from(m.data)).toEqual([...FIXTURES[0][2], ...FIXTURES[1][2]]);
  });

  it('agrees with the byte-wise decoder on random bytes, −128 and 127 included, at every length', () => {
    for (const dims of [1, 2, 3, 4, 5, 6, 7, 255, 256, 257, 1536]) {
      for (let t = 0; t < 20; t++) {
        const bytes = Uint8Array.from({ length: dims }, (_, i) =>
          t === 0 ? (i % 2 ? 127 : 128) : t === 1 ? 255 : t === 2 ? 0 : randomByte(),
        );
        const expected = Array.from(new Int8Array(bytes.buffer));
        for (const cell of [`2|0.5|${bytesToBase64(bytes, false)}`, `0.5|${bytesToBase64(bytes, true)}`]) {
          expect(Array.from(newDecode(cell, dims) ?? [])).toEqual(expected);
          expect(Array.from(oldDecode(cell, dims) ?? [])).toEqual(expected);
        }
      }
    }
  });

  it('writes at an offset and nothing outside its row', () => {
    const bytes = Uint8Array.from([128, 127, 1, 2, 3]);
    const cell = `2|1|${bytesToBase64(bytes, false)}`;
    const out = new Int8Array(9).fill(9);
    expect(payloadInto(cell, 4, 2, 5, out, 2)).toBe(true);
    expect(Array.from(out)).toEqual([9, 9, -128, 127, 1, 2, 3, 9, 9]);
    expect([payloadChars(2, 256), payloadChars(1, 256)]).toEqual([342, 344]);
  });

  it('refuses every cell the decoder before refused, and cells it read as something they were not', () => {
    const good = `2|0.5|${bytesToBase64(Uint8Array.from([1, 2, 3, 4, 5, 6]), false)}`;
    const goodV1 = `0.5|${bytesToBase64(Uint8Array.from([1, 2, 3, 4, 5, 6, 7]), true)}`;
    const refusedBefore = ['', 'abc', '|AAAA', 'x|AAAA', '3|0.1|AAAAAAAA', '2|0|AAAAAAAA', '2|-1|AAAAAAAA'];
    refusedBefore.push(`${good}AA`, good.slice(0, -1), `${good.slice(0, -3)}!${good.slice(-2)}`, `${goodV1}=`);
    for (const bad of refusedBefore) {
      expect(oldDecode(bad, 6)).toBeNull();
      expect(newDecode(bad, 6)).toBeNull();
      // The matrix leaves the refused row out (and reports it for re-embedding) instead of failing the execution.
      expect(decodeMatrix([good, bad], 6, [7, 8]).refused).toEqual([8]);
    }
    // Read before as other values: a character past ASCII (masked to 'A'), a stray character too few for a value or
    // padding after a version 2 cell, and a version 1 cell without its padding.
    const misread: [string, number][] = [
      [`${good}A`, 6],
      [`${good.slice(0, -2)}\u00c1${good.slice(-1)}`, 6],
      [`${good}==`, 6],
      [goodV1.replace(/=+$/, ''), 7],
    ];
    for (const [bad, dims] of misread) {
      expect(oldDecode(bad, dims)).not.toBeNull();
      expect(newDecode(bad, dims)).toBeNull();
      expect(() => decodeVector(bad, dims)).toThrow(EmbeddingFormatError);
    }
  });
});
