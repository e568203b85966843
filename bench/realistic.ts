// What real models would be sent and charged (issue 24): the demo discussion through Phase 6 against the model
// server in realistic mode, once per vendor wire format, with the server's token and prompt-cache figures, the cost at
// list prices, and what the decider's request shows of the specialists' opinions.
import { writeFileSync } from 'node:fs';
import { Runtime } from '../runtime/runtime.js';
import { registry } from '../src/core/providers/vendor-registry.js';
import { ModelServer, type Recorded } from '../tools/model-server.js';
import type { Vendor } from '../tools/model-wire.js';
import {
  deciderSeesAll,
  deciderView,
  type DeciderView,
  kindOf,
  maxSchemaRepeat,
  type RecordedMessage,
} from './decider-view.js';
import { defaultAgents } from '../src/core/discussion/default-council.js';
import { discussion, must, sheet } from './discussion.js';
import { demoTrigger } from '../src/core/demo-data.js';

// USD per million tokens: list prices as of mid-2025 as we know them (not fetched; check the vendors' pages).
// cachedInput is a cache read, cacheWrite a cache write (Anthropic only: 1.25 × input for the 5-minute cache).
const PRICES: Record<
  Vendor,
  { model: string; input: number; cachedInput: number; cacheWrite: number; output: number }
> = {
  openai: { model: 'gpt-4o-mini', input: 0.15, cachedInput: 0.075, cacheWrite: 0.15, output: 0.6 },
  anthropic: { model: 'claude-sonnet-4-5', input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  gemini: { model: 'gemini-2.5-flash', input: 0.3, cachedInput: 0.075, cacheWrite: 0.3, output: 2.5 },
};

// Where each wire format is served: the vendor's own API path under the local server.
const PATHS: Record<Vendor, string> = { openai: '/v1', anthropic: '/v1', gemini: '/v1beta' };

interface VendorFigures {
  model: string;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  calls: number;
  cacheable_share: number;
  cost_usd: number;
  cost_usd_without_cache: number;
}

interface Run {
  figures: VendorFigures;
  per_phase: Record<string, { calls: number; input_tokens: number }>;
  decider_request: { input_tokens: number; system_chars: number; user_chars: number; schema_chars: number } | null;
  decider_sees_all_opinions: boolean;
  decider_view: DeciderView;
  max_schema_repeat: number;
  // The pre-start estimate (input and output) of the same discussion.
  estimate_tokens: number;
}

export interface RealisticResult extends Omit<VendorFigures, 'model' | 'cost_usd' | 'cost_usd_without_cache'> {
  // The top-level token figures, per_phase and decider_request are the openai discussion's.
  top_level_from: Vendor;
  by_vendor: Record<string, VendorFigures>;
  // True only when it holds in every vendor's discussion; max_schema_repeat is the largest over all of them.
  decider_sees_all_opinions: boolean;
  max_schema_repeat: number;
  cost_usd_by_vendor: Record<string, number>;
  // The start dialog's forecast beside what the server counted (input and output), per vendor: |estimate − actual| / actual.
  estimate_error_by_vendor: Record<string, number>;
  estimate_tokens: number;
  per_phase: Run['per_phase'];
  decider_request: Run['decider_request'];
  // An OpenAI discussion whose answers carry marks inside every text and whose psychology specialist never answers
  // usably (its substitute answers): what the decider's request shows of the debate (bench/decider-view.ts).
  decider_view: DeciderView;
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

function figures(vendor: Vendor, reqs: Recorded[]): VendorFigures {
  const p = PRICES[vendor];
  const sum = (f: (r: Recorded) => number) => reqs.reduce((a, r) => a + f(r), 0);
  const input = sum((r) => r.usage?.input ?? 0);
  const read = sum((r) => r.usage?.cacheRead ?? 0);
  const write = sum((r) => r.usage?.cacheWrite ?? 0);
  const output = sum((r) => (r.usage?.output ?? 0) + (r.usage?.thinking ?? 0));
  const cost =
    ((input - read - write) * p.input + read * p.cachedInput + write * p.cacheWrite + output * p.output) / 1e6;
  return {
    model: p.model,
    input_tokens: input,
    output_tokens: output,
    cached_tokens: read,
    cache_write_tokens: write,
    calls: reqs.length,
    cacheable_share: input ? round(read / input, 3) : 0,
    cost_usd: round(cost, 6),
    cost_usd_without_cache: round((input * p.input + output * p.output) / 1e6, 6),
  };
}

async function record(rt: Runtime): Promise<RecordedMessage[]> {
  const tab = must(await rt.run('exportTab', ['Messages'], { kind: 'server' })) as { rows: { message_json: string }[] };
  return tab.rows.map((r) => JSON.parse(String(r.message_json)) as RecordedMessage);
}

// How a run is set up: realistic answers with marks inside them, and an agent whose answers are always invalid (so its
// substitute answers in its place).
interface RunOptions {
  marks?: boolean;
  absent?: string;
}

// The agent a request is for, from its role prompt.
function agentOf(rec: Recorded): string {
  const text = `${rec.system}\n${rec.user}`;
  return (
    (/You are "([^"]+)" on the Kaigi council/.exec(text) ?? /あなたは Kaigi 会議の「([^」]+)」です/.exec(text))?.[1] ??
    ''
  );
}

async function vendorRun(start: number, vendor: Vendor, o: RunOptions = {}): Promise<Run> {
  const server = new ModelServer();
  server.realistic = true;
  server.marks = !!o.marks;
  if (o.absent) {
    const agent = defaultAgents().find((a) => a.agent_id === o.absent)!;
    const names = [agent.name_en, agent.name_ja];
    server.plan = (rec) => (names.indexOf(agentOf(rec)) >= 0 ? { fault: 'violate' } : { fault: 'ok' });
  }
  const base = await server.start();
  // The local model server is on loopback: allowed explicitly, as the CLI does for a local --base-url.
  const rt = new Runtime({ startAt: start, allowLocalFetch: [base] });
  // The prompt caches expire on the runtime's clock, which the discussion advances a minute a tick.
  server.now = () => rt.clock.now();
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    rt.scriptProperties.set({
      [registry.find(vendor)!.keyProperty]: 'placeholder-cred-bench',
      KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
        provider: vendor,
        model: PRICES[vendor].model,
        base_url: base + PATHS[vendor],
      }),
    });
    // What the start dialog forecasts for this discussion, before it runs (the same trigger, the same models).
    const estimate = must(await rt.run('estimateStart', [demoTrigger()], { kind: 'server' })) as { tokens: number };
    await discussion(rt);
    const log = sheet(rt.workbook, 'Discussion Log');
    if (rt.workbook.getValues(log, 2, 2, 1, 1)[0][0] !== 'DECIDED')
      throw new Error(`the realistic ${vendor} discussion did not reach DECIDED`);
    // The answers' requests; embedding calls carry no schema.
    const reqs = server.requests.filter((r) => r.schema);
    if (process.env.KAIGI_BENCH_DUMP)
      writeFileSync(`${process.env.KAIGI_BENCH_DUMP}-${vendor}${o.absent ? '-view' : ''}.json`, JSON.stringify(reqs));
    const perPhase: Run['per_phase'] = {};
    for (const r of reqs) {
      const e = (perPhase[String(kindOf(r).phase)] ??= { calls: 0, input_tokens: 0 });
      e.calls++;
      e.input_tokens += r.usage?.input ?? 0;
    }
    const decider = reqs.filter((r) => kindOf(r).kind === 'decision').pop();
    return {
      figures: figures(vendor, reqs),
      per_phase: perPhase,
      decider_request: decider
        ? {
            input_tokens: decider.usage?.input ?? 0,
            system_chars: decider.system.length,
            user_chars: decider.user.length,
            schema_chars: JSON.stringify(decider.schema).length,
          }
        : null,
      estimate_tokens: estimate.tokens,
      decider_sees_all_opinions: deciderSeesAll(reqs, await record(rt)),
      decider_view: deciderView(reqs, await record(rt)),
      max_schema_repeat: maxSchemaRepeat(reqs.map((r) => r.schema)),
    };
  } finally {
    await rt.close();
    await server.stop();
  }
}

export async function realisticBench(start: number): Promise<RealisticResult> {
  // Every vendor with an API of its own (openai-compatible speaks OpenAI's format).
  const vendors = registry.all.filter((v) => v.defaultBaseUrl && v.name in PRICES).map((v) => v.name as Vendor);
  const runs: Partial<Record<Vendor, Run>> = {};
  for (const v of vendors) runs[v] = await vendorRun(start, v);
  const top = runs.openai ?? runs[vendors[0]]!;
  const view = await vendorRun(start, 'openai', { marks: true, absent: 'psychology' });
  const all = Object.values(runs) as Run[];
  return {
    top_level_from: runs.openai ? 'openai' : vendors[0],
    by_vendor: Object.fromEntries(vendors.map((v) => [v, runs[v]!.figures])),
    input_tokens: top.figures.input_tokens,
    output_tokens: top.figures.output_tokens,
    cached_tokens: top.figures.cached_tokens,
    cache_write_tokens: top.figures.cache_write_tokens,
    calls: top.figures.calls,
    cacheable_share: top.figures.cacheable_share,
    decider_sees_all_opinions: all.every((r) => r.decider_sees_all_opinions),
    max_schema_repeat: Math.max(...all.map((r) => r.max_schema_repeat)),
    cost_usd_by_vendor: Object.fromEntries(vendors.map((v) => [v, runs[v]!.figures.cost_usd])),
    estimate_tokens: top.estimate_tokens,
    estimate_error_by_vendor: Object.fromEntries(
      vendors.map((v) => {
        const f = runs[v]!.figures;
        const actual = f.input_tokens + f.output_tokens;
        return [v, actual ? round(Math.abs(runs[v]!.estimate_tokens - actual) / actual, 3) : 0];
      }),
    ),
    per_phase: top.per_phase,
    decider_request: top.decider_request,
    decider_view: view.decider_view,
  };
}

export function printRealistic(r: RealisticResult): void {
  console.log('\nRealistic answers: the demo discussion per vendor wire format, tokens as the server counted them');
  for (const [v, f] of Object.entries(r.by_vendor))
    console.log(
      `  ${v.padEnd(9)} ${f.model}: ${f.calls} calls, ${f.input_tokens} in (${f.cached_tokens} cache reads, ${f.cache_write_tokens} cache writes; share ${f.cacheable_share}), ${f.output_tokens} out; $${f.cost_usd} ($${f.cost_usd_without_cache} without the cache)`,
    );
  const phases = Object.entries(r.per_phase).map(([p, x]) => `P${p} ${x.input_tokens} (${x.calls})`);
  console.log(`  input tokens by phase (${r.top_level_from}): ${phases.join(', ')}`);
  const d = r.decider_request;
  if (d)
    console.log(
      `  decider's request: ${d.input_tokens} tokens; system ${d.system_chars}, data ${d.user_chars}, schema ${d.schema_chars} characters`,
    );
  console.log(
    `  decider sees every opinion: ${r.decider_sees_all_opinions}; largest repeat bound in a schema: ${r.max_schema_repeat}`,
  );
  const v = r.decider_view;
  console.log(
    `  decider view (marks inside every answer, one specialist substituted): marks found ${v.marks_found}/${v.marks_total}, answers whole ${v.answers_whole}, substitutes marked ${v.substitutes_marked}/${v.substitutes}, votes sorted ${v.votes_sorted}`,
  );
  console.log(
    `  pre-start estimate ${r.estimate_tokens} tokens; error against the run by vendor: ${JSON.stringify(r.estimate_error_by_vendor)}`,
  );
}
