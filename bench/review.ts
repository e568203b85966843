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
  // The runtime charged the latency on Apps Script's modelled clock (runtime/host/time-model.ts).
  time_model: true;
  reviewed_per_execution: number[];
  longest_execution_ms: number;
}

export async function reviewBench(startAt: number, due = 60, latencyMs = 10_000): Promise<ReviewResult> {
  const server = new ModelServer();
  const base = await server.start();
  // Each model call takes `latencyMs` on the executions' modelled clocks, besides every other call's cost.
  const rt = new Runtime({ startAt, timeModel: { fetchMs: latencyMs } });
  try {
    for (const fn of ['setup', 'seedDemoData']) {
      const r = await rt.run(fn, [], { kind: 'menu' });
      if (!r.ok) throw new Error(`${fn}: ${r.error?.message}`);
    }
    const decisions = await reviewBacklog(rt, due, base);
    // Outcomes rows before each execution (its options are asked for just before it runs), then at the end.
    const counts: number[] = [];
    const runs = await reviewUntilDone(rt, () => {
      counts.push(tabRows(rt, 'outcomes').length);
      return {};
    });
    counts.push(tabRows(rt, 'outcomes').length);
    // A recheck adds a decision's second row: each decision counts once.
    const outcomes = [...new Set(tabRows(rt, 'outcomes').map((o) => String(o.decision_id)))];
    const closed = tabRows(rt, 'discussions').every((d) => d.status === 'CLOSED');
    return {
      due: decisions.length,
      model_latency_ms: latencyMs,
      ticks: runs.length - 1,
      failures: runs.filter((r) => !r.ok || r.timedOut).length,
      all_reviewed: closed && outcomes.length === decisions.length && decisions.every((d) => outcomes.indexOf(d) >= 0),
      time_model: true,
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
    `\nThe daily review in budget: ${r.due} decisions due, each model call ${r.model_latency_ms / 1000} s (the runtime's time model)`,
  );
  console.log(
    `  the daily run and ${r.ticks} ticks: ${r.failures} failed, longest ${Math.round(r.longest_execution_ms / 1000)} s; reviewed per execution ${r.reviewed_per_execution.join(', ')}; all reviewed once: ${r.all_reviewed}`,
  );
}
