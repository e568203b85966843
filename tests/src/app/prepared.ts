// A runtime state several tests start from (a DECIDED discussion, a simulated fortnight), made once per worker (the
// bundle project keeps modules from file to file) and restored into a fresh runtime for each test, as
// tests/council-helpers.ts's council() does for setup. A name stands for one state in every file that uses it.
import type { Runtime, RuntimeOptions, RuntimeSnapshot } from '../../../runtime/runtime.js';
import { expect } from 'vitest';
import { council, settle, start, statuses } from '../../council-helpers.js';
import { newRuntime } from '../../helpers.js';
import { simulate } from '../../../tools/demo-team.js';

interface Made<T> {
  snapshot: RuntimeSnapshot;
  // The clock's reading when the state was made: the clock runs on with real time in between.
  at: number;
  executions: Runtime['executions'];
  logs: Runtime['logs'];
  ui: Runtime['ui'];
  value: T;
}

const made = new Map<string, Made<unknown>>();

// The runtime `make` leaves (and the value it returns), made by the first call with this name in the file; later
// calls get a fresh runtime holding a copy of that state, its clock where the first one's ended, so a test can change
// its copy freely. `opts`: the options `make`'s runtime was made with (its users, say), for the fresh ones.
export async function prepared<T>(
  name: string,
  make: () => Promise<{ rt: Runtime; value: T }>,
  opts: RuntimeOptions = {},
): Promise<{ rt: Runtime; value: T }> {
  const m = made.get(name) as Made<T> | undefined;
  if (!m) {
    const { rt, value } = await make();
    keep(name, rt, value);
    return { rt, value };
  }
  const rt = newRuntime(opts);
  rt.restore(m.snapshot);
  rt.clock.setOffset(m.at - Date.now());
  rt.executions.push(...structuredClone(m.executions));
  rt.logs.push(...structuredClone(m.logs));
  for (const k of Object.keys(m.ui) as (keyof Runtime['ui'])[])
    (rt.ui[k] as unknown[]).push(...structuredClone(m.ui[k]));
  return { rt, value: structuredClone(m.value) };
}

// Keeps `rt`'s state now as the state `prepared(name, …)` makes, when a longer run passes through it on its way (a
// 60-day simulation at the end of its 14th day, say), so the later tests that start from it need not make it again.
// `ahead`: how far the clock of the state is ahead of `rt`'s now (the run moves it on after the point it keeps). The
// first state kept or made under a name is the one kept.
export function keep<T>(name: string, rt: Runtime, value: T, ahead = 0): void {
  if (made.has(name)) return;
  made.set(name, {
    snapshot: rt.snapshot(),
    at: rt.clock.now() + ahead,
    executions: structuredClone(rt.executions),
    logs: structuredClone(rt.logs),
    ui: structuredClone(rt.ui),
    value: structuredClone(value),
  });
}

// A set-up council with one discussion run from `trigger` to DECIDED, made once per file; with its id.
export async function decided(trigger: object): Promise<{ rt: Runtime; id: string }> {
  // Keyed by the trigger: the bundle project keeps modules from file to file in a worker, and files start from
  // different triggers.
  const { rt, value: id } = await prepared(`decided ${JSON.stringify(trigger)}`, async () => {
    const rt = await council();
    await start(rt, trigger);
    await settle(rt);
    return { rt, value: Object.keys(statuses(rt))[0] };
  });
  expect(statuses(rt)).toEqual({ [id]: 'DECIDED' });
  return { rt, id };
}

// A fortnight of the demo team (simulate's seed 42), made once: the same state as review/case-check.test.ts and
// embeddings.test.ts make under this name, and as memory.test.ts's sixty-day run keeps at the end of its 14th day.
export const fortnight = () =>
  prepared('fortnight', async () => {
    const rt = await council();
    await simulate(rt, 14, 42);
    return { rt, value: null };
  });
