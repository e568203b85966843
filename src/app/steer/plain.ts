// Rows as google.script.run can carry them: Dates become ISO strings, everything else stays as the cell holds it.

export function plainCell(v: unknown): unknown {
  return Object.prototype.toString.call(v) === '[object Date]' ? (v as Date).toISOString() : v;
}

export function plainRow<T extends object>(row: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(row)) out[k] = plainCell((row as Record<string, unknown>)[k]);
  return out;
}

// A text cell as text: a number or boolean a person typed reads back as its string, an empty cell as ''.
export function text(v: unknown): string {
  return v === null || v === undefined ? '' : String(plainCell(v));
}
