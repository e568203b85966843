// Cell-level encoding: the 50,000-character limit, lossless chunking, overflow pointers, canonical rows.

export const MAX_CELL_CHARS = 50000;

export function chunks(text: string, size = MAX_CELL_CHARS): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) {
    // Never split a surrogate pair across two cells.
    let end = Math.min(text.length, i + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end--;
    out.push(text.slice(i, end));
    i = end - size;
  }
  return out;
}

export interface Pointer {
  $ref: 'Overflow' | 'Messages';
  id: string;
  sha256: string;
  length: number;
  rows: [number, number];
  count?: number;
  first_id?: string;
  last_id?: string;
}

export function pointerText(p: Pointer): string {
  return JSON.stringify(p);
}

export function parsePointer(v: unknown): Pointer | null {
  if (typeof v !== 'string' || v.indexOf('{"$ref":') !== 0) return null;
  try {
    const p = JSON.parse(v) as Pointer;
    return (p.$ref === 'Overflow' || p.$ref === 'Messages') && typeof p.sha256 === 'string' && Array.isArray(p.rows)
      ? p
      : null;
  } catch {
    return null;
  }
}

// The form in which a row's values are hashed: Dates as ISO strings, empty as ''.
export function canonical(values: readonly unknown[]): string {
  return JSON.stringify(
    values.map((v) =>
      Object.prototype.toString.call(v) === '[object Date]'
        ? (v as Date).toISOString()
        : v === null || v === undefined
          ? ''
          : v,
    ),
  );
}
