// Splits the apps_script_time path's executions into their steps from the runtime's call trace, and prices the floor.
import type { ExecutionResult } from '../runtime/runtime.js';
import { isRoundTrip, type TracedCall } from '../runtime/host/counts.js';
import { CALL_COST_MS, type CallKind } from '../runtime/host/time-model.js';

// A step is what a reader can name: the execution's start, what it reads before its first commit, each commit (the
// script lock's acquire to its release), each model round (a fetch; its own time is the call's overhead, the model's
// L is apart), the calls between and after them, and the script's own computing (real time, so it moves with the
// machine's load where every other figure does not).
export interface Step {
  exec: number;
  step: string;
  round_trips: number;
  modelled_ms: number;
  calls: number;
  // Sheets whose held writes the step sent (each one Sheets write on the clock).
  sheets_sent: number;
}

class StepBuilder {
  readonly steps: Step[] = [];
  private current: Step | null = null;

  constructor(private readonly exec: number) {}

  open(step: string): void {
    this.close();
    this.current = { exec: this.exec, step, round_trips: 0, modelled_ms: 0, calls: 0, sheets_sent: 0 };
  }

  add(c: TracedCall, ownMs: number): void {
    if (!this.current) this.open('calls');
    const s = this.current as Step;
    s.calls++;
    s.modelled_ms += ownMs;
    s.sheets_sent += c.sent ?? 0;
    if (isRoundTrip(c.op)) s.round_trips++;
  }

  close(): void {
    if (this.current?.calls) this.steps.push(this.current);
    this.current = null;
  }
}

// One execution's steps; `L` is the model's own time in each fetch, left out of the round's own time.
export function stepsOf(r: ExecutionResult, L: number): Step[] {
  const b = new StepBuilder(r.id);
  b.steps.push({
    exec: r.id,
    step: `start (${r.fn})`,
    round_trips: 0,
    modelled_ms: r.counts.msByKind.start ?? 0,
    calls: 0,
    sheets_sent: 0,
  });
  let commits = 0;
  let rounds = 0;
  let inCommit = false;
  b.open('read inputs');
  for (const c of r.counts.trace ?? []) {
    if (c.op === 'lock.acquire' && !inCommit) {
      inCommit = true;
      b.open(`commit ${++commits}`);
    }
    if (c.op === 'fetch') {
      b.open(`model round ${++rounds}`);
      b.add(c, c.ms - L);
      b.open(`after model round ${rounds}`);
      continue;
    }
    b.add(c, c.ms);
    if (c.op === 'lock.release' && inCommit) {
      inCommit = false;
      b.open(`after commit ${commits}`);
    }
  }
  b.close();
  // The rest of the execution's time on its clock: its held writes sent at its end, and the script computing here.
  const traced = (r.counts.trace ?? []).reduce((a, c) => a + c.ms, 0) + (r.counts.msByKind.start ?? 0);
  const rest = r.modelledMs - traced;
  if (rest > 0.5)
    b.steps.push({ exec: r.id, step: 'sent at the end', round_trips: 0, modelled_ms: rest, calls: 0, sheets_sent: 0 });
  // Real time here: the script computing, and waiting for the local model server's answers and for locks.
  const real = Math.max(0, r.endedAt - r.startedAt - r.modelledMs);
  const computing = Math.min(real, Math.max(0, r.realMs - r.counts.waitRealMs));
  for (const [step, ms] of [
    ['script computing (real time)', computing],
    ['waiting here for local answers (real time)', real - computing],
  ] as const)
    b.steps.push({ exec: r.id, step, round_trips: 0, modelled_ms: ms, calls: 0, sheets_sent: 0 });
  return b.steps.map((s) => ({ ...s, modelled_ms: Math.round(s.modelled_ms) }));
}

const mid = (k: CallKind) => (CALL_COST_MS[k][0] + CALL_COST_MS[k][1]) / 2;

export interface Floor {
  // The floor: one start, one batched read of a discussion's inputs, one batched write and one flush per
  // commit, the model rounds' overhead; each call at the middle of its modelled price.
  on_paper_ms: number;
  on_paper_round_trips: number;
  // The same with each commit writing the tabs it writes now: SpreadsheetApp has no write across sheets, so a commit
  // to n tabs sends n Sheets writes (time-model.ts), whatever else is cut.
  with_tabs_written_ms: number;
  commits: number;
  model_rounds: number;
  sheets_sent: number;
}

export function floorOf(steps: Step[], executions: number, rounds: number): Floor {
  const commits = steps.filter((s) => s.step.startsWith('commit ')).length;
  const sent = steps.filter((s) => s.step.startsWith('commit ')).reduce((a, s) => a + s.sheets_sent, 0);
  const base = executions * mid('start') + mid('sheets_read') + rounds * mid('fetch');
  const perCommit = mid('flush') + mid('lock') * 2 + mid('properties_write') * 2;
  return {
    on_paper_ms: Math.round(base + commits * (mid('sheets_write') + perCommit)),
    on_paper_round_trips: 1 + commits * 2,
    with_tabs_written_ms: Math.round(base + commits * perCommit + sent * mid('sheets_write')),
    commits,
    model_rounds: rounds,
    sheets_sent: sent,
  };
}
