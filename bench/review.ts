// The review bench (issue 25 `review`): a day with 60 decisions due, each model call costing 10 s of the execution's
// time, reviewed by the daily trigger and the ticks after it; every decision once, and no execution failed.
import { Runtime } from '../runtime/runtime.js';
import { ModelServer } from '../tools/model-server.js';
import { reviewBacklog, reviewUntilDone } from '../tools/review-backlog.js';
import { tabRows } from '../tools/tab-rows.js';

export interface ReviewResult {
  due: number;
  model_latency_ms: number;
  // Tick executions after the daily review's own, until nothing of the review was left.
  ticks: number;
  failures: number;
  all_reviewed: boolean;
  // Whether the runtime charged the latency itself (its time model) rather than a clock hook of this bench.
  time_model: boolean;
  reviewed_per_execution: number[];
  longest_execution_ms: number;
}

// Until the runtime's time model (new Runtime({ timeModel: { fetchMs } })) is on main, a clock hook charges each fetch;
// set this to true once it is, and the runtime charges it instead.
const TIME_MODEL = false;

export async function reviewBench(startAt: number, due = 60, latencyMs = 10_000): Promise<ReviewResult> {
  const server = new ModelServer();
  const base = await server.start();
  const rt = new Runtime({ startAt, ...(TIME_MODEL ? { timeModel: { fetchMs: latencyMs } } : {}) });
  try {
    for (const fn of ['setup', 'seedDemoData']) {
      const r = await rt.run(fn, [], { kind: 'menu' });
      if (!r.ok) throw new Error(`${fn}: ${r.error?.message}`);
    }
    const decisions = await reviewBacklog(rt, due, base);
    const charge = (_n: number, op: string) => {
      if (op === 'fetch') rt.clock.advance(latencyMs);
    };
    // Outcomes rows before each execution (its options are asked for just before it runs), then at the end.
    const counts: number[] = [];
    const runs = await reviewUntilDone(rt, () => {
      counts.push(tabRows(rt, 'outcomes').length);
      return TIME_MODEL ? {} : { onCall: charge };
    });
    counts.push(tabRows(rt, 'outcomes').length);
    const outcomes = tabRows(rt, 'outcomes').map((o) => String(o.decision_id));
    const closed = tabRows(rt, 'discussions').every((d) => d.status === 'CLOSED');
    return {
      due: decisions.length,
      model_latency_ms: latencyMs,
      ticks: runs.length - 1,
      failures: runs.filter((r) => !r.ok || r.timedOut).length,
      all_reviewed: closed && outcomes.length === decisions.length && decisions.every((d) => outcomes.indexOf(d) >= 0),
      time_model: TIME_MODEL,
      reviewed_per_execution: counts.slice(1).map((n, i) => n - counts[i]),
      longest_execution_ms: Math.max(...runs.map((r) => r.endedAt - r.startedAt)),
    };
  } finally {
    await rt.close();
    await server.stop();
  }
}

export function printReview(r: ReviewResult): void {
  console.log(
    `\nThe daily review in budget: ${r.due} decisions due, each model call ${r.model_latency_ms / 1000} s (${r.time_model ? "the runtime's time model" : 'a clock hook'})`,
  );
  console.log(
    `  the daily run and ${r.ticks} ticks: ${r.failures} failed, longest ${Math.round(r.longest_execution_ms / 1000)} s; reviewed per execution ${r.reviewed_per_execution.join(', ')}; all reviewed once: ${r.all_reviewed}`,
  );
}
