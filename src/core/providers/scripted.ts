// A provider that answers from a script, records every request, and throws when the script and the calls disagree.
import type { AgentRequest, AgentResponse, Expectation, Provider } from '../provider.js';
import { validationErrors } from './http.js';
import { dropNulls } from './schema.js';
import { retryable } from './vendors.js';

// What an entry insists on; a request that differs is a broken test, not something to answer.
interface ScriptMatch {
  agent?: string;
  expect?: Expectation;
  phase?: number;
}

// Usage reported for the call an entry answers; summed over a request's retries and repair.
interface ScriptUsage {
  tokensIn?: number;
  tokensOut?: number;
  ms?: number;
  // Set on the entry that ends the request: the level and note a stand-in provider reports (budget fallback).
  fallbackLevel?: number;
  note?: string;
}

type ScriptReply =
  // The parsed answer, handed to the engine as is: the engine's own validation decides if it is usable.
  | { content: unknown }
  // Content computed from the request (a decision that has to name the request's decision id, say).
  | { answer: (req: AgentRequest) => unknown }
  // Raw model text, parsed and schema-checked like an HTTP provider: a bad answer gets the one repair call.
  | { text: string }
  // A transport failure; retried while attempts remain, as 408/429/500/502/503 are.
  | { network: string }
  // A non-2xx HTTP answer.
  | { status: number; body?: string }
  // respond() itself throws (a RequeueError, a crash inside the provider).
  | { throws: Error | string };

export type ScriptEntry = ScriptMatch & ScriptUsage & ScriptReply;

export interface ScriptedCall {
  // Index of the script entry that answered this call.
  entry: number;
  key: string;
  agent: string;
  phase: number;
  expect: Expectation;
  preamble: string;
  shared: string;
  task: string;
  system: string;
  user: string;
  // 1 for the first call of a request; retries and the repair call count on.
  attempt: number;
  repair?: { previous: string; errors: string };
}

export interface ScriptedOptions {
  name?: string;
  model?: string;
  // Calls per request, the repair included (retry.max_attempts); 1 means a failure is final.
  maxAttempts?: number;
  // strict: every call takes the next entry. per-agent: the first unused entry naming the request's agent,
  // else the first unused entry naming no agent — for rounds whose order a test does not want to fix.
  order?: 'strict' | 'per-agent';
}

export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

function kindOf(e: ScriptEntry): string {
  for (const k of ['content', 'answer', 'text', 'network', 'status', 'throws'])
    if (k in e) return k === 'status' ? `status ${(e as { status: number }).status}` : k;
  return 'nothing';
}

function describeEntry(e: ScriptEntry): string {
  const want = [
    e.agent ? `agent ${e.agent}` : 'any agent',
    e.expect ? `expect ${e.expect}` : '',
    e.phase !== undefined ? `phase ${e.phase}` : '',
  ];
  return `${want.filter(Boolean).join(', ')} → ${kindOf(e)}`;
}

interface Pending {
  req: AgentRequest;
  attempts: number;
  tokensIn: number;
  tokensOut: number;
  ms: number;
  repaired: boolean;
  repair?: { previous: string; errors: string };
}

export class ScriptedProvider implements Provider {
  readonly name: string;
  readonly model: string;
  // Every call in order, retries and repair calls included.
  readonly calls: ScriptedCall[] = [];
  // Every request as the engine made it, once each.
  readonly requests: AgentRequest[] = [];
  private readonly script: ScriptEntry[] = [];
  private readonly used: boolean[] = [];
  private readonly maxAttempts: number;
  private readonly order: 'strict' | 'per-agent';

  constructor(entries: ScriptEntry[] = [], o: ScriptedOptions = {}) {
    this.name = o.name ?? 'scripted';
    this.model = o.model ?? 'scripted';
    this.maxAttempts = o.maxAttempts ?? 1;
    this.order = o.order ?? 'strict';
    if (this.maxAttempts < 1) throw new ScriptError(`maxAttempts must be at least 1, not ${this.maxAttempts}`);
    this.push(...entries);
  }

  push(...entries: ScriptEntry[]): this {
    for (const e of entries) {
      if (kindOf(e) === 'nothing') throw new ScriptError(`script entry ${describeEntry(e)} gives no reply`);
      if ('status' in e && e.status >= 200 && e.status < 300)
        throw new ScriptError(
          `script entry ${describeEntry(e)}: a status entry stands for a failure; use content or text`,
        );
      this.script.push(e);
      this.used.push(false);
    }
    return this;
  }

  // Entries not consumed yet, described for an error message or an assertion.
  remaining(): string[] {
    return this.script.map((e, i) => (this.used[i] ? '' : `#${i} ${describeEntry(e)}`)).filter(Boolean);
  }

  // A test ends with this: an entry nobody asked for means the engine made fewer calls than scripted.
  assertDone(): void {
    const left = this.remaining();
    if (left.length) throw new ScriptError(`${left.length} scripted answer(s) never requested: ${left.join('; ')}`);
  }

  respond(requests: AgentRequest[]): AgentResponse[] {
    return requests.map((req) => {
      this.requests.push(req);
      const p: Pending = { req, attempts: 0, tokensIn: 0, tokensOut: 0, ms: 0, repaired: false };
      for (;;) {
        const r = this.call(p);
        if (r) return r;
      }
    });
  }

  private take(req: AgentRequest): number {
    const free = (i: number) => !this.used[i];
    let i = -1;
    if (this.order === 'strict') i = this.used.indexOf(false);
    else {
      i = this.script.findIndex((e, j) => free(j) && e.agent === req.agent.agent_id);
      if (i < 0) i = this.script.findIndex((e, j) => free(j) && !e.agent);
    }
    const what = `${req.key} (agent ${req.agent.agent_id}, expect ${req.expect}, phase ${req.phase})`;
    if (i < 0) throw new ScriptError(`script ran out: no scripted answer for ${what}`);
    const e = this.script[i];
    const wrong: string[] = [];
    if (e.agent !== undefined && e.agent !== req.agent.agent_id) wrong.push(`agent ${e.agent}`);
    if (e.expect !== undefined && e.expect !== req.expect) wrong.push(`expect ${e.expect}`);
    if (e.phase !== undefined && e.phase !== req.phase) wrong.push(`phase ${e.phase}`);
    if (wrong.length)
      throw new ScriptError(`script entry #${i} wants ${wrong.join(', ')} but the next request is ${what}`);
    this.used[i] = true;
    return i;
  }

  // One call: consumes one entry; returns the response when the request is finished, null to call again.
  private call(p: Pending): AgentResponse | null {
    const { req } = p;
    const i = this.take(req);
    const e = this.script[i];
    p.attempts++;
    this.calls.push({
      entry: i,
      key: req.key,
      agent: req.agent.agent_id,
      phase: req.phase,
      expect: req.expect,
      preamble: req.preamble ?? '',
      shared: req.shared ?? '',
      task: req.task ?? '',
      system: req.system,
      user: req.user,
      attempt: p.attempts,
      ...(p.repair ? { repair: p.repair } : {}),
    });
    p.tokensIn += e.tokensIn ?? 0;
    p.tokensOut += e.tokensOut ?? 0;
    p.ms += e.ms ?? 0;
    const base = {
      key: req.key,
      model: `${this.name}:${this.model}`,
      tokensIn: p.tokensIn,
      tokensOut: p.tokensOut,
      ms: p.ms,
      attempts: p.attempts,
    };
    const done = (r: Omit<AgentResponse, keyof typeof base>): AgentResponse => ({
      ...base,
      ...r,
      ...(e.fallbackLevel !== undefined ? { fallbackLevel: e.fallbackLevel } : {}),
      ...(e.note !== undefined ? { note: e.note } : {}),
    });
    const fail = (code: string, message: string) => done({ ok: false, error: { code, message } });
    if ('throws' in e) throw typeof e.throws === 'string' ? new Error(e.throws) : e.throws;
    if ('network' in e || 'status' in e) {
      const isNetwork = 'network' in e;
      const why = isNetwork ? e.network : `HTTP ${e.status}: ${(e.body ?? '').slice(0, 300)}`;
      const code = isNetwork ? 'network' : `http_${e.status}`;
      if (isNetwork || retryable(e.status)) {
        if (p.attempts >= this.maxAttempts) return fail(code, `${why} (after ${p.attempts} attempts)`);
        return null;
      }
      return fail(code, why);
    }
    if ('content' in e) return done({ ok: true, content: e.content, repaired: p.repaired });
    if ('answer' in e) return done({ ok: true, content: e.answer(req), repaired: p.repaired });
    let content: unknown;
    let problem: string | null;
    try {
      content = dropNulls(JSON.parse(e.text));
      problem = validationErrors(req, content);
    } catch (err) {
      problem = `the answer is not valid JSON: ${(err as Error).message}`;
    }
    if (!problem) return done({ ok: true, content, repaired: p.repaired });
    // The one repair call carries the errors; if it fails too, the engine's fallback ladder takes over.
    if (!p.repaired) {
      p.repaired = true;
      p.repair = { previous: e.text.slice(0, 20000), errors: problem.slice(0, 2000) };
      return null;
    }
    return fail('invalid_output', problem);
  }
}
