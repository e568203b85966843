// Shared setup for the steer tests: a workbook with an escalated discussion (its ethics alert in the Inbox).
import type { Runtime } from '../../../runtime/runtime.js';
import { council, settle, start, statuses, surveillance } from '../../council-helpers.js';

// Hostile text a person or a model may write: it must come back exactly, as text.
export const HOSTILE = '<img src=x onerror=alert(1)> =IMPORTXML("http://x","//a")';

export async function escalated(member = 'tanaka'): Promise<{ rt: Runtime; id: string }> {
  const rt = await council();
  await start(rt, surveillance(member));
  await settle(rt);
  const [id] = Object.keys(statuses(rt));
  if (statuses(rt)[id] !== 'ESCALATED') throw new Error(`expected ${id} ESCALATED, got ${statuses(rt)[id]}`);
  return { rt, id };
}

export async function call(rt: Runtime, fn: string, ...args: unknown[]): Promise<any> {
  return rt.callServer(fn, ...args);
}
