// Exact cosine top-k over stored int8 vectors, decoded once into one matrix per embedding model and execution.
import { vectorInto } from './embedding.js';

export interface Matrix {
  dims: number;
  rows: number;
  data: Int8Array;
  norms: Float32Array;
  keys: number[];
}

// Decodes the cells of one model (any stored version, embedding.ts); the scale cancels out of a cosine, so it is not
// kept. A cell in no known format throws EmbeddingFormatError: callers pass only cells isVectorCell accepts.
export function decodeMatrix(cells: string[], dims: number, keys: number[] = cells.map((_, i) => i)): Matrix {
  const data = new Int8Array(cells.length * dims);
  const norms = new Float32Array(cells.length);
  for (let r = 0; r < cells.length; r++) {
    vectorInto(cells[r], dims, data, r * dims);
    let s = 0;
    for (let j = r * dims, end = j + dims; j < end; j++) s += data[j] * data[j];
    norms[r] = Math.sqrt(s) || 1;
  }
  return { dims, rows: cells.length, data, norms, keys };
}

export interface Hit {
  key: number;
  score: number;
}

// The dot product of row r with q, four lanes at a time: a quarter of the loop checks and a shorter dependency
// chain, which is most of what a scan of 10,000 rows costs.
function dot(data: Int8Array, o: number, q: Float32Array, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 4 <= d; j += 4) {
    s0 += data[o + j] * q[j];
    s1 += data[o + j + 1] * q[j + 1];
    s2 += data[o + j + 2] * q[j + 2];
    s3 += data[o + j + 3] * q[j + 3];
  }
  for (; j < d; j++) s0 += data[o + j] * q[j];
  return s0 + s1 + s2 + s3;
}

// The k best rows for a query, among those `allow` accepts (filters on scope, agent, confidence…).
export function topK(m: Matrix, query: Float32Array, k: number, allow: (key: number) => boolean = () => true): Hit[] {
  // k = 0 (a Settings value) asks for nothing; without this the loop would read best[-1].
  if (k <= 0) return [];
  let qn = 0;
  for (let i = 0; i < query.length; i++) qn += query[i] * query[i];
  qn = Math.sqrt(qn) || 1;
  const best: Hit[] = [];
  // The k-th best score so far: a row below it costs one comparison, not a sort.
  let floor = -Infinity;
  const d = m.dims;
  for (let r = 0; r < m.rows; r++) {
    const key = m.keys[r];
    if (!allow(key)) continue;
    const score = dot(m.data, r * d, query, d) / (m.norms[r] * qn);
    if (best.length < k) {
      best.push({ key, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length === k) floor = best[k - 1].score;
    } else if (score > floor) {
      best[k - 1] = { key, score };
      best.sort((a, b) => b.score - a.score);
      floor = best[k - 1].score;
    }
  }
  return best;
}
