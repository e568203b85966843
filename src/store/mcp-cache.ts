// The MCP server's replayed answers in CacheService's script cache (100 KB a value, in bytes; at most 6 hours).
import { utf8Bytes } from '../core/api/api.js';
import { ports } from '../ports.js';

const MAX_VALUE_BYTES = 100 * 1024;
const MAX_SECONDS = 21600;

export const mcpCache = {
  get(key: string): string | null {
    return ports().cache.get(key);
  },
  // An answer larger than a cache value is not kept (false): the call's requestKey still lets its operation dedupe.
  put(key: string, value: string, seconds: number): boolean {
    if (utf8Bytes(value) > MAX_VALUE_BYTES) return false;
    ports().cache.put(key, value, Math.max(1, Math.min(MAX_SECONDS, Math.floor(seconds))));
    return true;
  },
  remove(key: string): void {
    ports().cache.remove(key);
  },
};
