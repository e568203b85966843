// Bytes in the context: base64 and UTF-8 as Node has them, and the byte-at-a-time reading kept where Node's differs.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gas, withRuntime } from '../../helpers.js';

// Malformed UTF-8: "a", a lead byte with a non-continuation after it, an encoded surrogate, then 😀.
const MALFORMED = [0x61, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x80];
let server: http.Server;
let base = '';
const received: Buffer[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(parts));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.url === '/malformed' ? Buffer.from(MALFORMED) : Buffer.from('会議 ✓ 😀', 'utf8'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const codes = (s: string) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

describe('bytes', () => {
  it('encodes byte arrays of every length to base64 as Node does, each value cut to a byte', async () => {
    const arrays = [[], [1], [1, 2], [1, 2, 3], [255, 0, 128, 7], [300, -1, 65, 66, 67], [-128, 127, 0, 1, 2, 3, 4]];
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `var a = ${JSON.stringify(arrays)};
        return a.map(function (b) { var e = Utilities.base64Encode(b); return [e, Utilities.base64Decode(e)]; });`,
      );
      arrays.forEach((a, i) => {
        const bytes = Buffer.from(a.map((x) => x & 0xff));
        expect(out[i][0]).toBe(bytes.toString('base64'));
        expect(out[i][1]).toEqual([...bytes].map((b) => (b > 127 ? b - 256 : b)));
      });
    });
  });

  it('writes a lone surrogate as its own three bytes, in base64 and in a digest, and pairs as one code point', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `return [Utilities.base64Encode('a\\uD800b'), Utilities.base64Encode('\\uDC00'), Utilities.base64Encode('😀'),
          Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, 'a\\uD800b')];`,
      );
      const wtf8 = Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]);
      expect(out[0]).toBe(wtf8.toString('base64'));
      expect(out[1]).toBe(Buffer.from([0xed, 0xb0, 0x80]).toString('base64'));
      expect(out[2]).toBe(Buffer.from('😀', 'utf8').toString('base64'));
      expect(out[3]).toEqual(
        [...crypto.createHash('sha256').update(wtf8).digest()].map((b) => (b > 127 ? b - 256 : b)),
      );
    });
  });

  it('sends a text payload as its UTF-8 bytes and reads well-formed and malformed answers', async () => {
    await withRuntime(
      async (rt) => {
        const out = await gas(
          rt,
          `var ok = UrlFetchApp.fetch('${base}/ok', { method: 'post', payload: '会議 \\uD800 ✓', contentType: 'text/plain' });
          var bad = UrlFetchApp.fetch('${base}/malformed');
          var t = bad.getContentText();
          var codes = [];
          for (var i = 0; i < t.length; i++) codes.push(t.charCodeAt(i));
          return [ok.getContentText(), codes, bad.getContent().length];`,
        );
        expect(received[received.length - 2]).toEqual(
          Buffer.concat([Buffer.from('会議 ', 'utf8'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(' ✓', 'utf8')]),
        );
        expect(out[0]).toBe('会議 ✓ 😀');
        // The byte-at-a-time reading: 0xc3 0x28 as one two-byte sequence, the surrogate as itself.
        expect(out[1]).toEqual(codes(`a${String.fromCharCode(0xe8)}\uD800😀`));
        expect(out[2]).toBe(MALFORMED.length);
      },
      { allowLocalFetch: [base] },
    );
  });
});
