// doGet/doPost: the router over the route registry, with the token list and limits from the cached gate
// (api-env.ts), an API log row per authenticated call (left in the inbox for a tick to append), a CacheService count
// per refused one, and JSON answers.
import { sha256Hex } from '../../store/crypto.js';
import { scriptZone } from '../../store/records.js';
import { openBound } from '../../store/spreadsheet.js';
import { Store } from '../../store/store.js';
import { leaveRow } from '../../store/api-log-inbox.js';
import { withPropertySnapshot } from '../../store/property-reads.js';
import { countUnauthorized } from '../../store/unauthorized-cache.js';
import { type ApiError, constantTimeEqual, type Method } from '../../core/api/api.js';
import { BusyError, ConfigError } from '../../core/errors.js';
import { apiCouncil, apiSettings, beginApiCall, gate, isSetUp } from './api-env.js';
import { admitCall } from './api-limits.js';
import { writeApiLog } from './api-log.js';
import { mcpHandler } from '../mcp/index.js';
import { configNotice, Notices } from '../notices.js';
import { OPERATIONS } from '../routes/registry.js';
import type { Caller } from '../routes/route.js';
import { type Body, type CallInfo, routeRequest } from '../routes/router.js';
import { ownTaskStep, workOwnTask } from '../queue/work-now.js';
import type { Claimed } from '../queue/work-queue.js';
import { ports } from '../../ports.js';

// The caller a token belongs to, with the token's hash (the rate limit's key); a token list that cannot be read
// throws a ConfigError naming the property.
// No Script Property is read while the gate is cached, so a flood of bad tokens costs CacheService calls only.
function authenticate(token: string | undefined): { caller: Caller; hash: string } | null {
  if (!token) return null;
  const list = gate().tokens;
  const hash = sha256Hex(token);
  let found: Caller | null = null;
  // Every entry is compared, so the time taken does not say which one matched.
  for (const t of list) if (constantTimeEqual(t.hash, hash)) found = { name: t.name, role: t.role };
  return found ? { caller: found, hash } : null;
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

// Rows waiting past api.log_waiting_rows are appended by this call only if the script lock is free at once. The
// call's own row is safe in the inbox already, so when the lock is busy (a tick committing, other calls writing) the
// rows wait for the next drain: a call never waits up to 30 s for housekeeping, nor says its row was not recorded,
// and under load the callers do not all queue for the lock behind one another to drain the same rows.
function drainIfFree(): void {
  try {
    writeApiLog(apiCouncil().store, null, {
      digestRows: apiSettings().number('api.log_digest_rows'),
      drain: true,
      lockWaitMs: 0,
    });
  } catch (e) {
    if (!(e instanceof BusyError)) throw e;
  }
}

// The call's row in the API log. Before set-up there is no tab to write to. The row waits in the inbox (one Script
// Property of its own, no lock, no Sheets call) for the next tick; the call that finds more than
// api.log_waiting_rows waiting appends them itself if the lock is free (drainIfFree). A row the inbox refused is
// appended at once, as every row was before the inbox; a row that cannot be written at all is told to a person once
// (the call itself is done, so its answer stands), and the answer says it was not logged.
// A call whose token was missing or bad (no client) is only counted, per minute and route or tool, in
// CacheService: no row, no lock, no property; its minute's summary row is written later by a drain (api-log.ts).
function logCall(answer: Body | ApiError, info: CallInfo, started: number): void {
  if (!info.client) {
    countUnauthorized(info.call, started);
    return;
  }
  if (!isSetUp()) return;
  const entry = { time: started, ...info, ms: ports().clock.now() - started };
  try {
    let waiting: number;
    try {
      waiting = leaveRow(entry);
    } catch (inboxError) {
      writeApiLog(apiCouncil().store, entry, { digestRows: apiSettings().number('api.log_digest_rows') });
      (answer as Body).api_log = `appended at once: the inbox refused the row (${(inboxError as Error).message})`;
      return;
    }
    if (waiting >= gate().log_waiting_rows) drainIfFree();
  } catch (e) {
    const why = (e as Error).message;
    const out = answer as Body;
    out.api_log = `not recorded: ${why}`;
    try {
      new Notices(apiCouncil().store).tell({
        key: 'api_log',
        condition: why,
        title: 'API calls are not being logged',
        body: `A web API call could not be written to the API Log tab: ${why}`,
      });
    } catch (err) {
      out.api_log = `${out.api_log}; no person could be told: ${(err as Error).message}`;
    }
  }
}

// The answer's body; the composition root serves it as JSON (gas/json-output.ts).
export function handleWeb(
  method: Method,
  e: GoogleAppsScript.Events.DoGet | GoogleAppsScript.Events.DoPost,
): ReturnType<typeof answerWeb> {
  const contents = method === 'POST' ? (e as GoogleAppsScript.Events.DoPost).postData?.contents : undefined;
  return answerWeb(method, e.parameter as Record<string, string>, contents);
}

// The answer to one web API call as a body, before Apps Script wraps it as JSON: what an in-process test calls.
export function answerWeb(
  method: Method,
  parameter: Record<string, string>,
  contents: string | undefined,
): ReturnType<typeof routeRequest> {
  const started = ports().clock.now();
  beginApiCall();
  let hash = '';
  let done: CallInfo = { client: '', call: `${method} (no route)`, status: 500, code: 'internal' };
  // Every Script Property the call reads before it takes the lock or writes one, in one read (property-reads.ts).
  const answer = withPropertySnapshot(() =>
    routeRequest(
      { method, parameter, contents },
      {
        operations: OPERATIONS,
        workOwnTask: (task, wait, claimed) => workOwnTask(apiCouncil(), task, wait, claimed as Claimed | undefined),
        ownTaskStep: (wait) => ownTaskStep(apiCouncil(), wait),
        authenticate: (token) => {
          const found = authenticate(token);
          hash = found ? found.hash : '';
          return found ? found.caller : null;
        },
        maxBodyBytes: () => gate().max_body_bytes,
        admit: () => admitCall(hash, gate().rate_limit_per_minute),
        onError: tellConfigProblem,
        mcp: mcpHandler(tellConfigProblem),
        onDone: (info) => {
          done = info;
        },
      },
    ),
  );
  logCall(answer, done, started);
  return answer;
}
