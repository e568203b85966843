// The API Log as verifyAudit reads it, a page at a time: each archive's first rows in the archives' order (as many as
// the chain records as archived there; a copy a killed run left below them is not the log's), then the
// spreadsheet's. A year of one client at a tenth of the rate limit is over 3 million rows, more than one read (or
// one execution's memory) should carry, so a page is read when a batch first needs it and dropped once passed.
import { rowsOf } from '../../../sheets-schema/index.js';
import type { LogRows } from '../../core/api/api-log-digest.js';
import type { Store } from '../../store/store.js';

// Rows per read: 50,000 API Log rows are 300,000 cells.
export const PAGE_ROWS = 50_000;

// A run of the log kept in one place: `count` rows from log row `from`, at `row` of `store`'s tab on (no store: rows
// the chain records as archived to an archive that is not listed, read as blank rows, so their batches fail).
interface Segment {
  from: number;
  count: number;
  store: Store | null;
  row: number;
  // Rows the tab holds of the run (its last row's): the rest read as blank rows (removed below the tab's end).
  held: number;
}

export class LogPages implements LogRows {
  private readonly segments: Segment[] = [];
  private end = 2;
  // The pages read, by segment and page number; at most two are kept (a batch may straddle two).
  private readonly pages = new Map<string, unknown[][]>();

  // Appends a run of `count` rows kept at `row` on of `store`'s API Log tab (null: not readable, blank).
  add(store: Store | null, row: number, count: number): this {
    if (count <= 0) return this;
    const held = store ? Math.max(0, Math.min(count, store.sheet('api_log').getLastRow() - row + 1)) : 0;
    this.segments.push({ from: this.end, count, store, row, held });
    this.end += count;
    return this;
  }

  read(firstRow: number, count: number): unknown[][] {
    const out: unknown[][] = [];
    for (let r = Math.max(2, firstRow); r < firstRow + count && r < this.end; ) {
      const k = this.segments.findIndex((s) => r >= s.from && r < s.from + s.count);
      if (k < 0) break;
      const seg = this.segments[k];
      const p = Math.floor((r - seg.from) / PAGE_ROWS);
      const page = this.page(k, p);
      const at = r - seg.from - p * PAGE_ROWS;
      const take = Math.min(page.length - at, firstRow + count - r);
      for (let i = 0; i < take; i++) out.push(page[at + i]);
      r += take;
    }
    return out;
  }

  private page(k: number, p: number): unknown[][] {
    const key = `${k}:${p}`;
    const hit = this.pages.get(key);
    if (hit) return hit;
    const seg = this.segments[k];
    const first = p * PAGE_ROWS;
    const n = Math.min(PAGE_ROWS, seg.count - first);
    const width = rowsOf('api_log').width;
    const readable = Math.max(0, Math.min(n, seg.held - first));
    const rows =
      seg.store && readable
        ? padded(
            seg.store
              .sheet('api_log')
              .getRange(seg.row + first, 1, readable, width)
              .getValues(),
            width,
          )
        : [];
    while (rows.length < n) rows.push(new Array<unknown>(width).fill(''));
    // Batches are read in order: the page before the one in use is all that can be asked for again.
    if (this.pages.size >= 2) this.pages.delete(this.pages.keys().next().value as string);
    this.pages.set(key, rows);
    return rows;
  }
}

// Rows as a range of the tab's width gives them, each as long as the width (a sheet narrower than the schema, an
// archive shaped before a column was added, reads its missing cells as empty).
function padded(rows: unknown[][], width: number): unknown[][] {
  for (const r of rows) while (r.length < width) r.push('');
  return rows;
}
