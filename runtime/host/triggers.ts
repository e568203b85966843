// ScriptApp's installable triggers on the host: each user's own, the 20-per-user limit, and when they fire (late).

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
  // The user who created it: only they see it, it fires as them, and it counts toward their 20.
  owner: string;
  nextAt: number | null;
  oneShot: boolean;
  // A one-shot trigger stays listed after it fires and still counts toward the limit until deleted.
  fired: boolean;
  // The earliest time Apps Script promises (after()'s time, a daily trigger's hour); nextAt is this plus lateness.
  slotAt?: number;
  // How many times a repeating trigger has been scheduled, so each firing draws its own lateness.
  round?: number;
}

const MAX_TRIGGERS_PER_USER = 20;
const TOO_MANY_TRIGGERS =
  'This script has too many triggers. Triggers must be deleted from the script before more can be added.';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

// How late triggers fire (the pessimistic reading). Google documents after(ms) as a minimum ("the trigger
// will run after at least this many milliseconds") and a daily trigger's atHour() as "some time within that hour"
// (nearMinute() is ±15 minutes, and Google says the time may be randomized). So: after(ms) fires between ms and
// ms + afterMaxMs later, and a daily trigger at a random minute of its hour, every day a new one; nearMinute() is not
// honoured, as the hour is all Google promises. The draws come from the seed, the trigger's id and the round, so a
// run with the same seed fires at the same offsets.
export interface TriggerDelays {
  seed: number;
  afterMaxMs: number;
  // Untidy triggers, as Google promises no better: with this chance a firing of a recurring trigger is skipped, and
  // with the same chance any firing runs twice; triggers due together start side by side (they overlap). 0 is off.
  // The chaos bench sets it, with afterMaxMs up to 10 minutes.
  untidy?: number;
}

// What untidy mode injected so far.
export interface UntidyCounts {
  overlaps: number;
  skips: number;
  doubles: number;
  // after() triggers placed more than 3 minutes past their time.
  late: number;
}

// How one firing of a due trigger goes.
export type FiringPlan = 'once' | 'skip' | 'double';

const TIDY_LATENESS_MS = 3 * 60_000;

export const DEFAULT_TRIGGER_DELAYS: TriggerDelays = { seed: 1, afterMaxMs: 3 * 60_000 };

// A uniform draw in [0, 1) from (seed, trigger id, round): the same inputs always give the same value.
function lateness(seed: number, uid: string, round: number): number {
  let h = (seed | 0) ^ 0x9e3779b9;
  const text = `${uid}:${round}`;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x85ebca6b);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

export type ZoneOffset = (t: number) => number;

export class TriggerStore {
  triggers: TriggerModel[] = [];
  delays: TriggerDelays = { ...DEFAULT_TRIGGER_DELAYS };
  readonly untidy: UntidyCounts = { overlaps: 0, skips: 0, doubles: 0, late: 0 };
  private seq = 1;
  private firings = 0;

  // Whether a due trigger fires once, is skipped (a recurring one only: a one-shot's work would wait for the
  // backstop) or fires twice, drawn from the seed; always once unless untidy mode is on.
  plan(t: TriggerModel): FiringPlan {
    const rate = this.delays.untidy ?? 0;
    if (rate <= 0) return 'once';
    const u = lateness(this.delays.seed + 7919, t.uid, 100_000 + this.firings++);
    if (u < rate && !t.oneShot) {
      this.untidy.skips++;
      return 'skip';
    }
    if (u >= rate && u < 2 * rate) {
      this.untidy.doubles++;
      return 'double';
    }
    return 'once';
  }

  create(spec: TriggerSpec, owner: string, now: number, zoneOffsetMs: ZoneOffset): TriggerModel {
    if (this.ownedBy(owner).length >= MAX_TRIGGERS_PER_USER)
      throw Object.assign(new Error(TOO_MANY_TRIGGERS), { name: 'Exception' });
    const uid = String(1000000 + this.seq++ * 7);
    const oneShot = spec.atMs !== undefined || spec.afterMs !== undefined;
    const t: TriggerModel = { ...spec, uid, owner, oneShot, fired: false, nextAt: null, round: 0 };
    this.schedule(t, now, zoneOffsetMs);
    this.triggers.push(t);
    return t;
  }

  // What getProjectTriggers() shows a user: their own triggers, never another editor's.
  ownedBy(owner: string): TriggerModel[] {
    return this.triggers.filter((t) => t.owner === owner);
  }

  // Deletes one of `owner`'s triggers; another user's cannot be deleted (a script never even sees it).
  delete(uid: string, owner?: string): void {
    const t = this.triggers.find((x) => x.uid === uid);
    if (t && owner !== undefined && t.owner !== owner)
      throw Object.assign(new Error('The trigger belongs to another user and cannot be deleted by this one.'), {
        name: 'Exception',
      });
    this.triggers = this.triggers.filter((x) => x.uid !== uid);
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

  markFired(t: TriggerModel, now: number, zoneOffsetMs: ZoneOffset = () => 0): void {
    if (t.oneShot) {
      t.fired = true;
      t.nextAt = null;
    } else if (isDaily(t) && t.slotAt !== undefined) {
      // The next day's hour (found again in the zone, so a DST change keeps the local hour), at a new random minute.
      let slot = t.slotAt;
      do slot = dailySlot(noonOf(slot, t.atHour!) + t.everyMs!, t.atHour!, zoneOffsetMs);
      while (slot <= now);
      t.round = (t.round ?? 0) + 1;
      this.placeDaily(t, slot);
    } else if (t.everyMs) {
      // A trigger that fell behind fires once, not once per missed period.
      let next = t.nextAt! + t.everyMs;
      if (next <= now) next = now + t.everyMs;
      t.nextAt = next;
    }
  }

  // The clock they were set on and the one now running differ by `ms` (a simulation's saved offset, opened on real
  // time): every time moves by it, and a daily trigger goes back to its hour (the offset is rarely whole days),
  // without making one that was not due yet due now.
  rebase(ms: number, now: number, zoneOffsetMs: ZoneOffset): void {
    if (ms === 0) return;
    this.triggers = shiftTriggers(this.triggers, ms);
    for (const t of this.triggers) {
      if (!isDaily(t) || t.slotAt === undefined || t.nextAt === null) continue;
      // One that was due stays due, at the last of its hours; one that was not is at the next of its hours, which is
      // always within a day (the hour on the day it lands on could be more than a day away).
      let slot = dailySlot(now, t.atHour!, zoneOffsetMs);
      if (t.slotAt > now) while (slot <= now) slot = dailySlot(noonOf(slot, t.atHour!) + DAY, t.atHour!, zoneOffsetMs);
      else if (slot > now) slot = dailySlot(noonOf(slot, t.atHour!) - DAY, t.atHour!, zoneOffsetMs);
      this.placeDaily(t, slot);
    }
  }

  restore(list: TriggerModel[]): void {
    this.triggers = list;
    for (const t of list) this.seq = Math.max(this.seq, (Number(t.uid) - 1000000) / 7 + 1);
  }

  private schedule(t: TriggerModel, now: number, zoneOffsetMs: ZoneOffset): void {
    if (t.eventType !== 'CLOCK') return;
    if (t.atMs !== undefined) t.nextAt = t.atMs;
    else if (t.afterMs !== undefined) {
      t.slotAt = now + t.afterMs;
      t.nextAt = t.slotAt + Math.floor(lateness(this.delays.seed, t.uid, 0) * this.delays.afterMaxMs);
      if (t.nextAt - t.slotAt > TIDY_LATENESS_MS) this.untidy.late++;
    } else if (isDaily(t)) {
      // The first of the named hours that has not begun yet (one already under way is tomorrow's).
      let slot = dailySlot(now, t.atHour!, zoneOffsetMs);
      while (slot <= now) slot = dailySlot(noonOf(slot, t.atHour!) + DAY, t.atHour!, zoneOffsetMs);
      this.placeDaily(t, slot);
    } else if (t.everyMs !== undefined) t.nextAt = now + t.everyMs;
  }

  private placeDaily(t: TriggerModel, slot: number): void {
    t.slotAt = slot;
    t.nextAt = slot + Math.floor(lateness(this.delays.seed, t.uid, t.round ?? 0) * 60) * 60_000;
  }
}

// The triggers with every time moved by `ms` (copies: the list given is left as it is).
export function shiftTriggers(list: readonly TriggerModel[], ms: number): TriggerModel[] {
  const at = (t: number | undefined) => (t === undefined ? undefined : t + ms);
  return list.map((t) => {
    const out: TriggerModel = { ...t, nextAt: t.nextAt === null ? null : t.nextAt + ms };
    if (t.slotAt !== undefined) out.slotAt = at(t.slotAt);
    if (t.atMs !== undefined) out.atMs = at(t.atMs);
    return out;
  });
}

function isDaily(t: TriggerModel): boolean {
  return t.everyMs !== undefined && t.everyMs >= DAY && t.atHour !== undefined;
}

// Noon of a slot's local day, give or take a DST hour: a day later it is still inside the next local day.
function noonOf(slot: number, atHour: number): number {
  return slot + (12 - atHour) * HOUR;
}

// The start of hour `atHour` on the local (script time zone) day that contains `time`.
function dailySlot(time: number, atHour: number, zoneOffsetMs: ZoneOffset): number {
  const offset = zoneOffsetMs(time);
  const localMidnight = Math.floor((time + offset) / DAY) * DAY;
  const local = localMidnight + atHour * HOUR;
  // The offset at the slot itself, so a day whose DST change falls before the hour still lands on that local hour.
  return local - zoneOffsetMs(local - offset);
}
