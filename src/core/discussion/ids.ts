// Identifiers: DISC-/DEC-YYYY-MM-DD-SEQ per day in the script time zone, MSG-{discussion}-{seq}.

// A discussion id as discussionId() below makes it: the one pattern every check of one uses.
export const DISCUSSION_ID = /^DISC-\d{4}-\d{2}-\d{2}-\d{3,}$/;

function pad(n: number, width = 3): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}

// Where a per-day sequence (DISC-, DEC-) stands: the day of its last id and that id's number.
export interface DailySeq {
  day: string;
  seq: number;
}

export function discussionId(n: DailySeq): string {
  return `DISC-${n.day}-${pad(n.seq)}`;
}

export function decisionId(n: DailySeq): string {
  return `DEC-${n.day}-${pad(n.seq)}`;
}

// The next id of a per-day sequence. Ids are unique and each comes after every one given before it (by day, then
// number; as text too, while a day has fewer than 1,000), whatever the
// clock did since: the local runtime goes back to real time after a run fast-forwarded its clock, and a server's
// clock can step back. So a day never restarts once a later one was used: the id's day is the later of today and
// the sequence's last day, and on that day the number goes on (a new day starts at 1). After a clock went back, an
// id may name a day later than the one it was given on; what happened when is in the rows' own timestamps.
export function nextDaily(last: DailySeq | null, today: string): DailySeq {
  if (!last || today > last.day) return { day: today, seq: 1 };
  return { day: last.day, seq: last.seq + 1 };
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
