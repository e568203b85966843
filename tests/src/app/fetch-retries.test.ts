// Model calls through UrlFetchApp under Apps Script's limits: a fetchAll that fails as a whole, retries bounded by the
// tick's time budget, and no fetch started too late in an execution for its answers to be written.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import type { Behavior, Recorded } from '../../../tools/model-server.js';
import { localModelServer } from '../../model-server-hooks.js';
import { council, messages, ok, setSetting, settle, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';

const models = localModelServer();

const PSYCH = '「心理学特化」';
const isOpinion = (r: Recorded) => r.body.response_format?.json_schema?.name === 'specialist_opinion';

async function councilOnServer(): Promise<Runtime> {
  const rt = await council();
  rt.scriptProperties.set({
    KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
      provider: 'openai-compatible',
      model: 'any',
      base_url: `${models.base()}/v1`,
    }),
  });
  models.allow(rt);
  await setSetting(rt, 'retry.base_seconds', '0.05');
  return rt;
}

// Phase 2's requests from `from` on, counted per agent (each agent has its own system prompt).
function opinionsPerAgent(from: number): number[] {
  const n: Record<string, number> = {};
  for (const r of models.server.requests.slice(from).filter(isOpinion)) n[r.system] = (n[r.system] ?? 0) + 1;
  return Object.values(n).sort();
}

describe('a fetchAll that fails as a whole', () => {
  it('keeps the answers that come back after it and asks again only the agent without one', async () => {
    const rt = await councilOnServer();
    // UrlFetchApp's 60 s, shortened through the runtime's test-only knob so the hang ends quickly.
    rt.fetchTimeoutMs = 500;
    let hangs = 0;
    models.server.plan = (r): Behavior =>
      isOpinion(r) && r.system.indexOf(PSYCH) >= 0 && hangs++ < 2 ? { fault: 'hang' } : {};
    const from = models.server.requests.length;
    await start(rt);
    await settle(rt);
    models.server.plan = () => ({});
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    // Psychology: the lost fetchAll, a time-out alone, then its answer. Everyone else: the lost fetchAll, then
    // one request alone whose answer is kept, never asked again.
    const counts = opinionsPerAgent(from);
    expect(counts.filter((n) => n === 3).length).toBe(1);
    expect(counts.filter((n) => n !== 3).every((n) => n === 2)).toBe(true);
    expect(counts.length).toBe(8);
    const psych = messages(rt).find((m) => m.speaker === 'psychology' && m.phase === 2)!;
    expect(psych.metadata.fallback_level).toBe(1);
    expect(psych.metadata.error_code).toBeUndefined();
  });
});

describe('the time budget', () => {
  // Phase 2's first round "takes" `seconds` of the runtime's clock, and psychology's first answer is `first`.
  function slowRound(rt: Runtime, seconds: number, first: Behavior): void {
    let moved = false;
    let failed = false;
    models.server.plan = (r): Behavior => {
      if (!isOpinion(r)) return {};
      if (!moved) {
        moved = true;
        rt.clock.advance(seconds * 1000);
      }
      if (r.system.indexOf(PSYCH) >= 0 && !failed) {
        failed = true;
        return first;
      }
      return {};
    };
  }

  it('re-queues the requests a late fetchAll lost instead of asking again past the tick budget', async () => {
    const rt = await councilOnServer();
    rt.fetchTimeoutMs = 500;
    slowRound(rt, 215, { fault: 'hang' });
    const from = models.server.requests.length;
    await start(rt);
    const tick = await rt.run('tick', [], { kind: 'trigger' });
    ok(tick);
    // The fetchAll failed as a whole ~217 s into a 270 s budget; asking again could run 60 s past 270 s, so no
    // request went out after it and the step went back to the queue.
    const opinions = models.server.requests.slice(from).filter(isOpinion);
    expect(opinions.filter((r) => r.system.indexOf(PSYCH) >= 0).length).toBe(1);
    expect(new Set(opinions.map((r) => r.system)).size).toBe(opinions.length);
    const task = records(rt, 'queue')[0];
    expect(task.status).toBe('queued');
    // Back no sooner than the budget's end (a cell keeps whole seconds), so this tick did not claim it again and again.
    expect((task.available_at as Date).getTime()).toBeGreaterThanOrEqual(tick.startedAt + 269_000);
    expect(tick.counts.fetches).toBe(models.server.requests.length - from);
    expect(tick.counts.fetches).toBeLessThanOrEqual(10);
    expect(messages(rt).some((m) => m.phase === 2)).toBe(false);
    expect(tick.endedAt - tick.startedAt).toBeLessThan(300_000);
    models.server.plan = () => ({});
    await settle(rt);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });

  it('starts no fetch so late in an execution that its answers could not be written, whatever the budget', async () => {
    const rt = await councilOnServer();
    // A budget past what the arithmetic allows: the transport's own backstop still holds.
    await setSetting(rt, 'queue.tick_budget_seconds', '340');
    slowRound(rt, 245, { status: 500 });
    const from = models.server.requests.length;
    await start(rt);
    const tick = await rt.run('tick', [], { kind: 'trigger' });
    ok(tick);
    // The retry would start ~246 s in: the tick budget allowed it, the 360 s execution limit does not.
    expect(models.server.requests.slice(from).filter((r) => isOpinion(r) && r.system.indexOf(PSYCH) >= 0).length).toBe(
      1,
    );
    const task = records(rt, 'queue')[0];
    expect(task.status).toBe('queued');
    expect((task.available_at as Date).getTime()).toBeGreaterThanOrEqual(tick.startedAt + 359_000);
    expect(tick.counts.fetches).toBe(models.server.requests.length - from);
    expect(tick.counts.fetches).toBeLessThanOrEqual(10);
    expect(messages(rt).some((m) => m.phase === 2)).toBe(false);
    expect(tick.timedOut).toBeFalsy();
    models.server.plan = () => ({});
    await settle(rt);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
  });
});
