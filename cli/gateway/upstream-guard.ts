// What `kaigi gateway` lets its clients make the web app do: at most --max-upstream calls in flight (the others wait
// their turn, in order), and a token the web app refused (401 unauthorized) refused here, without asking it again, for
// --refused-token-seconds. A refusal is kept under the token's SHA-256, never the token, and forgotten when it expires.
import { createHash } from 'node:crypto';
import { callWebApp, isObject, type Json, type WebAppCall } from './upstream.js';

export interface GuardOptions {
  // Calls to the web app at once (Apps Script runs at most 30 executions of a script at once, for every client).
  maxInFlight: number;
  // How long a refused token stays refused here.
  refusedMs: number;
  // --timeout: how long one call may take (upstream.ts's default when not given).
  timeoutMs?: number;
}

// Refusals kept at most, so a flood of made-up tokens cannot grow the gateway's memory without end: past it, the
// oldest is forgotten first (its token is then asked about again, at the web app's cost of one execution).
const MAX_REFUSALS = 10_000;

// A counting semaphore whose waiters are served in the order they came.
class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.busy < this.size) this.busy++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter, so no newcomer can take it in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
}

// The token a call carries to the web app: in a POST's body, or a GET's query (where the gateway or the client put it).
function tokenOf(call: WebAppCall): string {
  if (call.body && typeof call.body.token === 'string') return call.body.token;
  return call.query?.get('token') ?? '';
}

const keyOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

// The web app's answer to a token it does not know (src/app/routes/router.ts).
const isRefusal = (body: Json) => body.status === 401 && isObject(body.error) && body.error.code === 'unauthorized';

export class UpstreamGuard {
  private readonly slots: Slots;
  // SHA-256 of a refused token → when its refusal expires (ms); in the order they were refused.
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly exec: URL,
    private readonly o: GuardOptions,
  ) {
    this.slots = new Slots(o.maxInFlight);
  }

  // One call to the web app, or the answer the web app gave this token when it refused it.
  async call(call: WebAppCall): Promise<{ httpStatus: number; body: Json }> {
    const token = tokenOf(call);
    const key = token ? keyOf(token) : '';
    const early = this.refusal(key);
    if (early) return early;
    return this.slots.run(async () => {
      // A call that waited for its slot may find its token refused meanwhile (the rest of a batch sent with it).
      const late = this.refusal(key);
      if (late) return late;
      const answer = await callWebApp(this.exec, { ...call, timeoutMs: call.timeoutMs ?? this.o.timeoutMs });
      if (key && isRefusal(answer.body)) this.remember(key);
      return answer;
    });
  }

  // The 401 to answer for a token refused less than --refused-token-seconds ago, or null.
  private refusal(key: string): { httpStatus: number; body: Json } | null {
    if (!key) return null;
    const until = this.refused.get(key);
    if (until === undefined) return null;
    const left = until - Date.now();
    if (left <= 0) {
      this.refused.delete(key);
      return null;
    }
    return {
      httpStatus: 200,
      body: {
        status: 401,
        error: {
          code: 'unauthorized',
          message: 'A valid API token is required.',
          details: { refused_by: 'gateway', asked_again_in_seconds: Math.ceil(left / 1000) },
        },
      },
    };
  }

  private remember(key: string): void {
    this.refused.delete(key);
    this.refused.set(key, Date.now() + this.o.refusedMs);
    for (const oldest of this.refused.keys()) {
      if (this.refused.size <= MAX_REFUSALS) break;
      this.refused.delete(oldest);
    }
  }
}
