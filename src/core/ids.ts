// Identifiers: DISC-/DEC-YYYY-MM-DD-SEQ per day in the script time zone, MSG-{discussion}-{seq}.

function pad(n: number, width = 3): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}

export function discussionId(day: string, seq: number): string {
  return `DISC-${day}-${pad(seq)}`;
}

export function decisionId(day: string, seq: number): string {
  return `DEC-${day}-${pad(seq)}`;
}

export function messageId(discussion: string, seq: number): string {
  return `MSG-${discussion}-${pad(seq)}`;
}

export function dayOf(id: string): string {
  const m = /(\d{4}-\d{2}-\d{2})/.exec(id);
  if (!m) throw new Error(`no date in ${id}`);
  return m[1];
}

// YYYY-MM-DD of an instant in a fixed-offset-free way: the adapter passes the zone's local date.
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1, 2)}-${pad(t.getUTCDate(), 2)}`;
}

export function daysBetween(a: string, b: string): number {
  const [y1, m1, d1] = a.split('-').map(Number);
  const [y2, m2, d2] = b.split('-').map(Number);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86400000);
}
