// The simulated council's retrieval matrix, grown by the rows added since it was decoded: a year's memory gains a case
// a discussion, and decoding every row again for each one made the decoding grow with the square of the rows.
import { decodeMatrix, type Matrix } from '../src/core/memory/retrieval.js';
import type { Learning } from '../src/core/memory/memory.js';

// The embedding cells each matrix was decoded from, to tell whether its rows are still the rows asked for.
const cellsOf = new WeakMap<Matrix, string[]>();

function decoded(cells: string[], keys: number[], dims: number): Matrix {
  const m = decodeMatrix(cells, dims, keys);
  cellsOf.set(m, cells);
  return m;
}

// The matrix of `rows` (keys are their row numbers), as decodeMatrix would make it. The old matrix's rows are kept
// only when each still has the same row number and embedding cell; otherwise every row is decoded afresh.
export function grownMatrix(old: Matrix, rows: readonly Learning[], dims: number): Matrix {
  const cells = rows.map((l) => l.embedding);
  const keys = rows.map((l) => l.row);
  const before = cellsOf.get(old);
  const kept = before && old.dims === dims && old.rows <= rows.length ? old.rows : 0;
  for (let i = 0; i < kept; i++)
    if (old.keys[i] !== keys[i] || before?.[i] !== cells[i]) return decoded(cells, keys, dims);
  if (!kept) return decoded(cells, keys, dims);
  const added = decodeMatrix(cells.slice(kept), dims, keys.slice(kept));
  const data = new Int8Array(rows.length * dims);
  data.set(old.data.subarray(0, kept * dims));
  data.set(added.data, kept * dims);
  const norms = new Float32Array(rows.length);
  norms.set(old.norms.subarray(0, kept));
  norms.set(added.norms, kept);
  const tails = new Float64Array(rows.length);
  tails.set(old.tails.subarray(0, kept));
  tails.set(added.tails, kept);
  // The simulation's cells are Kaigi's own: none is refused, but if one were, the grown matrix keeps it out too.
  let dead: Uint8Array | null = null;
  if (old.dead || added.dead) {
    dead = new Uint8Array(rows.length);
    if (old.dead) dead.set(old.dead.subarray(0, kept));
    if (added.dead) dead.set(added.dead, kept);
  }
  const refused = old.refused.filter((k) => keys.indexOf(k) >= 0 && keys.indexOf(k) < kept).concat(added.refused);
  const m: Matrix = { ...added, rows: rows.length, data, norms, tails, keys, refused, dead };
  cellsOf.set(m, cells);
  return m;
}
