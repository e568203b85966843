// The load bench's HTTP side: one call of the web app as a client makes it (POST follows Apps Script's 302 to the
// echo URL, as fetch does), timed on the real clock, and the tallies of every answer by kind and status.

// One answer: its kind (route pattern and purpose), the status in its body (Apps Script always answers HTTP 200),
// the error code, and the client-side time in real ms.
export interface Sample {
  kind: string;
  status: number;
  code: string;
  ms: number;
  // The answer says its API Log row could not be written (the call itself was done).
  unlogged: boolean;
}

export interface Answer {
  status: number;
  code: string;
  body: any;
}

// A request with no answer within this long is counted as a transport failure, not waited for.
const ANSWER_TIMEOUT_MS = 120_000;

// The status of an answer that never came (refused connection, reset, time-out) or was not the web app's JSON.
export const NO_ANSWER = 0;

export class HttpClient {
  readonly samples: Sample[] = [];
  // What the last answer asked the client to wait before calling again (details.retry_after_seconds), in ms.
  retryAfterMs = 0;

  constructor(
    private readonly exec: string,
    private readonly token: string,
  ) {}

  // GET with the token in the query (the only way Apps Script lets a GET carry it).
  get(kind: string, route: string, query: Record<string, string> = {}): Promise<Answer> {
    const q = new URLSearchParams({ path: route, ...query, token: this.token });
    return this.send(kind, `${this.exec}?${q}`, undefined);
  }

  // POST with the token in the JSON body; the route in the `path` parameter.
  post(kind: string, route: string, body: Record<string, unknown>): Promise<Answer> {
    const init: RequestInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: this.token, ...body }),
    };
    return this.send(kind, `${this.exec}?path=${encodeURIComponent(route)}`, init);
  }

  private async send(kind: string, url: string, init: RequestInit | undefined): Promise<Answer> {
    const t0 = performance.now();
    let answer: Answer;
    try {
      const res = await fetch(url, { ...init, redirect: 'follow', signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
      const text = await res.text();
      // The web app always answers 200; anything else came from the server itself (a crash, a proxy).
      if (res.status !== 200) answer = { status: res.status, code: `http_${res.status}`, body: null };
      else {
        const body = JSON.parse(text);
        answer = { status: Number(body?.status ?? NO_ANSWER), code: String(body?.error?.code ?? ''), body };
      }
    } catch (e) {
      answer = { status: NO_ANSWER, code: (e as Error).name === 'TimeoutError' ? 'timeout' : 'transport', body: null };
    }
    const unlogged = typeof answer.body?.api_log === 'string';
    this.retryAfterMs = Number(answer.body?.error?.details?.retry_after_seconds ?? 0) * 1000 || 0;
    this.samples.push({ kind, status: answer.status, code: answer.code, ms: performance.now() - t0, unlogged });
    return answer;
  }
}

// Nearest rank: the smallest sample with at least p of them at or below it.
export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.max(0, Math.ceil(p * s.length) - 1)]);
}

// 503: the script lock stayed held past the call's wait; nothing was done. The rooms protocol's name for it:
// FILE_LOCK_TIMEOUT.
const isLockTimeout = (s: { status: number; code: string }) =>
  s.status === 503 && (s.code === 'lock_timeout' || s.code === 'FILE_LOCK_TIMEOUT');

export interface Tally {
  requests: number;
  ok: number;
  // 5xx other than a lock time-out: the server failed.
  server_errors: number;
  lock_timeouts: number;
  // Of lock_timeouts, the rooms' FILE_LOCK_TIMEOUT (the rooms protocol's code; rooms wait 10 s for the lock, not 30 s).
  room_lock_timeouts: number;
  rate_limited: number;
  // No answer at all (connection refused or reset, or none within 2 minutes), or an answer that was not JSON.
  no_answer: number;
  // Answers that say their API Log row was not written (src/app/api/web.ts logCall).
  api_log_not_recorded: number;
  // Every other 4xx, by "status code".
  other_4xx: Record<string, number>;
  by_status: Record<string, number>;
  p50_ms: number;
  p95_ms: number;
  by_kind: Record<string, { requests: number; ok: number; lock_timeouts: number; p50_ms: number; p95_ms: number }>;
}

function latency(samples: Sample[]): { p50_ms: number; p95_ms: number } {
  const ms = samples.map((s) => s.ms);
  return { p50_ms: percentile(ms, 0.5), p95_ms: percentile(ms, 0.95) };
}

export function tally(samples: Sample[]): Tally {
  const out: Tally = {
    requests: samples.length,
    ok: 0,
    server_errors: 0,
    lock_timeouts: 0,
    room_lock_timeouts: 0,
    rate_limited: 0,
    no_answer: 0,
    api_log_not_recorded: samples.filter((s) => s.unlogged).length,
    other_4xx: {},
    by_status: {},
    ...latency(samples),
    by_kind: {},
  };
  const bump = (m: Record<string, number>, k: string) => {
    m[k] = (m[k] ?? 0) + 1;
  };
  for (const s of samples) {
    bump(out.by_status, String(s.status));
    if (s.status >= 200 && s.status < 300) out.ok++;
    else if (isLockTimeout(s)) {
      out.lock_timeouts++;
      if (s.code === 'FILE_LOCK_TIMEOUT') out.room_lock_timeouts++;
    } else if (s.status >= 500) out.server_errors++;
    else if (s.status === 429 && s.code === 'rate_limited') out.rate_limited++;
    else if (s.status >= 400) bump(out.other_4xx, `${s.status} ${s.code}`);
    else out.no_answer++;
  }
  const kinds = [...new Set(samples.map((s) => s.kind))].sort();
  for (const k of kinds) {
    const of = samples.filter((s) => s.kind === k);
    out.by_kind[k] = {
      requests: of.length,
      ok: of.filter((s) => s.status >= 200 && s.status < 300).length,
      lock_timeouts: of.filter(isLockTimeout).length,
      ...latency(of),
    };
  }
  return out;
}
