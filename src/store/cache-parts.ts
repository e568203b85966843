// Tabs kept in CacheService in parts, and one getAll per execution that brings every configuration tab's parts.
import { CONFIG_TABS, type TabKey } from '../../sheets-schema/index.js';
import { configCacheName } from './config-version.js';
import { decodeConfigRows, encodeConfigRows, splitForCache } from './store-format.js';
import { ports } from '../ports.js';

// A tab is cached in parts of at most 30,000 UTF-16 units (≤ 90 KB of UTF-8 each, under the 100 KB a cache value may
// hold), at most 8 parts; a larger tab is read from the sheet every execution.
const PART_UNITS = 30_000;
const MAX_PARTS = 8;

// The data tabs cached beside the configuration (KPI: its own version and a bounded age, kpi-cache.ts).
const FETCHED_WITH_CONFIG: readonly TabKey[] = ['kpi'];

function partNames(name: string): string[] {
  return Array.from({ length: MAX_PARTS }, (_, i) => `${name}:${i}`);
}

// What one execution's store has fetched from the cache. A request reads Settings, Members, Agents, Prompts,
// Directives and the KPI tab one after another: the first read fetches all of their parts in one getAll (one cache
// read instead of six). A tab's cache name carries its version, so a tab moved on since is a new name and is
// fetched again; an entry fetched here is as old as the execution at most, as a tab read once per execution is.
export class CachedTabs {
  private readonly fetched: Record<string, string> = {};
  private readonly asked = new Set<string>();

  read(name: string): unknown[][] | null {
    const names = partNames(name);
    if (!this.asked.has(name)) this.fetch([name, ...this.others(name)]);
    const head = this.fetched[names[0]];
    const count = head ? Number(head.slice(0, head.indexOf('|'))) : 0;
    // Part 0 starts with the number of parts, and every part must still be there.
    if (!(count > 0 && names.slice(1, count).every((n) => this.fetched[n] !== undefined))) return null;
    const text =
      head.slice(head.indexOf('|') + 1) +
      names
        .slice(1, count)
        .map((n) => this.fetched[n])
        .join('');
    return decodeConfigRows(text);
  }

  // A tab's rows put under a cache name, in parts, for `ttlS` seconds; a tab too large for the parts is not cached.
  put(name: string, rows: unknown[][], ttlS: number): void {
    const parts = splitForCache(encodeConfigRows(rows), PART_UNITS);
    if (parts.length > MAX_PARTS) return;
    const put: Record<string, string> = {};
    parts.forEach((p, i) => {
      put[`${name}:${i}`] = i === 0 ? `${parts.length}|${p}` : p;
    });
    ports().cache.putAll(put, ttlS);
  }

  // The other tabs' names not fetched yet, on the first read only: a later read fetches just its own.
  private others(name: string): string[] {
    if (this.asked.size) return [];
    return CONFIG_TABS.concat(FETCHED_WITH_CONFIG)
      .map((k) => configCacheName(k))
      .filter((n) => n !== name && !this.asked.has(n));
  }

  private fetch(names: string[]): void {
    const hit = ports().cache.getAll(names.flatMap(partNames));
    for (const n of names) {
      this.asked.add(n);
      for (const p of partNames(n)) {
        if (hit[p] !== undefined) this.fetched[p] = hit[p];
        else delete this.fetched[p];
      }
    }
  }
}
