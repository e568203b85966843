// kaigi eval: the tests of the council's judgment. Each scenario file (eval/scenarios/ by default) runs in a fresh
// workbook on the runtime's clock, on the rules or any provider, and its expectations are checked; prints each
// result, or with --json { scenarios, passed, pass_rate, failures, ms }; exit 1 below --min-pass.
import path from 'node:path';
import { findRoot } from '../../runtime/runtime-options.js';
import { registry as vendors } from '../../src/core/providers/vendor-registry.js';
import { judge, type Check } from '../eval/judge.js';
import { type ProviderChoice, ScenarioRunner } from '../eval/run-scenario.js';
import { loadScenarios } from '../eval/scenario.js';
import {
  allowLocalModel,
  type Command,
  InputError,
  keysFromEnv,
  type Opts,
  PROVIDER_OVERRIDE,
  print,
  UsageError,
} from '../shared.js';

interface EvalReport {
  scenarios: number;
  passed: number;
  pass_rate: number;
  failures: { name: string; file: string; expectation: string; want: unknown; got: unknown }[];
  ms: number;
}

async function providerChoice(opts: Opts): Promise<ProviderChoice> {
  const provider = String(opts.provider ?? 'rules');
  if (provider === 'rules') return { properties: {}, allowLocalFetch: [] };
  const vendor = vendors.find(provider);
  if (!vendor) throw new UsageError(`--provider must be ${['rules', ...vendors.names()].join(', ')}; got ${provider}`);
  const baseUrl = opts['base-url'] ? String(opts['base-url']) : '';
  if (vendor.needs.baseUrl && !baseUrl) throw new UsageError(`--provider ${provider} needs --base-url`);
  if (vendor.needs.key && !process.env[vendor.envKey])
    throw new InputError(`--provider ${provider} needs an API key: set ${vendor.envKey} in the environment`);
  return {
    properties: {
      ...keysFromEnv(),
      [PROVIDER_OVERRIDE]: JSON.stringify({
        provider,
        model: opts.model ? String(opts.model) : 'default',
        base_url: baseUrl,
      }),
    },
    allowLocalFetch: await allowLocalModel(baseUrl),
  };
}

// Runs every scenario of a folder; the shared part of the command and the bench's judgment part.
export async function evaluate(
  dir: string,
  choice: ProviderChoice,
  onEach?: (name: string, checks: Check[], ms: number) => Promise<void>,
): Promise<EvalReport> {
  const scenarios = loadScenarios(dir);
  const t0 = Date.now();
  const runner = await ScenarioRunner.create(choice);
  const failures: EvalReport['failures'] = [];
  let passed = 0;
  try {
    for (const s of scenarios) {
      const ran = await runner.run(s);
      const checks = judge(s, ran);
      const bad = checks.filter((c) => !c.ok);
      if (bad.length === 0) passed++;
      for (const c of bad)
        failures.push({ name: s.name, file: s.file, expectation: c.expectation, want: c.want, got: c.got });
      await onEach?.(s.name, checks, ran.ms);
    }
  } finally {
    await runner.close();
  }
  const n = scenarios.length;
  return { scenarios: n, passed, pass_rate: Math.round((passed / n) * 1000) / 1000, failures, ms: Date.now() - t0 };
}

export const DEFAULT_SCENARIOS = () => path.join(findRoot(), 'eval', 'scenarios');

async function run(opts: Opts): Promise<number> {
  const dir = path.resolve(String(opts.scenarios ?? DEFAULT_SCENARIOS()));
  const minPass = opts['min-pass'] === undefined ? null : Number(opts['min-pass']);
  if (minPass !== null && !(minPass >= 0 && minPass <= 1))
    throw new UsageError('--min-pass must be a number from 0 to 1');
  const choice = await providerChoice(opts);
  const json = !!opts.json;
  const report = await evaluate(dir, choice, async (name, checks, ms) => {
    if (json) return;
    const bad = checks.filter((c) => !c.ok);
    await print(`${bad.length ? 'FAIL' : 'pass'}  ${name}  (${ms} ms)`);
    for (const c of bad)
      await print(`      ${c.expectation}: wanted ${JSON.stringify(c.want)}, got ${JSON.stringify(c.got)}`);
  });
  if (json) await print(JSON.stringify(report));
  else
    await print(
      `${report.passed} of ${report.scenarios} scenarios passed (pass rate ${report.pass_rate}) in ${Math.round(report.ms / 100) / 10} s`,
    );
  return minPass !== null && report.pass_rate < minPass ? 1 : 0;
}

export const evalCommand: Command = {
  name: 'eval',
  options: ['scenarios', 'provider', 'base-url', 'model', 'min-pass'],
  flags: ['json'],
  run: ({ opts }) => run(opts),
};
