// The web app as the gateway and `kaigi mcp` reach it: one call to …/exec?path=P, Apps Script's 302 followed here,
// the JSON answer read; an unreachable, slow or HTML-answering web app is an UpstreamError with the status to answer
// (never the text of what it answered instead).
import { KaigiError } from '../../src/core/errors.js';

// An Apps Script execution may run 6 minutes; its answer then still has to come back.
const UPSTREAM_TIMEOUT_MS = 7 * 60_000;

// The web app could not be asked (502), did not answer in time (504), or answered something that is not JSON (502).
export class UpstreamError extends KaigiError {
  constructor(
    message: string,
    code: 'upstream_unreachable' | 'upstream_timeout' | 'upstream_not_json',
    readonly status: 502 | 504,
  ) {
    super(message, code);
  }
}

export type Json = Record<string, unknown>;

export interface WebAppCall {
  method: 'GET' | 'POST';
  // The route as a path (`/tasks/DISC-1`); it travels in the `path` parameter, since Apps Script cannot route by path.
  path: string;
  // Other query parameters, passed on as they came (`status=`, `limit=` …); a GET's token goes here too.
  query?: URLSearchParams;
  // A POST's JSON body (its token inside).
  body?: Json;
  timeoutMs?: number;
}

export const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

// EXEC_URL as given on the command line: http(s), and no `path` of its own (each call sets it).
export function execUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new KaigiError(`--url ${raw} is not a URL`, 'invalid_url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new KaigiError('--url must be an http or https URL', 'invalid_url');
  url.searchParams.delete('path');
  url.searchParams.delete('token');
  return url;
}

function urlFor(exec: URL, call: WebAppCall): string {
  const url = new URL(exec);
  url.searchParams.set('path', call.path);
  for (const [k, v] of call.query ?? []) if (k !== 'path') url.searchParams.append(k, v);
  return url.toString();
}

// What went wrong on the way, without the URL (a GET's query may hold a token).
function reasonOf(e: Error): string {
  const cause = e.cause as (Error & { code?: string }) | undefined;
  return cause?.code ?? cause?.message ?? e.message;
}

// One call; the parsed JSON answer. fetch follows the 302 to the echo URL as a GET, as a browser does.
export async function callWebApp(exec: URL, call: WebAppCall): Promise<{ httpStatus: number; body: Json }> {
  let res: Response;
  let text: string;
  const timeoutMs = call.timeoutMs ?? UPSTREAM_TIMEOUT_MS;
  try {
    res = await fetch(urlFor(exec, call), {
      method: call.method,
      headers: call.body ? { 'Content-Type': 'application/json' } : {},
      body: call.body ? JSON.stringify(call.body) : undefined,
      redirect: 'follow',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (e) {
    const err = e as Error;
    if (err.name === 'TimeoutError')
      throw new UpstreamError(`The web app did not answer within ${timeoutMs / 1000} s.`, 'upstream_timeout', 504);
    throw new UpstreamError(`The web app could not be reached (${reasonOf(err)}).`, 'upstream_unreachable', 502);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // A sign-in page, Apps Script's error page, or a 404 of Google's. Its text is never passed on: a script's crash
    // may quote what the request sent (a parameter, a body, a token), and the client should not get that back from
    // a server it does not run. The owner finds the execution's error in Apps Script's log.
    const page = (res.headers.get('content-type') ?? '').indexOf('html') >= 0;
    throw new UpstreamError(
      `The web app answered HTTP ${res.status} with ${page ? 'an HTML page (an error or sign-in page)' : 'a body that is not JSON'} instead of JSON.`,
      'upstream_not_json',
      502,
    );
  }
  if (!isObject(body))
    throw new UpstreamError(
      `The web app answered HTTP ${res.status} with JSON that is not an object.`,
      'upstream_not_json',
      502,
    );
  return { httpStatus: res.status, body };
}
