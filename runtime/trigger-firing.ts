// Firing the clock triggers that are due: in time order, one execution each, or untidily (skipped, doubled, side by
// side) when the runtime's trigger delays say so (host/triggers.ts).
import type { ExecutionResult } from './execution-types.js';
import type { Clock } from './host/clock.js';
import type { Journal } from './host/journal.js';
import type { TriggerModel, TriggerStore } from './host/triggers.js';
import { zoneOffsetMinutes } from './host/values.js';

export interface FiringHost {
  readonly triggers: TriggerStore;
  readonly clock: Clock;
  readonly journal: Journal | undefined;
  readonly manifest: { timeZone: string };
  fireTrigger(t: TriggerModel): Promise<ExecutionResult>;
}

export async function fireDueTriggers(host: FiringHost): Promise<ExecutionResult[]> {
  const out: ExecutionResult[] = [];
  const untidy = (host.triggers.delays.untidy ?? 0) > 0;
  const together: Promise<ExecutionResult>[] = [];
  const zone = (time: number) => zoneOffsetMinutes(time, host.manifest.timeZone) * 60000;
  for (const t of host.triggers.due(host.clock.now())) {
    const plan = host.triggers.plan(t);
    host.triggers.markFired(t, host.clock.now(), zone);
    host.journal?.append({ k: 'triggers', list: structuredClone(host.triggers.triggers) });
    if (plan === 'skip') continue;
    for (let i = 0; i < (plan === 'double' ? 2 : 1); i++) {
      // Untidy: everything due now starts before any of it ends, as overlapping executions on Google can.
      if (untidy) together.push(host.fireTrigger(t));
      else out.push(await host.fireTrigger(t));
    }
  }
  if (together.length > 1) host.triggers.untidy.overlaps += together.length - 1;
  out.push(...(await Promise.all(together)));
  return out;
}
