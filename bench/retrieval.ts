// Retrieval counted whole: the cells as the runtime hands them, their check and decode, and top-10 against exact cosine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeVector, isVectorCell, l2normalise } from '../src/core/memory/embedding.js';
import { decodeMatrix, matrixOptionsOf, topK } from '../src/core/memory/retrieval.js';
import { Settings } from '../src/core/settings.js';

export interface RetrievalRow {
  dims: number;
  n: number;
  // Median time of one query's top-10 over the decoded matrix: what each agent's recall costs.
  ms: number;
  // What a fresh execution pays once (src/store/memory.ts keeps the matrix for every agent): each cell's
  // format check (memory.searchable) and its decode into the matrix, from strings as the runtime's JSON.parse gives them.
  decode_ms: number;
  // decode_ms + ms: one execution's first recall, with code V8 has already optimised (the median of 3 decodes in a
  // process that has decoded before).
  total_ms: number;
  // The same in a fresh process, the median of 3: its first decode and first query, which run while V8 is still
  // compiling them. An execution starts with nothing compiled, so this is what it pays.
  cold_decode_ms: number;
  cold_ms: number;
  cold_total_ms: number;
  // The kernel's minor page faults in decode_ms and cold_decode_ms: first writes to the matrix (n × dims bytes) and,
  // cold, to the heap a fresh process grows. Each costs about 6–17 µs on the VM these figures were taken on, so they
  // are a large share of decode_ms at 100,000 rows, whatever the cell format.
  decode_faults: number;
  cold_decode_faults: number;
  // The offline runtime's JSON.parse of the embedding column as its bridge carries getValues (runtime/gas/bridge.ts):
  // not in total_ms, as Apps Script hands a getValues over by its own means, which the runtime's time model counts as
  // one Sheets read (100–300 ms whatever its size, runtime/host/time-model.ts).
  read_ms: number;
  // recall@10 against exact float64 cosine over the vectors before they were stored.
  recall: number;
  cell_chars: number;
  // Whether the matrix was held coarse (past Settings retrieval.exact_rows at its default), and the share of the exact
  // matrix's top-10 keys the coarse pass's top-10 found (1 for an exact matrix).
  coarse: boolean;
  agreement: number;
}

// Seeded generator so every run measures the same vectors.
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

// Topical data: vectors around 200 topic centres, as embeddings of related texts are.
function vectors(n: number, dims: number, seed: number): Float32Array[] {
  const r = rng(seed);
  const centres = Array.from({ length: 200 }, () => l2normalise(Array.from({ length: dims }, () => gaussian(r))));
  const out: Float32Array[] = [];
  const v = new Float32Array(dims);
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(r() * centres.length)];
    for (let j = 0; j < dims; j++) v[j] = c[j] + (0.7 * gaussian(r)) / Math.sqrt(dims);
    out.push(l2normalise(v));
  }
  return out;
}

// The exact top-k in float64 over the original vectors (unit length, so the dot product is the cosine).
function exactTop(vs: Float32Array[], q: Float32Array, k: number): Set<number> {
  let qn = 0;
  for (let j = 0; j < q.length; j++) qn += q[j] * q[j];
  qn = Math.sqrt(qn);
  const best: { i: number; s: number }[] = [];
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i];
    let dot = 0;
    let nv = 0;
    for (let j = 0; j < v.length; j++) {
      dot += v[j] * q[j];
      nv += v[j] * v[j];
    }
    const s = dot / (Math.sqrt(nv) * qn);
    if (best.length < k || s > best[k - 1].s) {
      if (best.length === k) best.pop();
      best.push({ i, s });
      best.sort((a, b) => b.s - a.s);
    }
  }
  return new Set(best.map((b) => b.i));
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r2 = (x: number) => Math.round(x * 100) / 100;

// What memory.searchable and the matrix do with a column: keep the cells of the right length, decode them, exactly
// or coarse as the default Settings say (retrieval.exact_rows, retrieval.rerank_rows).
const DEFAULTS = matrixOptionsOf(new Settings({}));
const decodeColumn = (cells: string[], dims: number, options = DEFAULTS) => {
  const ok = cells.filter((c) => isVectorCell(c, dims));
  return decodeMatrix(ok, dims, undefined, options);
};

// The column's cells after the parse, timed three times.
function parsed(column: string): { cells: string[]; reads: number[] } {
  const reads: number[] = [];
  let cells: string[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    cells = (JSON.parse(column) as string[][]).map((c) => c[0]);
    reads.push(performance.now() - t0);
  }
  return { cells, reads };
}

// Set, to a file holding a column and a query, in the fresh process that measures one row's first decode and query.
const COLD = 'KAIGI_RETRIEVAL_COLD';

// Run in that process: nothing has decoded or queried before, so V8 compiles both as they run.
function firstTimes(file: string): RetrievalRow {
  const { dims, column, query } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    dims: number;
    column: string;
    query: number[];
  };
  const { cells } = parsed(column);
  const q = Float32Array.from(query);
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  const m = decodeColumn(cells, dims);
  const t1 = performance.now();
  const f1 = process.resourceUsage().minorPageFault;
  topK(m, q, 10);
  const t2 = performance.now();
  // The other figures are the parent's to measure: it reads these four.
  const first = { ms: r2(t2 - t1), decode_ms: r2(t1 - t0), total_ms: r2(t2 - t0), decode_faults: f1 - f0 };
  return { dims, n: cells.length, ...first } as RetrievalRow;
}

// This bench run again in a fresh process per measurement (dist/node/bench.js, with COLD set), the median of 3.
function coldRow(
  dims: number,
  column: string,
  query: Float32Array,
): Pick<RetrievalRow, 'cold_decode_ms' | 'cold_ms' | 'cold_total_ms' | 'cold_decode_faults'> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-retrieval-'));
  const file = path.join(dir, 'column.json');
  fs.writeFileSync(file, JSON.stringify({ dims, column, query: Array.from(query) }));
  const runs: RetrievalRow[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--json', '--only', 'retrieval'], {
        env: { ...process.env, [COLD]: file },
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      });
      if (child.status !== 0) throw new Error(`the cold retrieval run failed: ${child.stderr}`);
      runs.push((JSON.parse(child.stdout) as { retrieval: RetrievalRow[] }).retrieval[0]);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const mid = (f: (x: RetrievalRow) => number) => median(runs.map(f));
  return {
    cold_decode_ms: mid((x) => x.decode_ms),
    cold_ms: mid((x) => x.ms),
    cold_total_ms: mid((x) => x.total_ms),
    cold_decode_faults: mid((x) => x.decode_faults),
  };
}

function row(dims: number, n: number): RetrievalRow {
  const vs = vectors(n, dims, 7 + dims);
  // One column of cells as the bridge carries it: flat strings after the parse, as an execution's are.
  const column = JSON.stringify(vs.map((v) => [encodeVector(v)]));
  const queries = vectors(25, dims, 99 + dims);
  const { cells, reads } = parsed(column);
  const decode = () => decodeColumn(cells, dims);
  const decodes: number[] = [];
  const faults: number[] = [];
  let m = decode();
  for (let i = 0; i < 3; i++) {
    const f0 = process.resourceUsage().minorPageFault;
    const t0 = performance.now();
    m = decode();
    decodes.push(performance.now() - t0);
    faults.push(process.resourceUsage().minorPageFault - f0);
  }
  // Two untimed queries first: an execution's first agents warm the scan up for the others.
  for (const q of queries.slice(0, 2)) topK(m, q, 10);
  const times: number[] = [];
  let recall = 0;
  let agreement = 0;
  const exact = m.coarse ? decodeColumn(cells, dims, { exactRows: Infinity, rerankRows: 0 }) : m;
  for (const q of queries) {
    const t0 = performance.now();
    const hits = topK(m, q, 10);
    times.push(performance.now() - t0);
    const truth = exactTop(vs, q, 10);
    recall += hits.filter((h) => truth.has(h.key)).length / 10;
    const same = new Set(topK(exact, q, 10).map((h) => h.key));
    agreement += hits.filter((h) => same.has(h.key)).length / 10;
  }
  const ms = median(times);
  const decodeMs = median(decodes);
  return {
    dims,
    n,
    ms: r2(ms),
    decode_ms: r2(decodeMs),
    total_ms: r2(decodeMs + ms),
    decode_faults: median(faults),
    ...coldRow(dims, column, queries[0]),
    read_ms: r2(median(reads)),
    recall: Math.round((recall / queries.length) * 1000) / 1000,
    cell_chars: cells[0].length,
    coarse: m.coarse !== undefined,
    agreement: Math.round((agreement / queries.length) * 1000) / 1000,
  };
}

export function retrievalBench(): RetrievalRow[] {
  const cold = process.env[COLD];
  if (cold) return [firstTimes(cold)];
  return [row(256, 10_000), row(256, 100_000), row(1536, 10_000)];
}

export function printRetrieval(rows: RetrievalRow[]): void {
  console.log(
    '\nRetrieval: top-10 over stored int8 embeddings, with the decode an execution pays once (target at 256 dims, decode and query: ≤ 15 ms at 10,000, ≤ 120 ms at 100,000, recall@10 ≥ 0.95; past Settings retrieval.exact_rows the matrix is coarse)',
  );
  for (const r of rows)
    console.log(
      `  ${String(r.dims).padStart(4)} dims × ${String(r.n).padStart(6)}: ${r.cold_total_ms} ms in all in a fresh process (decode ${r.cold_decode_ms} ms with ${r.cold_decode_faults} page faults, first query ${r.cold_ms} ms); compiled, ${r.total_ms} ms (decode ${r.decode_ms} ms once with ${r.decode_faults} page faults, ${r.ms} ms a query); the runtime's JSON read ${r.read_ms} ms apart; recall@10 ${r.recall}, ${r.cell_chars} characters per cell${r.coarse ? `; coarse, the exact matrix's top-10 found ${r.agreement}` : ''}`,
    );
}
