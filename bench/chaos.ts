// The crash-safety bench: a discussion killed at each service call in turn, under write batching, with cache entries
// lost early, untidy triggers (skipped, doubled, overlapping, up to 10 minutes late) and locks in random order.
import { Runtime, type ExecutionResult } from '../runtime/runtime.js';
import { demoTrigger } from '../src/core/demo-data.js';
import type { TabKey } from '../sheets-schema/index.js';
import { tabRows } from '../tools/tab-rows.js';

export interface ChaosResult {
  kills: number;
  calls_per_tick: number;
  write_batching: true;
  // Every call took its modelled time (runtime/host/time-model.ts), always on.
  time_model: true;
  lost_writes_total: number;
  lost_rows: number;
  duplicated_rows: number;
  verify_failures: number;
  mismatches: number;
  // Cache entries the runtime dropped before their time (runtime/host/cache-store.ts).
  cache_misses: number;
  // What untidy triggers injected while the killed runs were finished by the triggers (runtime/host/triggers.ts).
  untidy_triggers: { overlaps: number; skips: number; doubles: number; late: number };
  lock_order: 'random' | 'fifo';
}

// The harsher modes the runtime offers, all on.
const CHAOS_OPTIONS = {
  cacheMiss: { rate: 0.2, seed: 17 },
  lockOrder: { order: 'random' as const, seed: 23 },
  triggerDelays: { seed: 29, afterMaxMs: 10 * 60_000, untidy: 0.2 },
};

function must(r: ExecutionResult): unknown {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.message}`);
  return r.value;
}

// The rows of a tab, without the columns that differ between runs by construction (times, hashes).
function rows(rt: Runtime, key: TabKey, keep: string[]): string[] {
  return tabRows(rt, key).map((r) => JSON.stringify(keep.map((k) => r[k])));
}

// What must come out the same as the undisturbed run: ids, speakers, statuses, and the audit events.
function record(rt: Runtime): Record<string, string[]> {
  return {
    messages: rows(rt, 'messages', ['message_id', 'chunk', 'speaker', 'message_type', 'fallback_level']),
    orders: rows(rt, 'orders', ['order_id', 'decision_id', 'target_agent', 'action_json', 'status']),
    discussions: rows(rt, 'discussions', ['discussion_id', 'status', 'participants_json', 'execution_status']),
    audit: rows(rt, 'audit', ['seq', 'actor', 'event', 'tab', 'row_key']),
    queue: rows(rt, 'queue', ['id', 'type', 'status']),
  };
}

// Rows of the undisturbed run missing after a kill and resume, and rows present more often than they should be.
function compare(want: Record<string, string[]>, got: Record<string, string[]>): { lost: number; dup: number } {
  let lost = 0;
  let dup = 0;
  for (const tab of Object.keys(want)) {
    const count = (xs: string[]) => {
      const m = new Map<string, number>();
      for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
      return m;
    };
    const w = count(want[tab]);
    const g = count(got[tab]);
    for (const [k, n] of w) lost += Math.max(0, n - (g.get(k) ?? 0));
    for (const [k, n] of g) dup += Math.max(0, n - (w.get(k) ?? 0));
  }
  return { lost, dup };
}

// Whatever the killed run left is finished by the triggers themselves (the nudge, the backstop), untidy as they are.
async function settle(rt: Runtime): Promise<void> {
  const busy = () =>
    rows(rt, 'discussions', ['status']).some((s) => /OPEN|IN_PROGRESS|VOTING/.test(s)) ||
    rows(rt, 'queue', ['status']).some((s) => /queued|processing|failed/.test(s));
  // A run whose backstop tick was skipped or whose nudge came late still ends within a few hours of clock.
  for (let i = 0; i < 6 && busy(); i++) {
    await rt.runTriggers(() => !busy(), { maxClockMs: 3600_000 });
    if (busy()) must(await rt.run('tick', [], { kind: 'trigger' }));
  }
}

export async function chaosBench(startAt: number): Promise<ChaosResult> {
  const rt = new Runtime({ startAt, ...CHAOS_OPTIONS });
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    must(await rt.run('startDiscussion', [demoTrigger()], { kind: 'server' }));
    const base = rt.snapshot();
    const undisturbed = await rt.run('tick', [], { kind: 'trigger' });
    must(undisturbed);
    const want = record(rt);
    const calls = undisturbed.counts.calls;
    const out: ChaosResult = {
      kills: 0,
      calls_per_tick: calls,
      write_batching: true,
      time_model: true,
      lost_writes_total: 0,
      lost_rows: 0,
      duplicated_rows: 0,
      verify_failures: 0,
      mismatches: 0,
      cache_misses: 0,
      untidy_triggers: { overlaps: 0, skips: 0, doubles: 0, late: 0 },
      lock_order: rt.locks.order,
    };
    for (let k = 1; k <= calls; k++) {
      rt.restore(base);
      const r = await rt.run('tick', [], { kind: 'trigger', killAtCall: k });
      if (!r.killed) break;
      out.kills++;
      out.lost_writes_total += r.lostWrites ?? 0;
      await settle(rt);
      const got = record(rt);
      const { lost, dup } = compare(want, got);
      out.lost_rows += lost;
      out.duplicated_rows += dup;
      if (lost || dup || JSON.stringify(got) !== JSON.stringify(want)) out.mismatches++;
      const audit = must(await rt.run('verifyAudit', [], { kind: 'editor' })) as { ok: boolean };
      if (!audit.ok) out.verify_failures++;
    }
    out.cache_misses = rt.cacheMisses.injected;
    out.untidy_triggers = { ...rt.triggers.untidy };
    return out;
  } finally {
    await rt.close();
  }
}
