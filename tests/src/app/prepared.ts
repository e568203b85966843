// A runtime state several tests of a file start from (a DECIDED discussion, a simulated fortnight), made once per
// file and restored into a fresh runtime for each test, as tests/council-helpers.ts's council() does for setup.
import type { Runtime, RuntimeOptions, RuntimeSnapshot } from '../../../runtime/runtime.js';
import { expect } from 'vitest';
import { council, settle, start, statuses } from '../../council-helpers.js';
import { newRuntime } from '../../helpers.js';

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
    made.set(name, {
      snapshot: rt.snapshot(),
      at: rt.clock.now(),
      executions: structuredClone(rt.executions),
      logs: structuredClone(rt.logs),
      ui: structuredClone(rt.ui),
      value: structuredClone(value),
    });
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

// A set-up council with one discussion run from `trigger` to DECIDED, made once per file; with its id.
export async function decided(trigger: object): Promise<{ rt: Runtime; id: string }> {
  const { rt, value: id } = await prepared('decided', async () => {
    const rt = await council();
    await start(rt, trigger);
    await settle(rt);
    return { rt, value: Object.keys(statuses(rt))[0] };
  });
  expect(statuses(rt)).toEqual({ [id]: 'DECIDED' });
  return { rt, id };
}
