// The daily review in budget through the built file: sixty decisions due on one day, each model call costing 10 s on
// the execution's clock, are reviewed exactly once over several runs with none failing — also when a run is killed
// mid-commit or a model asks for a wait longer than the run has left (those on a backlog of eight: a kill or a wait
// lands in the daily run's first decisions, and eight show the rest resumed as sixty do, at a seventh of the cost).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELD_WRITES } from '../../../../runtime/host/write-buffer.js';
import type { ExecutionResult, RunOptions, Runtime, RuntimeSnapshot } from '../../../../runtime/runtime.js';
import type { ServiceOp } from '../../../../runtime/service-calls.js';
import { ModelServer } from '../../../../tools/model-server.js';
import { backlogSnapshot, continueReview, reviewUntilDone } from '../../../../tools/review-backlog.js';
import { tabRows } from '../../../../tools/tab-rows.js';
import { council, ok, START } from '../../../council-helpers.js';
import { newRuntime } from '../../../helpers.js';

const DUE = 60;
const SMALL = 8;
const MODEL_MS = 10_000;

let server: ModelServer;
let base = '';
// The sixty decisions due, and the eight.
let large: { snapshot: RuntimeSnapshot; due: string[] };
let small: { snapshot: RuntimeSnapshot; due: string[] };

beforeAll(async () => {
  server = new ModelServer();
  base = await server.start();
  large = await backlogSnapshot(await council(), DUE, base);
  small = await backlogSnapshot(await council(), SMALL, base);
}, 300_000);

afterAll(() => server.stop());

function fromBacklog(backlog = large): Runtime {
  // Each model call takes MODEL_MS on the executions' modelled clocks (runtime/host/time-model.ts).
  const rt = newRuntime({ startAt: START, timeModel: { fetchMs: MODEL_MS } });
  rt.restore(backlog.snapshot);
  rt.allowLocalFetch = [base];
  return rt;
}

// A run's options, noting each service call it makes in `ops` (the model's slowness is the runtime's fetchMs).
function noted(extra: RunOptions = {}, ops?: string[]): RunOptions {
  return { ...extra, onCall: (_n, op) => void ops?.push(op) };
}

// Every due decision reviewed exactly once: one Outcomes row each, its discussion CLOSED, its learnings written (or
// merged) once and none from a commit that was rolled back, and the audit chain whole.
async function reviewedOnce(rt: Runtime, due: string[]): Promise<void> {
  const outcomes = tabRows(rt, 'outcomes');
  expect(outcomes.map((o) => o.decision_id).sort()).toEqual([...due].sort());
  expect(tabRows(rt, 'discussions').map((d) => d.status)).toEqual(due.map(() => 'CLOSED'));
  const ids = new Set(outcomes.map((o) => String(o.outcome_id)));
  const learned = tabRows(rt, 'learnings')
    .filter((l) => l.scope !== 'case')
    .map((l) => `${l.source}|${l.agent_id}|${l.content}`);
  expect(new Set(learned).size).toBe(learned.length);
  const from = new Set(learned.map((k) => k.split(' ')[0]));
  // A learning that repeats an agent's active one merges into it (src/core/memory/review-lifecycle.ts): its outcome is named
  // by the audited merge instead of a row of its own.
  for (const a of tabRows(rt, 'audit').filter((x) => x.event === 'learning_merged'))
    from.add(String((JSON.parse(String(a.payload_json)) as { outcome_id: string }).outcome_id));
  expect([...from].sort()).toEqual([...ids].sort());
  expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
}

// The service calls of an undisturbed daily run on the small backlog, and where its model calls fall (1-based call
// numbers, as killAtCall counts them); made once, for the tests that kill that run.
let probed: { ops: string[]; fetches: number[] } | undefined;
async function probe(): Promise<{ ops: string[]; fetches: number[] }> {
  if (probed) return probed;
  const ops: string[] = [];
  ok(await fromBacklog(small).run('dailyReview', [], noted({ kind: 'trigger' }, ops)));
  // A decision's round of model calls is one fetch, or two when its first call goes alone (it writes the prompt
  // cache the others read): the calls of one round are adjacent, with no service call between them. Each round is
  // named by its last fetch, the one whose answers its commit writes.
  probed = { ops, fetches: ops.flatMap((op, i) => (op === 'fetch' && ops[i + 1] !== 'fetch' ? [i + 1] : [])) };
  return probed;
}

function noneFailed(runs: ExecutionResult[]): void {
  for (const r of runs) expect(r.ok && !r.timedOut, `${r.fn}: ${r.error?.message}`).toBe(true);
}

describe('the daily review in budget', () => {
  it(`reviews ${DUE} due decisions at ${MODEL_MS / 1000} s a model call exactly once, over several runs`, async () => {
    const rt = fromBacklog();
    const from = server.requests.length;
    const first = await rt.run('dailyReview', [], noted({ kind: 'trigger' }));
    const daily = ok(first);
    expect(daily.evaluated.length).toBeGreaterThan(0);
    expect(daily.left).toBe(DUE - daily.evaluated.length);
    // The rest is queued for at once, and a one-shot tick is on its way.
    const [rest] = tabRows(rt, 'queue').filter((q) => q.type === 'review.run');
    expect(rest).toMatchObject({ status: 'queued' });
    expect((rest.available_at as Date).getTime()).toBeLessThanOrEqual(rt.clock.now());
    expect(rt.triggers.triggers.some((t) => t.handler === 'tickSoon' && t.nextAt !== null)).toBe(true);
    const runs = [first, ...(await continueReview(rt, () => noted()))];
    noneFailed(runs);
    // Six minutes of model calls cannot fit in one execution: the daily run and at least two ticks share them.
    expect(runs.length).toBeGreaterThanOrEqual(3);
    for (const r of runs) expect(r.endedAt - r.startedAt).toBeLessThan(360_000);
    // One learning request per decision and one reflection per agent that spoke, all in the decision's one round:
    // nothing was asked twice.
    expect(server.requests.length - from).toBe(DUE + tabRows(rt, 'reflections').length);
    await reviewedOnce(rt, large.due);
    const items = tabRows(rt, 'queue').filter((q) => q.type === 'review.run');
    expect(items.map((q) => q.status)).toEqual(['done']);
  }, 300_000);

  it('a run killed in a decision’s commit loses only that decision, and the ticks go on after the lease', async () => {
    // Where the third decision's commit falls in an undisturbed daily run.
    const { ops, fetches } = await probe();
    const window = ops.slice(fetches[2], fetches[3] - 1);
    const at = (op: string, from = 0) => fetches[2] + 1 + window.indexOf(op, from);
    const flush = at('ss.flush');
    const write = at('rg.setValues');
    // From the commit's first write to the flush every call is a held write (runtime/host/write-buffer.ts), which a
    // kill loses: a kill at any of them, or at the flush, leaves the same rows and properties, so one at the flush
    // stands for them all (the commit not made).
    expect(ops.slice(write - 1, flush - 1).every((op) => HELD_WRITES.has(op as ServiceOp))).toBe(true);
    // One kill of each kind: at the lock, at the flush and after it (the commit made, the release not).
    const kills = [at('lock.acquire'), flush, flush + 1];
    expect(new Set(kills).size).toBe(kills.length);
    for (const k of kills) {
      const rt = fromBacklog(small);
      const runs = await reviewUntilDone(rt, (i) => noted(i === 0 ? { killAtCall: k } : {}));
      const where = `killed at call ${k} (${ops[k - 1]})`;
      expect(runs[0].killed, where).toBe(true);
      noneFailed(runs.slice(1));
      await reviewedOnce(rt, small.due);
    }
  }, 600_000);

  it('a daily run beside the one still holding the review leaves the work to it', async () => {
    const rt = fromBacklog(small);
    // Killed at the fourth decision's model call: three are reviewed, the rest still held by the dead run's lease.
    const { fetches } = await probe();
    const killed = await rt.run('dailyReview', [], noted({ kind: 'trigger', killAtCall: fetches[3] }));
    expect(killed.killed).toBe(true);
    const done = tabRows(rt, 'outcomes').length;
    expect(done).toBeGreaterThan(0);
    // The killed run's lease has not run out: a second daily run reviews nothing, and writes nothing twice.
    const second = ok(await rt.run('dailyReview', [], noted({ kind: 'trigger' })));
    expect(second).toMatchObject({ evaluated: [], left: SMALL - done });
    expect(tabRows(rt, 'outcomes').length).toBe(done);
    const runs = await continueReview(rt, () => noted());
    noneFailed(runs);
    await reviewedOnce(rt, small.due);
  }, 300_000);

  it("a model's back-off longer than the run ends it cleanly, and the rest waits for it", async () => {
    const rt = fromBacklog(small);
    // The fifth decision's learning call (its round also holds its agents' reflections) is told to wait 15 minutes.
    let learning = 0;
    server.plan = (req) =>
      req.schema?.properties?.learnings && ++learning === 5 ? { status: 429, retryAfter: 900 } : {};
    try {
      const daily = await rt.run('dailyReview', [], noted({ kind: 'trigger' }));
      const report = ok(daily);
      expect(report.evaluated.length).toBe(4);
      expect(report.left).toBe(SMALL - 4);
      expect(report.retry_at).toBeGreaterThanOrEqual(rt.clock.now() + 800_000);
      const [item] = tabRows(rt, 'queue').filter((q) => q.type === 'review.run');
      expect(item).toMatchObject({ status: 'queued' });
      // The Queue tab keeps times to the second.
      expect((item.available_at as Date).getTime()).toBe(Math.floor(report.retry_at / 1000) * 1000);
      // A tick before the back-off is over leaves it alone.
      rt.clock.advance(300_000);
      expect(ok(await rt.run('tick', [], noted({ kind: 'trigger' }))).tasks).not.toContain('review.run');
      const runs = await continueReview(rt, () => noted());
      noneFailed(runs);
      await reviewedOnce(rt, small.due);
    } finally {
      server.plan = () => ({});
    }
  }, 300_000);
});
