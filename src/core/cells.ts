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

// How a Date enters a digest. 'seconds' (the canonical form): its UTC ISO instant truncated to the whole second,
// as a cell keeps it (runtime/host/values.ts takes the reading that Sheets drops milliseconds), so
// a digest depends neither on the spreadsheet's time zone nor on milliseconds the sheet did not keep.
// 'exact' is the form of releases before that: milliseconds kept. It only serves to recognise digests those
// releases recorded (a Date read back from an old workbook still has its milliseconds).
type DateForm = 'seconds' | 'exact';

// The form in which a row's values are hashed: Dates as UTC ISO instants, empty as ''.
export function canonical(values: readonly unknown[], dates: DateForm = 'seconds'): string {
  return JSON.stringify(
    values.map((v) =>
      Object.prototype.toString.call(v) === '[object Date]'
        ? isoInstant(v as Date, dates)
        : v === null || v === undefined
          ? ''
          : v,
    ),
  );
}

function isoInstant(d: Date, dates: DateForm): string {
  const t = d.getTime();
  return new Date(dates === 'exact' ? t : Math.floor(t / 1000) * 1000).toISOString();
}
