// Apps Script's daily quotas per user (docs/runtime.md), spent against one cost model of service calls.
import type { ServiceOp } from '../service-calls.js';
import { QuotaError } from './properties-store.js';

export type AccountType = 'consumer' | 'workspace';

// Trigger runtime is the execution's time on Apps Script's clock: each service call's modelled cost
// (time-model.ts, one table for the clock and for this quota), the modelled start of the execution, and the
// waits it made (fetch answers, lock waits, Utilities.sleep). Pure computation is not charged.
export interface DailyLimits {
  triggerSeconds: number;
  urlFetches: number;
  propertiesCalls: number;
}

// Google's "Quotas for Google Services" page: triggers total runtime, URL Fetch calls, Properties read/write.
export const DAILY_LIMITS: Record<AccountType, DailyLimits> = {
  consumer: { triggerSeconds: 90 * 60, urlFetches: 20_000, propertiesCalls: 50_000 },
  workspace: { triggerSeconds: 6 * 3600, urlFetches: 100_000, propertiesCalls: 500_000 },
};

// The same page's "Spreadsheets created" row, kept apart from DailyLimits so the usage record stays as it was.
const SPREADSHEETS_CREATED_PER_DAY: Record<AccountType, number> = { consumer: 250, workspace: 3200 };

// Apps Script's own messages when a daily quota is spent. The creation one is worded like the documented
// "Service invoked too many times for one day: docs create." for documents.
export const QUOTA_MESSAGES = {
  triggerSeconds: 'Service using too much computer time for one day',
  urlFetches: 'Service invoked too many times for one day: urlfetch.',
  propertiesCalls: 'Service invoked too many times for one day: properties.',
  spreadsheetsCreated: 'Service invoked too many times for one day: spreadsheets create.',
} as const;

// Google: quotas "are refreshed at the end of a 24-hour window"; when that window starts is not stated. The window
// here starts at a user's first charge and lasts 24 h of the runtime clock. That is never shorter than what is
// left of a calendar day, so it is the harsher reading.
const QUOTA_WINDOW_MS = 24 * 3600_000;

export interface QuotaUsage {
  // When the user's current 24-hour window started (runtime clock, epoch ms); null before the first charge.
  windowStart: number | null;
  triggerSeconds: number;
  urlFetches: number;
  propertiesCalls: number;
  // Trigger executions started in the window (each charged its modelled start).
  triggerExecutions: number;
}

function zero(windowStart: number | null): QuotaUsage {
  return { windowStart, triggerSeconds: 0, urlFetches: 0, propertiesCalls: 0, triggerExecutions: 0 };
}

// What the ledger reads of an execution (ExecContext, handler.ts, whose state holds the ledger): what started it and
// whom it runs as.
interface Charged {
  kind: string;
  owner: string;
}

// Trigger runtime counts time-driven, event-driven and simple triggers alike.
function isTrigger(ex: Charged): boolean {
  return ex.kind === 'trigger' || ex.kind === 'simple';
}

// Whose quotas an execution spends: its effective user, the one the script runs as (a trigger's owner, the
// deployer of a web app run as "me"), which is ExecContext.owner.
function payer(ex: Charged): string {
  return ex.owner;
}

export interface QuotaSnapshot {
  window: [string, QuotaUsage][];
  totals: [string, QuotaUsage][];
  created?: [string, { windowStart: number; count: number }][];
}

export class QuotaLedger {
  readonly limits: DailyLimits;
  private readonly window = new Map<string, QuotaUsage>();
  // Everything ever charged, never reset: a bench diffs these around a run whatever windows it crosses.
  private readonly sums = new Map<string, QuotaUsage>();
  // Spreadsheets created per user in their own 24-hour window (SpreadsheetApp.create).
  private readonly created = new Map<string, { windowStart: number; count: number }>();

  constructor(
    private readonly now: () => number,
    readonly account: AccountType = 'consumer',
  ) {
    this.limits = DAILY_LIMITS[account];
  }

  // The user's use in the current 24-hour window (all zero when no window is open).
  usage(user: string): QuotaUsage {
    const u = this.open(user);
    return u ? { ...u } : zero(null);
  }

  // The user's use since the runtime was created.
  totals(user: string): QuotaUsage {
    return { ...(this.sums.get(user) ?? zero(null)) };
  }

  private open(user: string): QuotaUsage | undefined {
    const u = this.window.get(user);
    return u && u.windowStart !== null && this.now() < u.windowStart + QUOTA_WINDOW_MS ? u : undefined;
  }

  // The user's window, opened by this charge if none is.
  private current(user: string): QuotaUsage {
    let u = this.open(user);
    if (!u) this.window.set(user, (u = zero(this.now())));
    return u;
  }

  private add(user: string, key: keyof Omit<QuotaUsage, 'windowStart'>, amount: number): void {
    this.current(user)[key] += amount;
    let t = this.sums.get(user);
    if (!t) this.sums.set(user, (t = zero(null)));
    t[key] += amount;
  }

  // Counted quotas refuse the call that would pass the limit.
  private wouldPass(user: string, key: 'urlFetches' | 'propertiesCalls', more: number): boolean {
    return (this.open(user)?.[key] ?? 0) + more > this.limits[key];
  }

  // Runtime is known only once spent: the first call after the limit is reached is refused.
  private outOfTime(user: string): boolean {
    return (this.open(user)?.triggerSeconds ?? 0) >= this.limits.triggerSeconds;
  }

  // An execution about to start: a trigger whose owner has spent the day's runtime does not run; otherwise the
  // start (`seconds`, its modelled cost) is charged. Returns Apps Script's message when refused.
  start(ex: Charged, seconds: number): string | null {
    if (!isTrigger(ex)) return null;
    const user = payer(ex);
    if (this.outOfTime(user)) return QUOTA_MESSAGES.triggerSeconds;
    this.add(user, 'triggerExecutions', 1);
    this.add(user, 'triggerSeconds', seconds);
    return null;
  }

  // One service call (`n` requests for a fetch, `n` properties for setProperties) that takes `seconds` on the execution's clock: refused with
  // QuotaError when it would pass a limit, else charged.
  charge(ex: Charged, op: ServiceOp, n: number, seconds: number): void {
    const user = payer(ex);
    if (isTrigger(ex) && this.outOfTime(user)) throw new QuotaError(QUOTA_MESSAGES.triggerSeconds);
    if (op === 'fetch') {
      if (this.wouldPass(user, 'urlFetches', n)) throw new QuotaError(QUOTA_MESSAGES.urlFetches);
      this.add(user, 'urlFetches', n);
    } else if (op.startsWith('props.')) {
      if (this.wouldPass(user, 'propertiesCalls', n)) throw new QuotaError(QUOTA_MESSAGES.propertiesCalls);
      this.add(user, 'propertiesCalls', n);
    }
    if (isTrigger(ex)) this.add(user, 'triggerSeconds', seconds);
  }

  // SpreadsheetApp.create: refused once the user has created the day's allowance, else counted.
  chargeCreate(ex: Charged): void {
    const user = payer(ex);
    let c = this.created.get(user);
    if (!c || this.now() >= c.windowStart + QUOTA_WINDOW_MS)
      this.created.set(user, (c = { windowStart: this.now(), count: 0 }));
    if (c.count + 1 > SPREADSHEETS_CREATED_PER_DAY[this.account])
      throw new QuotaError(QUOTA_MESSAGES.spreadsheetsCreated);
    c.count++;
  }

  // Spreadsheets the user created in their current window.
  spreadsheetsCreated(user: string): number {
    const c = this.created.get(user);
    return c && this.now() < c.windowStart + QUOTA_WINDOW_MS ? c.count : 0;
  }

  // Time an execution spent waiting (a fetch's answers, a lock, Utilities.sleep), real or modelled.
  chargeWait(ex: Charged, seconds: number): void {
    if (isTrigger(ex) && seconds > 0) this.add(payer(ex), 'triggerSeconds', seconds);
  }

  // Quota use is state an execution changes, so a replayed start (Runtime.snapshot/restore) replays it too.
  snapshot(): QuotaSnapshot {
    const copy = (m: Map<string, QuotaUsage>) => [...m].map(([k, u]) => [k, { ...u }] as [string, QuotaUsage]);
    return {
      window: copy(this.window),
      totals: copy(this.sums),
      created: [...this.created].map(([k, c]) => [k, { ...c }] as [string, { windowStart: number; count: number }]),
    };
  }

  restore(s: QuotaSnapshot): void {
    this.window.clear();
    this.sums.clear();
    for (const [k, u] of s.window) this.window.set(k, { ...u });
    for (const [k, u] of s.totals) this.sums.set(k, { ...u });
    this.created.clear();
    for (const [k, c] of s.created ?? []) this.created.set(k, { ...c });
  }
}
