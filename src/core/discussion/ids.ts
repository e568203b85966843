// Identifiers: DISC-/DEC-YYYY-MM-DD-SEQ per day in the script time zone, MSG-{discussion}-{seq}.

// A discussion id as discussionId() below makes it: the one pattern every check of one uses.
export const DISCUSSION_ID = /^DISC-\d{4}-\d{2}-\d{2}-\d{3,}$/;

function pad(n: number, width = 3): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}

// Where a per-day sequence (DISC-, DEC-) stands: the day and number of the id just given, and the last number given on
// each recent day (`days`). Every day from `since` on that gave an id is in `days` (absent: every day); a sequence
// saved before `days` was kept knows only its last day, so `since` is that day.
export interface DailySeq {
  day: string;
  seq: number;
  days?: Record<string, number>;
  since?: string;
}

// How many days a sequence remembers: enough for the days a simulated run jumps ahead (a review date is weeks away at
// most), few enough for the state's script property (9 KB).
const REMEMBERED_DAYS = 40;

export function discussionId(n: DailySeq): string {
  return `DISC-${n.day}-${pad(n.seq)}`;
}

export function decisionId(n: DailySeq): string {
  return `DEC-${n.day}-${pad(n.seq)}`;
}

// The next id of a per-day sequence: today's day, and one more than the last number given on it, whatever the clock
// did since. The local runtime goes back to real time after `kaigi run` moved its simulated clock days ahead (and a
// server's clock can step back), so today may already have ids, or a later day may: an id names the day it was given
// on (never one that has not come yet), and its number goes on within that day, so it is never given twice. Only a
// day the sequence no longer remembers (before `since`) goes on after the latest day it does, as the one place an
// id can still name a later day: unique beats dated there.
export function nextDaily(last: DailySeq | null, today: string): DailySeq {
  const days: Record<string, number> = last ? { ...(last.days ?? { [last.day]: last.seq }) } : {};
  let since = last ? (last.since ?? (last.days ? '' : last.day)) : '';
  const known = Object.keys(days).sort();
  const day = today < since ? known[known.length - 1] : today;
  const seq = (days[day] ?? 0) + 1;
  days[day] = seq;
  const kept = Object.keys(days).sort();
  while (kept.length > REMEMBERED_DAYS) {
    const dropped = kept.shift()!;
    delete days[dropped];
    // Every remembered day is at or after `since` (an earlier one is never given), so this only moves it on.
    since = addDays(dropped, 1);
  }
  return since ? { day, seq, days, since } : { day, seq, days };
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
