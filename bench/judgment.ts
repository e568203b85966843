// The judgment part of the bench: kaigi eval's scenarios on the rules provider, its pass rate and its time.
import { DEFAULT_SCENARIOS, evaluate } from '../cli/commands/eval.js';

export interface JudgmentResult {
  scenarios: number;
  passed: number;
  pass_rate: number;
  failures: string[];
  ms: number;
  ms_per_scenario: number;
}

export async function judgmentBench(): Promise<JudgmentResult> {
  const r = await evaluate(DEFAULT_SCENARIOS(), { properties: {}, allowLocalFetch: [] });
  return {
    scenarios: r.scenarios,
    passed: r.passed,
    pass_rate: r.pass_rate,
    failures: r.failures.map((f) => `${f.name}: ${f.expectation}`),
    ms: r.ms,
    ms_per_scenario: Math.round(r.ms / Math.max(1, r.scenarios)),
  };
}

export function printJudgment(j: JudgmentResult): void {
  console.log(`\nJudgment: kaigi eval's scenarios on the rules provider (target ≥ 0.95 of ≥ 40 in ≤ 60 s)`);
  console.log(
    `  ${j.passed} of ${j.scenarios} passed (pass rate ${j.pass_rate}) in ${Math.round(j.ms / 100) / 10} s, ${j.ms_per_scenario} ms a scenario`,
  );
  for (const f of j.failures) console.log(`  failed: ${f}`);
}
