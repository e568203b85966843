// ScriptApp's installable triggers on the host: the 20-per-user limit and the schedule they fire on.

export interface TriggerSpec {
  handler: string;
  eventType: 'CLOCK' | 'ON_OPEN' | 'ON_EDIT' | 'ON_CHANGE' | 'ON_FORM_SUBMIT';
  source: 'CLOCK' | 'SPREADSHEETS';
  sourceId?: string;
  everyMs?: number;
  atMs?: number;
  afterMs?: number;
  atHour?: number;
  nearMinute?: number;
  timeZone?: string;
}

export interface TriggerModel extends TriggerSpec {
  uid: string;
  owner: string;
  nextAt: number | null;
  oneShot: boolean;
  // A one-shot trigger stays listed after it fires and still counts toward the limit until deleted.
  fired: boolean;
}

export const MAX_TRIGGERS_PER_USER = 20;
export const TOO_MANY_TRIGGERS =
  'This script has too many triggers. Triggers must be deleted from the script before more can be added.';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export class TriggerStore {
  triggers: TriggerModel[] = [];
  private seq = 1;

  create(spec: TriggerSpec, owner: string, now: number, zoneOffsetMs: (t: number) => number): TriggerModel {
    if (this.triggers.filter((t) => t.owner === owner).length >= MAX_TRIGGERS_PER_USER)
      throw Object.assign(new Error(TOO_MANY_TRIGGERS), { name: 'Exception' });
    const uid = String(1000000 + this.seq++ * 7);
    const oneShot = spec.atMs !== undefined || spec.afterMs !== undefined;
    const t: TriggerModel = { ...spec, uid, owner, oneShot, fired: false, nextAt: null };
    t.nextAt = firstRun(t, now, zoneOffsetMs);
    this.triggers.push(t);
    return t;
  }

  delete(uid: string): void {
    this.triggers = this.triggers.filter((t) => t.uid !== uid);
  }

  // Clock triggers due at `now`, earliest first.
  due(now: number): TriggerModel[] {
    return this.triggers.filter((t) => t.nextAt !== null && t.nextAt <= now).sort((a, b) => a.nextAt! - b.nextAt!);
  }

  nextDueTime(): number | null {
    let best: number | null = null;
    for (const t of this.triggers) if (t.nextAt !== null && (best === null || t.nextAt < best)) best = t.nextAt;
    return best;
  }

  markFired(t: TriggerModel, now: number): void {
    if (t.oneShot) {
      t.fired = true;
      t.nextAt = null;
    } else if (t.everyMs) {
      // A trigger that fell behind fires once, not once per missed period.
      let next = t.nextAt! + t.everyMs;
      if (next <= now) next = now + t.everyMs;
      t.nextAt = next;
    }
  }

  restore(list: TriggerModel[]): void {
    this.triggers = list;
    for (const t of list) this.seq = Math.max(this.seq, (Number(t.uid) - 1000000) / 7 + 1);
  }
}

function firstRun(t: TriggerModel, now: number, zoneOffsetMs: (t: number) => number): number | null {
  if (t.eventType !== 'CLOCK') return null;
  if (t.atMs !== undefined) return t.atMs;
  if (t.afterMs !== undefined) return now + t.afterMs;
  if (t.everyMs === undefined) return null;
  if (t.everyMs >= DAY && t.atHour !== undefined) {
    // Daily triggers run within the named hour of the script's time zone.
    const offset = zoneOffsetMs(now);
    const localMidnight = Math.floor((now + offset) / DAY) * DAY - offset;
    let at = localMidnight + t.atHour * HOUR + (t.nearMinute ?? 0) * 60_000;
    while (at <= now) at += DAY;
    return at;
  }
  return now + t.everyMs;
}
