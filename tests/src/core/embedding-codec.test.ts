// How vectors are stored: base64 both ways, int8 quantisation with its scale, normalising, and the offline embedding's text handling.
import { describe, expect, it } from 'vitest';
import {
  base64Into,
  bytesToBase64,
  decodeVector,
  embedOffline,
  encodeVector,
  l2normalise,
  modelTag,
  OFFLINE_MODEL,
} from '../../../src/core/embedding.js';

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
  it('stores scale|base64 and decodes to the quantised values', () => {
    // Scale 1/127; −0.5 → round(−63.5) = −63, 0.25 → 31.75 → 32.
    const cell = encodeVector([1, -0.5, 0, 0.25]);
    expect(cell).toBe(`0.00787402|${Buffer.from([127, 256 - 63, 0, 32]).toString('base64')}`);
    const back = decodeVector(cell, 4);
    const s = 0.00787402;
    expect(Array.from(back)).toEqual([127 * s, -63 * s, 0, 32 * s].map(Math.fround));
  });

  it('stores a zero vector with scale 1', () => {
    expect(encodeVector([0, 0, 0])).toBe('1.00000|AAAA');
    expect(Array.from(decodeVector('1.00000|AAAA', 3))).toEqual([0, 0, 0]);
  });

  it('keeps 256 offline dimensions in one short cell', () => {
    const cell = encodeVector(embedOffline('田中さんの連絡数が低下', 256));
    // The scale, a bar, and 256 bytes as 344 base64 characters.
    expect(cell.length - cell.indexOf('|') - 1).toBe(344);
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
