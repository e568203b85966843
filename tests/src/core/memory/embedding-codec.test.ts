// How vectors are stored: base64 both ways, versioned int8 cells with their scale (and the old versions), normalising, and the offline embedding's text handling.
import { describe, expect, it } from 'vitest';
import {
  base64Into,
  bytesToBase64,
  decodeVector,
  EmbeddingFormatError,
  embedOffline,
  encodeVector,
  isVectorCell,
  l2normalise,
  modelTag,
  OFFLINE_MODEL,
  readVectorCell,
  VECTOR_VERSION,
} from '../../../../src/core/memory/embedding.js';

describe('base64', () => {
  it('encodes with padding exactly as the standard does', () => {
    expect(['Man', 'Ma', 'M', ''].map((t) => bytesToBase64(new TextEncoder().encode(t)))).toEqual([
      'TWFu',
      'TWE=',
      'TQ==',
      '',
    ]);
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => (i * 37 + 11) & 0xff);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('leaves the padding out when asked, and decodes both forms four characters at a time', () => {
    expect(['Man', 'Ma', 'M'].map((t) => bytesToBase64(new TextEncoder().encode(t), false))).toEqual([
      'TWFu',
      'TWE',
      'TQ',
    ]);
    for (const n of [1, 2, 3, 4, 255, 256, 257]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n) & 0xff);
      for (const pad of [true, false]) {
        const out = new Int8Array(n + 2);
        // From an offset in the string too, as a cell's payload follows its header.
        expect(base64Into(`xy|${bytesToBase64(bytes, pad)}`, out, 1, 3)).toBe(n);
        expect(Array.from(out.subarray(1, n + 1))).toEqual(Array.from(new Int8Array(bytes.buffer)));
      }
    }
  });

  it('decodes into signed bytes at an offset, skipping padding and stray characters', () => {
    const out = new Int8Array(6);
    expect(base64Into('TW\nFu', out, 1)).toBe(3);
    expect(Array.from(out)).toEqual([0, 77, 97, 110, 0, 0]);
    const signed = new Int8Array(2);
    expect(base64Into(bytesToBase64(Uint8Array.from([255, 128])), signed, 0)).toBe(2);
    expect(Array.from(signed)).toEqual([-1, -128]);
  });
});

describe('int8 cells', () => {
  it('stores version 3, the scale and the values 14 bits a character, and decodes to the quantised values', () => {
    // Scale 1/127; −0.5 → round(−63.5) = −63, 0.25 → 31.75 → 32.
    const cell = encodeVector([1, -0.5, 0, 0.25]);
    expect(cell.slice(0, 2)).toBe('3|');
    // "3|", 5 characters of scale, and 4 × 8 bits in 3 characters of 14.
    expect(cell.length).toBe(10);
    expect(readVectorCell(cell)).toEqual({ version: VECTOR_VERSION, scale: 1 / 127, start: 7 });
    expect(VECTOR_VERSION).toBe(3);
    const s = 1 / 127;
    expect(Array.from(decodeVector(cell, 4))).toEqual([127 * s, -63 * s, 0, 32 * s].map(Math.fround));
  });

  it('stores a zero vector with scale 1', () => {
    const zero = encodeVector([0, 0, 0]);
    expect(readVectorCell(zero)?.scale).toBe(1);
    expect(Array.from(decodeVector(zero, 3))).toEqual([0, 0, 0]);
  });

  it('still reads version 2 cells, "2|scale|base64" without padding, to the same values', () => {
    const v2 = `2|0.007874|${Buffer.from([127, 256 - 63, 0, 32])
      .toString('base64')
      .replace(/=+$/, '')}`;
    expect(readVectorCell(v2)).toEqual({ version: 2, scale: 0.007874, start: 11 });
    expect(isVectorCell(v2, 4)).toBe(true);
    const s = 0.007874;
    expect(Array.from(decodeVector(v2, 4))).toEqual([127 * s, -63 * s, 0, 32 * s].map(Math.fround));
    expect(Array.from(decodeVector('2|1.000|AAAA', 3))).toEqual([0, 0, 0]);
  });

  it('still reads version 1 cells, "scale|base64" with padding, to the same values', () => {
    const v1 = `0.00787402|${Buffer.from([127, 256 - 63, 0, 32]).toString('base64')}`;
    expect(readVectorCell(v1)).toEqual({ version: 1, scale: 0.00787402, start: 11 });
    expect(isVectorCell(v1, 4)).toBe(true);
    const s = 0.00787402;
    expect(Array.from(decodeVector(v1, 4))).toEqual([127 * s, -63 * s, 0, 32 * s].map(Math.fround));
  });

  it('round-trips vectors of every length through the stored format', () => {
    for (const dims of [1, 2, 3, 4, 5, 255, 256, 257, 1536]) {
      const v = l2normalise(Array.from({ length: dims }, (_, i) => Math.sin(i * 1.7 + dims)));
      const cell = encodeVector(v);
      expect(isVectorCell(cell, dims)).toBe(true);
      expect(isVectorCell(cell, dims + 3)).toBe(false);
      const back = decodeVector(cell, dims);
      // int8 keeps each component within half a step (and float32 a little more).
      const scale = readVectorCell(cell)!.scale;
      for (let i = 0; i < dims; i++) expect(Math.abs(back[i] - v[i])).toBeLessThanOrEqual(scale * 0.5001);
    }
  });

  it('refuses cells no version wrote, before decoding them', () => {
    const good = encodeVector([1, 0, 0, 0]);
    for (const bad of ['', 'abc', '|AAAA', 'x|AAAA', '3|0.1|AAAAAA', '4|0.1|AAAAAA', '2|0|AAAAAA', '2|-1|AAAAAA']) {
      expect(readVectorCell(bad) === null || !isVectorCell(bad, 4)).toBe(true);
      expect(() => decodeVector(bad, 4)).toThrow(EmbeddingFormatError);
    }
    // A cell cut short, or one character longer, is refused by its length, not read as zeros.
    for (const bad of [good.slice(0, -1), `${good}\u4e00`]) {
      expect(isVectorCell(bad, 4)).toBe(false);
      expect(() => decodeVector(bad, 4)).toThrow(/version 3 embedding cell that does not hold 4 values/);
    }
    expect(() => decodeVector('2|0.5|AAAA', 4)).toThrow(/4 payload characters where 6 would/);
  });

  it('refuses a cell of a later version, even one shaped as version 1 with a whole number for its scale', () => {
    // 6 values as version 1 wrote them take 8 base64 characters; its scale always had a point.
    const payload = Buffer.from([1, 2, 3, 4, 5, 6]).toString('base64');
    expect(isVectorCell(`3.00000|${payload}`, 6)).toBe(true);
    expect(Array.from(decodeVector(`3.00000|${payload}`, 6))).toEqual([3, 6, 9, 12, 15, 18]);
    for (const later of [`4|${payload}`, `3|${payload}`, `9|0.5|${payload}`]) {
      expect(readVectorCell(later)).toBeNull();
      expect(isVectorCell(later, 6)).toBe(false);
      expect(() => decodeVector(later, 6)).toThrow(EmbeddingFormatError);
    }
  });

  it('keeps 256 offline dimensions in under half the characters versions 1 and 2 took', () => {
    const v = embedOffline('田中さんの連絡数が低下', 256);
    const cell = encodeVector(v);
    // "3|", 5 characters of scale, and 256 bytes as 147 characters of 14 bits.
    expect(cell.length).toBe(154);
    const v1 = `${(Math.max(...Array.from(v, Math.abs)) / 127).toPrecision(6)}|${'A'.repeat(344)}`;
    expect(cell.length * 2).toBeLessThan(v1.length);
  });
});

describe('normalising and the offline model', () => {
  it('scales to unit length and leaves a zero vector zero', () => {
    expect(Array.from(l2normalise([3, 4]))).toEqual([0.6, 0.8].map(Math.fround));
    expect(Array.from(l2normalise([0, 0]))).toEqual([0, 0]);
  });

  it('ignores width, case and punctuation, and hiragana-only grams', () => {
    const same = (a: string, b: string) =>
      expect(Array.from(embedOffline(a, 64))).toEqual(Array.from(embedOffline(b, 64)));
    same('ＡＢＣ', 'abc');
    same('Praise, now!', 'praise now');
    same('連絡数「低下」', '連絡数 低下');
    expect(Array.from(embedOffline('ですね', 16))).toEqual(new Array(16).fill(0));
    expect(Array.from(embedOffline('', 8))).toEqual(new Array(8).fill(0));
  });

  it('tags stored vectors with model and dimensions', () => {
    expect(modelTag(OFFLINE_MODEL, 256)).toBe('kaigi-ngram-v1:256');
  });
});
