// GET /status's cached copy: what the status says whoever asks, tagged with the change stamp it was read under
// (src/store/change-stamp.ts) and the time it was taken. A copy answers while the stamp is the same (nothing
// committed since, no property it shows written), it is younger than api.status_max_age_seconds (what changes with
// time alone: a lease running out, a room member's presence) and it is of today (the budget's day).
import { dayOf, scriptZone } from '../../../store/records.js';
import { stampForRead } from '../../../store/change-stamp.js';
import { readStatusCopy, writeStatusCopy } from '../../../store/status-cache.js';
import type { BudgetLimits, Spend } from '../../../core/api/api-budget.js';
import { ports } from '../../../ports.js';

export interface Shared {
  // The budget's day: a copy of another day is not used.
  day: string;
  // The API ledger and limits each caller's share is worked out from.
  ledger: { spend: Spend; limits: BudgetLimits };
  body: Record<string, unknown>;
}

interface Copy extends Shared {
  v: 1;
  stamp: string;
  at: number;
}

function parse(text: string): Copy | null {
  try {
    const c = JSON.parse(text) as Copy;
    return c && c.v === 1 && typeof c.stamp === 'string' && typeof c.at === 'number' && c.body ? c : null;
  } catch {
    // A copy that does not parse is no copy: the status is read in full and the copy replaced.
    return null;
  }
}

// One cache read: the copy when it may answer, and the stamp seen (for keepStatus to tag a new copy with).
export function cachedStatus(
  maxAgeS: number,
  now = ports().clock.now(),
): { shared: Shared | null; stamp: string | null } {
  const seen = readStatusCopy();
  const copy = seen.text ? parse(seen.text) : null;
  const fresh =
    !!copy &&
    copy.stamp === seen.stamp &&
    now - copy.at >= 0 &&
    now - copy.at < maxAgeS * 1000 &&
    copy.day === dayOf(now, scriptZone());
  return { shared: fresh ? copy : null, stamp: seen.stamp };
}

// The stamp to tag a new copy with, taken BEFORE the status is read: a commit during the read moves the stamp on, so
// the copy is never taken for one that includes it. A stamp the cache had lost is put back now, for the same reason.
export function tagForRead(seen: string | null): string {
  return stampForRead(seen);
}

export function keepStatus(tag: string, shared: Shared, maxAgeS: number, now = ports().clock.now()): void {
  if (maxAgeS <= 0) return;
  const copy: Copy = { v: 1, stamp: tag, at: now, ...shared };
  writeStatusCopy(JSON.stringify(copy), maxAgeS);
}
