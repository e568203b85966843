// A model provider over HTTP: one parallel round per phase, retries, one repair call, usage, and no key in any text.
import { answerErrors } from '../discussion/messages.js';
import type { AgentRequest, AgentResponse, Provider, TokenUsage } from '../provider.js';
import { addUsage } from './usage.js';
import {
  capabilityOf,
  DEFAULT_CAPABILITIES,
  DEFAULT_OUTPUT_CAPS,
  outputCap,
  type Capability,
  type ModelCapability,
} from './model-table.js';
import { dropNulls, schemaFor, schemaName } from './schema.js';
import {
  briefText,
  retryable,
  retryDelayMs,
  retryInfoMs,
  type Call,
  type VendorModule,
  type WireRequest,
} from './vendors.js';
import { estimateTokens } from '../prompts/tokens.js';

export interface HttpResult {
  code: number;
  headers: Record<string, string>;
  body: string;
  error?: string;
  // The call failed as a whole (Apps Script's fetchAll throws on one request's network error and every answer is
  // lost): this request's own outcome is unknown. Never set when the call held this request alone.
  lost?: boolean;
}

// The transport, injected: in Apps Script it is UrlFetchApp.fetchAll. It never throws for one bad request: a failed
// call gives every request an `error` (and `lost` when the call held more than one).
export interface HttpPort {
  fetchAll(requests: WireRequest[]): HttpResult[];
}

// Apps Script gives every UrlFetchApp request a fixed 60 s, and a fetchAll's requests run in parallel, so one round
// of calls ends within this.
export const FETCH_LIMIT_MS = 60_000;

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
  // Requests in one fetchAll: Apps Script runs only so many at once (about 10–20 observed), so a bigger round is
  // sent as several, each a round of its own against the deadline.
  concurrency?: number;
  // No wait and no round of calls may end after this instant; the work is re-queued instead.
  deadline: number;
  // Settings provider.model_capabilities and provider.max_output_tokens; absent: their defaults.
  capabilities?: Record<string, ModelCapability>;
  outputCaps?: Record<string, number>;
}

// A retry wait or a round of calls would outlast the execution: the step goes back to the queue instead.
import { RequeueError } from '../errors.js';

interface Pending {
  req: AgentRequest;
  call: Call;
  attempts: number;
  // Everything the request's calls used, the parts priced apart included.
  usage: TokenUsage;
  started: number;
  waitUntil: number;
  repaired: boolean;
  // The answer was cut at its cap once and asked again with twice the cap and the brevity line.
  lengthened: boolean;
  // The request as last sent: a lost call's prompt is counted from it, not built again.
  sent?: WireRequest;
  result?: AgentResponse;
}

// The request for one call: the schema in the vendor's dialect, the base URL from Settings or the vendor's own.
function buildRequest(vendor: VendorModule, call: Call, key: string, baseUrl: string): WireRequest {
  const r = call.req;
  const metrics = r.context.metrics ?? [];
  const schema = schemaFor(r.expect, vendor.wire, r.context.allowList, metrics);
  const kinds = (r.round ?? []).filter((k, i, all) => k !== r.expect && all.indexOf(k) === i).concat([r.expect]);
  const round = kinds
    .map((k) => ({
      name: schemaName(k),
      expect: k,
      schema: k === r.expect ? schema : schemaFor(k, vendor.wire, r.context.allowList, metrics),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return vendor.wire.build(
    { ...call, schema, schemaName: schemaName(r.expect), round },
    key,
    baseUrl || vendor.defaultBaseUrl,
  );
}

export function redact(text: string, secret: string): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}

// Why an answer cannot be used, or null: the same zod schema its JSON Schema was generated from.
export function validationErrors(req: AgentRequest, content: unknown): string | null {
  return answerErrors(req.expect, content, req.context.allowList, req.context.metrics ?? []);
}

export class HttpProvider implements Provider {
  readonly name: string;
  private readonly capability: Capability;
  constructor(
    private readonly o: HttpOptions,
    private readonly http: HttpPort,
    private readonly clock: Clock,
  ) {
    this.name = o.vendor.name;
    this.capability = capabilityOf(o.capabilities ?? DEFAULT_CAPABILITIES, o.vendor.name, o.model);
  }

  // Every request carries an output cap: the agent's, plus what this model may spend thinking first.
  private call(req: AgentRequest, roundSize: number): Call {
    const cap = outputCap(req.agent, req.expect, this.o.outputCaps ?? DEFAULT_OUTPUT_CAPS);
    return {
      req,
      roundSize,
      model: this.o.model,
      maxTokens: cap + this.capability.reasoning_tokens,
      capability: this.capability,
    };
  }

  setDeadline(t: number): void {
    this.o.deadline = t;
  }

  private fail(p: Pending, code: string, message: string): void {
    p.result = {
      key: p.req.key,
      ok: false,
      model: `${this.o.vendor.name}:${this.o.model}`,
      ...p.usage,
      ms: this.clock.now() - p.started,
      attempts: p.attempts,
      error: { code, message: redact(message, this.o.key).slice(0, 1000) },
    };
  }

  // Keeps every answer it gets; only requests without one are sent again. A fetchAll that failed as a whole lost
  // its answers with it, so its requests go one at a time from then on: each answer is kept the moment it comes
  // and only the request that fails is asked again.
  //
  // Time: the tick's deadline is its start plus queue.tick_budget_seconds (270 s by default). A round starts only
  // when it can end before the deadline — FETCH_LIMIT_MS (60 s) after its start, however its endpoints behave —
  // and a retry wait only when the wait plus that round fit too. So every model call ends by 270 s, and what is left
  // after it (the step's commit and the queue's finish: two script-lock waits of at most 30 s each, then their
  // writes and flushes, ~75 s in all) ends by ~345 s, under Apps Script's 360 s. Without the check, a round started
  // at 269 s could run to 329 s and its retry to 389 s, past the limit with the step half-written. The transport
  // (adapters/gas/http-port.ts) adds a backstop for fetches with no budget of their own or a budget set too high:
  // none starts later than 240 s into the execution.
  respond(requests: AgentRequest[]): AgentResponse[] {
    const now = this.clock.now();
    const all: Pending[] = requests.map((req) => ({
      req,
      call: this.call(req, requests.length),
      attempts: 0,
      usage: { tokensIn: 0, tokensOut: 0 },
      started: now,
      waitUntil: 0,
      repaired: false,
      lengthened: false,
    }));
    let alone = !this.o.parallel;
    // The first call of a round goes alone when two rounds of calls fit the tick: it writes the prompt cache the
    // others then read (sent together, they would all find it cold). Without the time, or for a vendor whose cache
    // is not billed for less, all go at once: the lone call costs the round one more answer's wait.
    const width = Math.max(1, Math.floor(this.o.concurrency ?? all.length));
    const roundsAfterLead = Math.ceil((all.length - 1) / width);
    if (
      this.o.vendor.warmsCache &&
      !alone &&
      all.length > 1 &&
      now + (1 + roundsAfterLead) * FETCH_LIMIT_MS <= this.o.deadline
    ) {
      const lead = all[0];
      this.ready(lead.waitUntil);
      this.handle(lead, this.http.fetchAll([this.wire(lead)])[0]);
    }
    for (;;) {
      const open = all.filter((p) => !p.result);
      if (!open.length) break;
      if (alone || open.length === 1) {
        for (const p of open) {
          this.ready(p.waitUntil);
          this.handle(p, this.http.fetchAll([this.wire(p)])[0]);
        }
        continue;
      }
      // The requests ready soonest, as many as one fetchAll runs at once.
      const batch = open
        .slice()
        .sort((a, b) => a.waitUntil - b.waitUntil)
        .slice(0, width);
      this.ready(Math.max(...batch.map((p) => p.waitUntil)));
      const results = this.http.fetchAll(batch.map((p) => this.wire(p)));
      if (results.some((r) => r.lost)) alone = true;
      batch.forEach((p, i) => this.handle(p, results[i]));
    }
    return all.map((p) => p.result!);
  }

  private wire(p: Pending): WireRequest {
    p.sent = buildRequest(this.o.vendor, p.call, this.o.key, this.o.baseUrl);
    return p.sent;
  }

  // Waits until `until`, or re-queues when the wait and the round after it could not both end before the deadline.
  // The work comes back no sooner than the deadline: were it claimable at once, the tick that gave it back would
  // claim it again and give it back again until its budget ran out.
  private ready(until: number): void {
    const now = this.clock.now();
    const start = Math.max(now, until);
    if (start + FETCH_LIMIT_MS > this.o.deadline) {
      const wait = start - now;
      const round = `a round of calls (up to ${FETCH_LIMIT_MS / 1000} s)`;
      throw new RequeueError(
        `${wait > 0 ? `a retry wait of ${Math.round(wait)} ms and ${round}` : round} would pass the execution's time budget`,
        Math.max(start, this.o.deadline),
      );
    }
    if (start > now) this.clock.sleep(start - now);
  }

  private handle(p: Pending, res: HttpResult): void {
    p.attempts++;
    // A batch that failed as a whole may have been answered and billed: its prompt is counted as spent, so the budget
    // does not forget what the vendor charged.
    if (res.lost) p.usage = addUsage(p.usage, { tokensIn: estimateTokens(p.sent?.payload ?? ''), tokensOut: 0 });
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
          // No Retry-After header: Gemini puts its wait in the 429's body.
          retryInfoMs(body),
        );
      return;
    }
    p.waitUntil = 0;
    if (res.code < 200 || res.code >= 300) {
      this.fail(p, `http_${res.code}`, `HTTP ${res.code}: ${body.slice(0, 300)}`);
      return;
    }
    const parsed = this.o.vendor.wire.parse(body);
    p.usage = addUsage(p.usage, parsed);
    // Cut at its cap: asked once more with twice the cap and a line asking for a shorter answer. A second cut is
    // final, named with the vendor's reason, and never repaired at the cap that cut it.
    if (parsed.cut) {
      if (!p.lengthened) {
        p.lengthened = true;
        const r = p.call.req;
        p.call = {
          ...p.call,
          maxTokens: p.call.maxTokens * 2,
          req: { ...r, user: `${r.user}\n\n${briefText(r.context.lang)}` },
        };
        return;
      }
      this.fail(p, 'cut', `the answer was cut at its output cap of ${p.call.maxTokens} tokens twice (${parsed.cut})`);
      return;
    }
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
        ...p.usage,
        ms: this.clock.now() - p.started,
        attempts: p.attempts,
        repaired: p.repaired,
        ...(p.lengthened
          ? { note: `asked again with a cap of ${p.call.maxTokens} tokens: the first answer was cut` }
          : {}),
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
