// The per-token rate limit (SPEC §11): a CacheService counter per token hash and minute, no Sheets round trip.
import { scriptCache } from '../adapters/gas/services.js';
import { apiError, type ApiError } from '../core/api.js';

// Long enough to outlive its minute; the key names the minute, so an entry never counts for the next one.
const COUNTER_TTL_S = 120;

// CacheService has no atomic increment: two calls of one token in the same instant may both read the same count,
// so under a burst of truly simultaneous calls a few more than the limit can pass. The limit is a guard against
// runaway clients, not an accounting, and a lock would cost every call far more than it protects.
// Counts this call against its token's minute; the answer to give instead when the token is over its rate.
export function admitCall(tokenHash: string, perMinute: number, now = Date.now()): ApiError | null {
  const minute = Math.floor(now / 60000);
  const key = `kaigi:rate:${tokenHash.slice(0, 40)}:${minute}`;
  const cache = scriptCache;
  const count = Number(cache.get(key) || 0);
  if (count >= perMinute) {
    const retry = Math.max(1, Math.ceil(((minute + 1) * 60000 - now) / 1000));
    return apiError(429, 'rate_limited', `More than ${perMinute} calls a minute with this token; retry later.`, {
      retry_after_seconds: retry,
      limit_per_minute: perMinute,
    });
  }
  cache.put(key, String(count + 1), COUNTER_TTL_S);
  return null;
}
