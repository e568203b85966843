// Embeddings as Kaigi stores them: the offline character n-gram embedding, int8 quantisation, base64 cells.

export const OFFLINE_MODEL = 'kaigi-ngram-v1';

// FNV-1a over UTF-16 code units: fast, deterministic, the same in Apps Script and Node.
function fnv(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s、。,.!?！？「」『』（）()[\]{}:;'"・…\-–—_/\\]+/g, ' ')
    .trim();
}

// Feature hashing of character 1-, 2- and 3-grams: needs no word boundaries, so it works for Japanese.
export function embedOffline(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  const t = normalise(text);
  const counts: Record<string, number> = {};
  for (let n = 1; n <= 3; n++) {
    for (let i = 0; i + n <= t.length; i++) {
      const g = t.slice(i, i + n);
      if (g.indexOf(' ') >= 0) continue;
      // N-grams of hiragana alone are mostly grammar (が, ている): they say little about the topic.
      if (/^[\u3040-\u309f]+$/.test(g)) continue;
      counts[g] = (counts[g] ?? 0) + (n === 1 ? 0.5 : n === 2 ? 1 : 1.5);
    }
  }
  // Each n-gram lands in two signed buckets, so one collision cannot decide a similarity on its own.
  for (const g of Object.keys(counts)) {
    const w = Math.sqrt(counts[g]) * Math.SQRT1_2;
    for (const seed of [0, 0x5bd1e995]) {
      const h = fnv(g, seed);
      v[h % dims] += (fnv(g, seed ^ 0x9e3779b9) & 1 ? 1 : -1) * w;
    }
  }
  return l2normalise(v);
}

export function l2normalise(v: Float32Array | number[]): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const LOOKUP = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[B64.charCodeAt(i)] = i;
  return t;
})();

export function bytesToBase64(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out +=
      B64[(n >> 18) & 63] +
      B64[(n >> 12) & 63] +
      (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') +
      (i + 2 < b.length ? B64[n & 63] : '=');
  }
  return out;
}

// Decodes into `out` at `offset`, returning the number of bytes written.
export function base64Into(s: string, out: Int8Array, offset: number): number {
  let o = offset;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const v = LOOKUP[s.charCodeAt(i) & 127];
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return o - offset;
}

// A unit vector as "scale|base64(int8)": 256 dims take 350 characters, 1,536 take 2,060.
export function encodeVector(v: Float32Array | number[]): string {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const scale = max / 127 || 1;
  const q = new Uint8Array(v.length);
  for (let i = 0; i < v.length; i++) q[i] = Math.round(v[i] / scale) & 0xff;
  return `${scale.toPrecision(6)}|${bytesToBase64(q)}`;
}

export function decodeVector(cell: string, dims: number): Float32Array {
  const bar = cell.indexOf('|');
  const scale = Number(cell.slice(0, bar));
  const q = new Int8Array(dims);
  base64Into(cell.slice(bar + 1), q, 0);
  const out = new Float32Array(dims);
  for (let i = 0; i < dims; i++) out[i] = q[i] * scale;
  return out;
}

export function modelTag(model: string, dims: number): string {
  return `${model}:${dims}`;
}
