// The rows an execution's last commit wrote, answered without reading them back while nobody has committed since.
import type { TabKey } from '../../sheets-schema/index.js';

type Block = { tab: TabKey; row: number; rows: unknown[][] };

// Every commit moves a counter in the state (commit.ts), so while the committed state is still the text that commit
// wrote, the rows it wrote are what the sheet holds: the answer to a request that ran its own work, the next claim's
// queue rows. Any other write the execution makes drops them (Store.wrote).
export class HeldRows {
  private held: { state: string; rows: Record<string, unknown[]>; appended: Record<string, [number, number]> } | null =
    null;

  remember(
    state: string,
    blocks: readonly Block[],
    appended: Record<string, [number, number]>,
    width: (key: TabKey) => number,
  ): void {
    const rows: Record<string, unknown[]> = {};
    for (const b of blocks) {
      const w = width(b.tab);
      b.rows.forEach((r, i) => {
        rows[`${b.tab}:${b.row + i}`] = asWritten(r, w);
      });
    }
    const copy: Record<string, [number, number]> = {};
    for (const k of Object.keys(appended)) copy[k] = [appended[k][0], appended[k][1]];
    this.held = { state, rows, appended: copy };
  }

  drop(): void {
    this.held = null;
  }

  // The rows asked for when the last commit wrote every one of them and the committed state is still its.
  rows(current: string | null, key: TabKey, from: number, count: number): unknown[][] | null {
    if (!this.held || current !== this.held.state) return null;
    const out: unknown[][] = [];
    for (let i = 0; i < count; i++) {
      const r = this.held.rows[`${key}:${from + i}`];
      if (!r) return null;
      out.push(r.slice());
    }
    return out;
  }

  // The rows the last commit appended to `key` whose `column` holds exactly `value`, in row order.
  appended(current: string | null, key: TabKey, column: number, value: string): { row: number; values: unknown[] }[] {
    const range = this.held?.appended[key];
    if (!this.held || !range || current !== this.held.state) return [];
    const out: { row: number; values: unknown[] }[] = [];
    for (let row = range[0]; row <= range[1]; row++) {
      const values = this.held.rows[`${key}:${row}`];
      if (values && values[column] === value) out.push({ row, values: values.slice() });
    }
    return out;
  }
}

// A row as a commit wrote it: cut or padded to the tab's width, a missing value an empty cell.
export function asWritten(r: readonly unknown[], width: number): unknown[] {
  const out = r.slice(0, width).map((v) => (v === null || v === undefined ? '' : v));
  while (out.length < width) out.push('');
  return out;
}
