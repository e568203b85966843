// CacheService's store: 100 KB per value, TTL at most 6 h (default 10 min), 1,000 items, evicted oldest-put first.
import { utf8Length } from './bytes.js';
import { QuotaError } from './properties-store.js';

const MAX_CACHE_VALUE_BYTES = 100 * 1024;
const MAX_CACHE_KEY_CHARS = 250;
const MAX_CACHE_TTL_S = 21600;
const DEFAULT_CACHE_TTL_S = 600;
const MAX_CACHE_ITEMS = 1000;
// Apps Script evicts by creation time, not by use, and in batches: a cache filled past 1,000 items was measured to
// lose about 100 of its oldest at once (J. Poehnelt, "Exploring Apps Script CacheService Limits"). Google documents
// neither, so the runtime takes that reading, the harsher one: a value read a moment ago goes first if it was put
// first, and a full cache drops a tenth of its cap, not just the one item over it.
const EVICTION_BATCH = 100;

export interface Entry {
  value: string;
  expiresAt: number;
}

// Google: a cached value is "not guaranteed to persist until its expiration time… be prepared to get back null from
// all reads". With a rate above 0, each read of a live entry loses it first with that chance, from a seeded draw, so
// a run takes every early-miss path and the same seed takes the same ones. Shared by every cache of a runtime.
export class EarlyMisses {
  // How many entries were dropped early so far.
  injected = 0;
  private draws = 0;

  constructor(
    readonly rate = 0,
    private readonly seed = 1,
  ) {}

  strikes(): boolean {
    if (this.rate <= 0) return false;
    let t = (this.seed ^ Math.imul(++this.draws, 0x9e3779b1)) >>> 0;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const hit = ((t ^ (t >>> 14)) >>> 0) / 4294967296 < this.rate;
    if (hit) this.injected++;
    return hit;
  }
}

export class CacheStore {
  // Map iteration order is put order: a put (of a new key or over an old one) goes to the end; a read moves nothing.
  private readonly items = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly misses: EarlyMisses = new EarlyMisses(),
  ) {}

  private live(key: string): Entry | undefined {
    const e = this.items.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now() || this.misses.strikes()) {
      this.items.delete(key);
      return undefined;
    }
    return e;
  }

  get(key: string): string | null {
    const e = this.live(key);
    return e ? e.value : null;
  }

  put(entries: Record<string, string>, ttlSeconds = DEFAULT_CACHE_TTL_S): void {
    if (!(ttlSeconds >= 1) || ttlSeconds > MAX_CACHE_TTL_S) {
      // Uncertain whether Apps Script caps or rejects a longer TTL; the stricter reading rejects it.
      throw new QuotaError('Invalid argument: expirationInSeconds');
    }
    for (const [k, v] of Object.entries(entries)) {
      if (k.length > MAX_CACHE_KEY_CHARS) throw new QuotaError('Argument too large: key');
      if (utf8Length(String(v)) > MAX_CACHE_VALUE_BYTES) throw new QuotaError('Argument too large: value');
    }
    for (const [k, v] of Object.entries(entries)) {
      this.items.delete(k);
      this.items.set(k, { value: String(v), expiresAt: this.now() + ttlSeconds * 1000 });
    }
    if (this.items.size <= MAX_CACHE_ITEMS) return;
    // Whole batches of the oldest puts, expired or not, until the cache is back within its cap.
    const over = this.items.size - MAX_CACHE_ITEMS;
    const drop = Math.ceil(over / EVICTION_BATCH) * EVICTION_BATCH;
    let n = 0;
    for (const k of [...this.items.keys()]) {
      if (n++ >= drop) break;
      this.items.delete(k);
    }
  }

  remove(keys: string[]): void {
    for (const k of keys) this.items.delete(k);
  }

  dump(): [string, Entry][] {
    return [...this.items].map(([k, e]) => [k, { ...e }]);
  }

  load(entries: [string, Entry][]): void {
    this.items.clear();
    for (const [k, e] of entries) this.items.set(k, { ...e });
  }

  size(): number {
    return this.items.size;
  }
}
