// Cosine top-k over stored int8 vectors, decoded once into one matrix per embedding model and execution: exact up to
// `exactRows` rows, coarse first and then exact for the best (coarse-matrix.ts) past them.
import { squares } from './cell-decoder.js';
import { type Coarse, coarseBest, coarseOf } from './coarse-matrix.js';
import { denseCellInto, isDense } from './dense-cell.js';
import { cellInto } from './embedding.js';
import type { Settings } from '../settings.js';

export interface Matrix {
  dims: number;
  rows: number;
  data: Int8Array;
  norms: Float32Array;
  // The norm of each row's second part (from `split`): bounds what that part can add to a dot product.
  tails: Float64Array;
  split: number;
  keys: number[];
  // The keys of rows whose cell passed the length check but not the decoder (a hand edit of the right length): they
  // are never compared, and wait for re-embedding like any unreadable cell.
  refused: number[];
  dead: Uint8Array | null;
  // Past `exactRows` rows (all version 3 cells): the values' high nibbles only; `data`, `tails` are then empty.
  coarse?: Coarse;
}

// Settings retrieval.exact_rows and retrieval.rerank_rows: the largest matrix decoded whole, and how many rows of a
// larger one the coarse pass hands to the exact scores beyond the k asked for.
export interface MatrixOptions {
  exactRows: number;
  rerankRows: number;
}

const ALL_EXACT: MatrixOptions = { exactRows: Infinity, rerankRows: 0 };

export function matrixOptionsOf(s: Pick<Settings, 'number'>): MatrixOptions {
  return { exactRows: s.number('retrieval.exact_rows'), rerankRows: s.number('retrieval.rerank_rows') };
}

// Where a row's second part starts: half way, on a multiple of four for the unrolled loop.
function splitOf(dims: number): number {
  return (dims >> 1) & ~3;
}

// Decodes the cells of one model (any stored version, embedding.ts); the scale cancels out of a cosine, so it is not
// kept. Callers pass the cells isVectorCell accepts (the right length); one the decoder still refuses is left out of
// every comparison and its key reported in `refused`, so one bad row never stops retrieval for the whole execution.
//
// A matrix of more than `exactRows` version 3 cells is held coarse: decoding every value of 100,000 rows wrote 25.6 MB
// of new memory, and a fresh execution pays a page fault for every 4 KB of it. Half of it holds the high nibbles,
// which rank well enough for the exact scores of the best k + `rerankRows` to find the same top k (docs/benchmarks.md).
export function decodeMatrix(
  cells: string[],
  dims: number,
  keys: number[] = cells.map((_, i) => i),
  options: MatrixOptions = ALL_EXACT,
): Matrix {
  if (cells.length > options.exactRows && cells.every(isDense)) {
    const { coarse, dead, refused } = coarseOf(cells, dims, Math.max(0, options.rerankRows));
    const none = { data: new Int8Array(0), tails: new Float64Array(0), split: 0 };
    return {
      dims,
      rows: cells.length,
      ...none,
      norms: coarse.norms,
      keys,
      refused: refused.map((r) => keys[r]),
      dead,
      coarse,
    };
  }
  const data = new Int8Array(cells.length * dims);
  const norms = new Float32Array(cells.length);
  const tails = new Float64Array(cells.length);
  const split = splitOf(dims);
  const refused: number[] = [];
  let dead: Uint8Array | null = null;
  for (let r = 0; r < cells.length; r++) {
    const o = r * dims;
    const sum = cellInto(cells[r], dims, data, o);
    if (sum < 0) {
      data.fill(0, o, o + dims);
      norms[r] = 1;
      (dead ??= new Uint8Array(cells.length))[r] = 1;
      refused.push(keys[r]);
      continue;
    }
    norms[r] = Math.sqrt(sum) || 1;
    tails[r] = Math.sqrt(squares(data, o + split, o + dims));
  }
  return { dims, rows: cells.length, data, norms, tails, split, keys, refused, dead };
}

export interface Hit {
  key: number;
  score: number;
}

// The dot product of a row (at o) with q over dimensions [from, to), four lanes at a time: a quarter of the loop
// checks and a shorter dependency chain, which is most of what a scan of 10,000 rows costs.
function dot(data: Int8Array, o: number, q: Float32Array, from: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = from;
  for (; j + 4 <= d; j += 4) {
    s0 += data[o + j] * q[j];
    s1 += data[o + j + 1] * q[j + 1];
    s2 += data[o + j + 2] * q[j + 2];
    s3 += data[o + j + 3] * q[j + 3];
  }
  for (; j < d; j++) s0 += data[o + j] * q[j];
  return s0 + s1 + s2 + s3;
}

// The k best rows for a query, among those `allow` accepts (filters on scope, agent, confidence…). Exact: once k rows
// are held, a row whose first part's dot product plus the most its second part could add (Cauchy–Schwarz: the two
// parts' norms multiplied) cannot beat the k-th is left after its first part; most rows of other topics are.
export function topK(m: Matrix, query: Float32Array, k: number, allow: (key: number) => boolean = () => true): Hit[] {
  // k = 0 (a Settings value) asks for nothing; without this the loop would read best[-1].
  if (k <= 0) return [];
  if (m.coarse) return coarseTopK(m, m.coarse, query, k, allow);
  let qn = 0;
  for (let i = 0; i < query.length; i++) qn += query[i] * query[i];
  qn = Math.sqrt(qn) || 1;
  const d = m.dims;
  const h = m.split;
  let qTail = 0;
  for (let i = h; i < d; i++) qTail += query[i] * query[i];
  qTail = Math.sqrt(qTail);
  const best: Hit[] = [];
  // The k-th best score so far: a row below it costs one comparison, not a sort.
  let floor = -Infinity;
  const { data, norms, tails, keys, dead } = m;
  for (let r = 0; r < m.rows; r++) {
    const key = keys[r];
    if (dead?.[r] || !allow(key)) continue;
    const o = r * d;
    const head = dot(data, o, query, 0, h);
    const scale = norms[r] * qn;
    if ((head + qTail * tails[r]) / scale < floor) continue;
    const score = (head + dot(data, o, query, h, d)) / scale;
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

// The coarse pass keeps the best k + rerank rows (a margin past the k-th as well as before it); each is decoded from
// its cell and scored exactly, as the exact matrix scores it. A cell the exact decoder refuses is left out, as there.
function coarseTopK(m: Matrix, c: Coarse, query: Float32Array, k: number, allow: (key: number) => boolean): Hit[] {
  const { keys, dead, dims } = m;
  const best = coarseBest(c, m.rows, query, k + c.rerank, (r) => !dead?.[r] && allow(keys[r]));
  let qn = 0;
  for (let i = 0; i < query.length; i++) qn += query[i] * query[i];
  qn = Math.sqrt(qn) || 1;
  const row = new Int8Array(dims);
  const hits: Hit[] = [];
  for (const r of best) {
    const sum = denseCellInto(c.cells[r], dims, row, 0);
    if (sum < 0) continue;
    hits.push({ key: keys[r], score: dot(row, 0, query, 0, dims) / ((Math.sqrt(sum) || 1) * qn) });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, k);
}
