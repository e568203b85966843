// Exact cosine top-k over stored int8 vectors, decoded once into one matrix per embedding model.
import { base64Into } from './embedding.js';

export interface Matrix {
  dims: number;
  rows: number;
  data: Int8Array;
  norms: Float32Array;
  keys: number[];
}

// Decodes the "scale|base64" cells of one model; the scale cancels out of a cosine, so it is not kept.
export function decodeMatrix(cells: string[], dims: number, keys: number[] = cells.map((_, i) => i)): Matrix {
  const data = new Int8Array(cells.length * dims);
  const norms = new Float32Array(cells.length);
  for (let r = 0; r < cells.length; r++) {
    const c = cells[r];
    base64Into(c.slice(c.indexOf('|') + 1), data, r * dims);
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

// The k best rows for a query, among those `allow` accepts (filters on scope, agent, confidence…).
export function topK(m: Matrix, query: Float32Array, k: number, allow: (key: number) => boolean = () => true): Hit[] {
  // k = 0 (a Settings value) asks for nothing; without this the loop would read best[-1].
  if (k <= 0) return [];
  let qn = 0;
  for (let i = 0; i < query.length; i++) qn += query[i] * query[i];
  qn = Math.sqrt(qn) || 1;
  const best: Hit[] = [];
  const d = m.dims;
  for (let r = 0; r < m.rows; r++) {
    const key = m.keys[r];
    if (!allow(key)) continue;
    let dot = 0;
    for (let j = 0, o = r * d; j < d; j++, o++) dot += m.data[o] * query[j];
    const score = dot / (m.norms[r] * qn);
    if (best.length < k) {
      best.push({ key, score });
      best.sort((a, b) => b.score - a.score);
    } else if (score > best[k - 1].score) {
      best[k - 1] = { key, score };
      best.sort((a, b) => b.score - a.score);
    }
  }
  return best;
}
