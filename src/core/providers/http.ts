// A model provider over HTTP: one parallel round per phase, retries, one repair call, usage, and no key in any text.
import { LEARNING_SCHEMA, validateContent } from '../messages.js';
import type { AgentRequest, AgentResponse, Provider } from '../provider.js';
import { dropNulls, schemaFor, schemaName } from './schema.js';
import { retryable, retryDelayMs, type Call, type VendorModule, type WireRequest } from './vendors.js';

export interface HttpResult {
  code: number;
  headers: Record<string, string>;
  body: string;
  error?: string;
}

// The transport, injected: in Apps Script it is UrlFetchApp.fetchAll; it never throws for one bad request.
export interface HttpPort {
  fetchAll(requests: WireRequest[]): HttpResult[];
}

export interface Clock {
  now(): number;
  sleep(ms: number): void;
  random(): number;
}

export interface HttpOptions {
  // The vendor's module: its wire format builds each request and reads each answer.
  vendor: VendorModule;
  model: string;
  key: string;
  baseUrl: string;
  maxAttempts: number;
  baseSeconds: number;
  jitterMs: number;
  parallel: boolean;
  // No wait may end after this instant; the work is re-queued instead.
  deadline: number;
}

// A retry wait would outlast the execution: the step is given back to the queue instead of sleeping.
import { RequeueError } from '../errors.js';

interface Pending {
  req: AgentRequest;
  call: Call;
  attempts: number;
  tokensIn: number;
  tokensOut: number;
  started: number;
  waitUntil: number;
  repaired: boolean;
  result?: AgentResponse;
}

// The request for one call: the schema in the vendor's dialect, the base URL from Settings or the vendor's own.
function buildRequest(vendor: VendorModule, call: Call, key: string, baseUrl: string): WireRequest {
  const r = call.req;
  const schema = schemaFor(r.expect, vendor.wire, r.context.allowList);
  return vendor.wire.build(
    { ...call, schema, schemaName: schemaName(r.expect) },
    key,
    baseUrl || vendor.defaultBaseUrl,
  );
}

export function redact(text: string, secret: string): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}

export function validationErrors(req: AgentRequest, content: unknown): string | null {
  try {
    if (req.expect === 'LEARNING') {
      const r = LEARNING_SCHEMA.safeParse(content);
      return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    }
    if (req.expect === 'DECISION') {
      const c = content as { deliberation?: unknown; order?: unknown };
      validateContent('DECISION_DELIBERATION', c?.deliberation, req.context.allowList);
      validateContent('EXECUTION_ORDER', c?.order, req.context.allowList);
    } else validateContent(req.expect, content, req.context.allowList);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

export class HttpProvider implements Provider {
  readonly name: string;
  constructor(
    private readonly o: HttpOptions,
    private readonly http: HttpPort,
    private readonly clock: Clock,
  ) {
    this.name = o.vendor.name;
  }

  setDeadline(t: number): void {
    this.o.deadline = t;
  }

  private fail(p: Pending, code: string, message: string): void {
    p.result = {
      key: p.req.key,
      ok: false,
      model: `${this.o.vendor.name}:${this.o.model}`,
      tokensIn: p.tokensIn,
      tokensOut: p.tokensOut,
      ms: this.clock.now() - p.started,
      attempts: p.attempts,
      error: { code, message: redact(message, this.o.key).slice(0, 1000) },
    };
  }

  respond(requests: AgentRequest[]): AgentResponse[] {
    const now = this.clock.now();
    const all: Pending[] = requests.map((req) => ({
      req,
      call: { req, model: this.o.model },
      attempts: 0,
      tokensIn: 0,
      tokensOut: 0,
      started: now,
      waitUntil: 0,
      repaired: false,
    }));
    for (;;) {
      const open = all.filter((p) => !p.result);
      if (!open.length) break;
      const wait = Math.max(0, ...open.map((p) => p.waitUntil)) - this.clock.now();
      if (wait > 0) {
        if (this.clock.now() + wait > this.o.deadline)
          throw new RequeueError(
            `a retry wait of ${Math.round(wait)} ms would pass the execution's time budget`,
            this.clock.now() + wait,
          );
        this.clock.sleep(wait);
      }
      const wires = open.map((p) => buildRequest(this.o.vendor, p.call, this.o.key, this.o.baseUrl));
      const results = this.o.parallel ? this.http.fetchAll(wires) : wires.map((w) => this.http.fetchAll([w])[0]);
      open.forEach((p, i) => this.handle(p, results[i]));
    }
    return all.map((p) => p.result!);
  }

  private handle(p: Pending, res: HttpResult): void {
    p.attempts++;
    const body = redact(res.body ?? '', this.o.key);
    if (res.error || retryable(res.code)) {
      const why = res.error ? redact(res.error, this.o.key) : `HTTP ${res.code}: ${body.slice(0, 300)}`;
      if (p.attempts >= this.o.maxAttempts) {
        this.fail(p, res.error ? 'network' : `http_${res.code}`, `${why} (after ${p.attempts} attempts)`);
        return;
      }
      const retryAfter = res.headers['Retry-After'] ?? res.headers['retry-after'];
      p.waitUntil =
        this.clock.now() +
        retryDelayMs(
          p.attempts,
          retryAfter,
          this.o.baseSeconds,
          this.o.jitterMs,
          this.clock.random(),
          this.clock.now(),
        );
      return;
    }
    p.waitUntil = 0;
    if (res.code < 200 || res.code >= 300) {
      this.fail(p, `http_${res.code}`, `HTTP ${res.code}: ${body.slice(0, 300)}`);
      return;
    }
    const parsed = this.o.vendor.wire.parse(body);
    p.tokensIn += parsed.tokensIn;
    p.tokensOut += parsed.tokensOut;
    let problem = parsed.error ?? null;
    let content: unknown;
    if (!problem) {
      try {
        content = dropNulls(JSON.parse(parsed.text!));
        problem = validationErrors(p.req, content);
      } catch (e) {
        problem = `the answer is not valid JSON: ${(e as Error).message}`;
      }
    }
    if (!problem) {
      p.result = {
        key: p.req.key,
        ok: true,
        content,
        model: `${this.o.vendor.name}:${this.o.model}`,
        tokensIn: p.tokensIn,
        tokensOut: p.tokensOut,
        ms: this.clock.now() - p.started,
        attempts: p.attempts,
        repaired: p.repaired,
      };
      return;
    }
    // One repair call carrying the validation errors; a second failure goes down the fallback ladder.
    if (!p.repaired && parsed.text !== undefined) {
      p.repaired = true;
      p.call = { ...p.call, repair: { previous: parsed.text.slice(0, 20000), errors: problem.slice(0, 2000) } };
      return;
    }
    this.fail(p, 'invalid_output', problem);
  }
}
