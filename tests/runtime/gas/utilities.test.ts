// Utilities and Session: encodings and digests match Node's, dates format like Java's SimpleDateFormat.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gas, gasError, withRuntime } from '../../helpers.js';

const signed = (buf: Buffer) => [...buf].map((b) => (b > 127 ? b - 256 : b));

describe('Utilities', () => {
  it('encodes and decodes base64, including the web-safe alphabet and UTF-8 text', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `
        var s = '会議 ✓ ~~~???';
        return [Utilities.base64Encode(s), Utilities.base64EncodeWebSafe(s), Utilities.newBlob(Utilities.base64Decode(Utilities.base64Encode(s))).getDataAsString(),
          Utilities.base64Decode(Utilities.base64EncodeWebSafe([255, 254, 0]))];`,
      );
      const s = '会議 ✓ ~~~???';
      expect(out[0]).toBe(Buffer.from(s).toString('base64'));
      expect(out[1]).toBe(Buffer.from(s).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'));
      expect(out[2]).toBe(s);
      expect(out[3]).toEqual([-1, -2, 0]);
    });
  });

  it('computes digests and HMAC signatures as signed byte arrays', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `return [Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, '会議'),
        Utilities.computeDigest(Utilities.DigestAlgorithm.MD5, 'abc'),
        Utilities.computeHmacSha256Signature('payload', 'secret')];`,
      );
      expect(out[0]).toEqual(signed(crypto.createHash('sha256').update('会議').digest()));
      expect(out[1]).toEqual(signed(crypto.createHash('md5').update('abc').digest()));
      expect(out[2]).toEqual(signed(crypto.createHmac('sha256', 'secret').update('payload').digest()));
    });
  });

  it('formats dates in a time zone with SimpleDateFormat patterns', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `var d = new Date(Date.UTC(2026, 10, 21, 15, 4, 5, 60));
        return [Utilities.formatDate(d, 'Asia/Tokyo', "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"), Utilities.formatDate(d, 'UTC', 'yyyyMMdd HH:mm EEE'),
          Utilities.formatDate(d, 'Asia/Tokyo', 'yy/M/d h a Z'), Session.getScriptTimeZone()];`,
      );
      expect(out).toEqual([
        '2026-11-22T00:04:05.060+09:00',
        '20261121 15:04 Sat',
        '26/11/22 12 AM +0900',
        'Asia/Tokyo',
      ]);
    });
  });

  it('makes UUIDs and blobs, and sleeps within the execution limit', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `var b = Utilities.newBlob('abc', 'text/plain', 'a.txt');
        return [Utilities.getUuid(), b.getBytes(), b.getContentType(), b.getName(), Utilities.parseCsv('a,"b,c"\\n1,2')];`,
      );
      expect(out[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(out.slice(1)).toEqual([
        [97, 98, 99],
        'text/plain',
        'a.txt',
        [
          ['a', 'b,c'],
          ['1', '2'],
        ],
      ]);
      expect(await gasError(rt, 'Utilities.sleep(300001);')).toBe('Invalid argument: milliseconds');
    });
  });
});

describe('Session', () => {
  it('names the user in interactive executions only and reports the locale', async () => {
    await withRuntime(async (rt) => {
      expect(
        await gas(
          rt,
          'return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail(), Session.getActiveUserLocale()];',
          { kind: 'menu' },
        ),
      ).toEqual(['owner@example.com', 'owner@example.com', 'ja']);
      expect(await gas(rt, 'return Session.getActiveUser().getEmail();', { kind: 'trigger' })).toBe('');
    });
  });
});
