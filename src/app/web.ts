// doGet/doPost: the router over the route registry, with the token list from Script Properties and JSON answers.
import { sha256Hex } from '../adapters/gas/crypto.js';
import { scriptZone } from '../adapters/gas/records.js';
import { jsonOutput, props } from '../adapters/gas/services.js';
import { openBound } from '../adapters/gas/spreadsheet.js';
import { Store } from '../adapters/gas/store.js';
import { type ApiError, constantTimeEqual, type Method, parseTokenList } from '../core/api.js';
import { ConfigError } from '../core/errors.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { configNotice, Notices } from './notices.js';
import { OPERATIONS } from './routes/registry.js';
import type { Caller } from './routes/route.js';
import { routeRequest } from './routes/router.js';

const TOKENS_PROPERTY = PROPERTY_KEYS.apiTokens;

// The caller a token belongs to; a token list that cannot be read throws a ConfigError naming the property.
function authenticate(token: string | undefined): Caller | null {
  if (!token) return null;
  const list = parseTokenList(props.get(TOKENS_PROPERTY), TOKENS_PROPERTY);
  const hash = sha256Hex(token);
  let found: Caller | null = null;
  // Every entry is compared, so the time taken does not say which one matched.
  for (const t of list) if (constantTimeEqual(t.hash, hash)) found = { name: t.name, role: t.role };
  return found;
}

// Configuration that stops requests is told to a person once in the Inbox; if even that fails, the client's
// answer says so, so the problem is never only in a log nobody reads.
function tellConfigProblem(e: unknown, answer: ApiError): void {
  if (!(e instanceof ConfigError)) return;
  try {
    new Notices(new Store(openBound(), scriptZone())).tell(configNotice(e));
  } catch (err) {
    const details = (answer.error.details ?? {}) as Record<string, unknown>;
    answer.error.details = { ...details, notice: `No person could be told: ${(err as Error).message}` };
  }
}

export function handleWeb(
  method: Method,
  e: GoogleAppsScript.Events.DoGet | GoogleAppsScript.Events.DoPost,
): GoogleAppsScript.Content.TextOutput {
  const contents = method === 'POST' ? (e as GoogleAppsScript.Events.DoPost).postData?.contents : undefined;
  return jsonOutput(
    routeRequest(
      { method, parameter: e.parameter as Record<string, string>, contents },
      { operations: OPERATIONS, authenticate, onError: tellConfigProblem },
    ),
  );
}
