// Byte arrays as Apps Script shows them (signed Java bytes), UTF-8 and base64, with no Web APIs.

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function toSigned(bytes: number[]): number[] {
  return bytes.map((b) => ((b & 0xff) > 127 ? (b & 0xff) - 256 : b & 0xff));
}

function utf8Encode(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

export function utf8Decode(bytes: number[]): string {
  let s = '';
  const b = bytes.map((x) => x & 0xff);
  for (let i = 0; i < b.length; ) {
    const c = b[i++];
    let cp: number;
    if (c < 0x80) cp = c;
    else if (c >= 0xf0) cp = ((c & 7) << 18) | ((b[i++] & 63) << 12) | ((b[i++] & 63) << 6) | (b[i++] & 63);
    else if (c >= 0xe0) cp = ((c & 15) << 12) | ((b[i++] & 63) << 6) | (b[i++] & 63);
    else if (c >= 0xc0) cp = ((c & 31) << 6) | (b[i++] & 63);
    else cp = 0xfffd;
    s += String.fromCodePoint(cp);
  }
  return s;
}

export function bytesOf(data: string | number[], charset?: string): number[] {
  if (typeof data === 'string') {
    if (charset && /^(US_ASCII|ISO_8859_1)$/.test(charset)) return Array.from(data, (ch) => ch.charCodeAt(0) & 0xff);
    return utf8Encode(data);
  }
  if (!Array.isArray(data)) throw new Error('Invalid argument: data');
  return data.map((x) => Number(x) & 0xff);
}

export function base64Encode(bytes: number[], webSafe = false): string {
  let out = '';
  const b = bytes.map((x) => x & 0xff);
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    out += i + 1 < b.length ? B64[(n >> 6) & 63] : '=';
    out += i + 2 < b.length ? B64[n & 63] : '=';
  }
  return webSafe ? out.replace(/\+/g, '-').replace(/\//g, '_') : out;
}

export function base64Decode(text: string): number[] {
  const s = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[\s=]+/g, '');
  if (/[^A-Za-z0-9+/]/.test(s)) throw new Error('Could not decode string.');
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of s) {
    acc = (acc << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return toSigned(out);
}
