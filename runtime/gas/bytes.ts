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

// The charsets bytesOf writes one byte per UTF-16 unit for; any other (or none) is UTF-8.
export function singleByte(charset?: string): boolean {
  return !!charset && /^(US_ASCII|ISO_8859_1)$/.test(charset);
}

export function bytesOf(data: string | number[], charset?: string): number[] {
  if (typeof data === 'string') {
    if (singleByte(charset)) return Array.from(data, (ch) => ch.charCodeAt(0) & 0xff);
    return utf8Encode(data);
  }
  if (!Array.isArray(data)) throw new Error('Invalid argument: data');
  return data.map((x) => Number(x) & 0xff);
}

// Two base64 digits for each 12-bit value, built on first use: half the lookups and joins of one digit at a time.
let digitPairs: string[] | null = null;

function pairs(): string[] {
  if (!digitPairs) {
    digitPairs = [];
    for (let i = 0; i < 4096; i++) digitPairs.push(B64[i >> 6] + B64[i & 63]);
  }
  return digitPairs;
}

// Each byte is taken as `x & 0xff`: a value a script put in a byte array that is not a byte yet is cut to one.
export function base64Encode(bytes: number[], webSafe = false): string {
  const P = pairs();
  const n = bytes.length;
  let out = '';
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = ((bytes[i] & 0xff) << 16) | ((bytes[i + 1] & 0xff) << 8) | (bytes[i + 2] & 0xff);
    out += P[v >> 12] + P[v & 4095];
  }
  if (i < n) {
    const v = ((bytes[i] & 0xff) << 16) | (i + 1 < n ? (bytes[i + 1] & 0xff) << 8 : 0);
    out += `${P[v >> 12]}${i + 1 < n ? B64[(v >> 6) & 63] : '='}=`;
  }
  return webSafe ? out.replace(/\+/g, '-').replace(/\//g, '_') : out;
}

// Each base64 digit's value by its character code (the text is checked to hold digits only first).
let digitValues: number[] | null = null;

function values(): number[] {
  if (!digitValues) {
    digitValues = [];
    for (let i = 0; i < 128; i++) digitValues.push(B64.indexOf(String.fromCharCode(i)));
  }
  return digitValues;
}

export function base64Decode(text: string): number[] {
  const s = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[\s=]+/g, '');
  if (/[^A-Za-z0-9+/]/.test(s)) throw new Error('Could not decode string.');
  const V = values();
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    acc = ((acc << 6) | V[s.charCodeAt(i)]) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      const b = (acc >> bits) & 0xff;
      out.push(b > 127 ? b - 256 : b);
    }
  }
  return out;
}
