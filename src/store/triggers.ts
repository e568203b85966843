// Kaigi's triggers through the triggers port (ScriptApp in Apps Script), and the Script Property that says which account owns them.
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { propertiesWritten } from './property-reads.js';
import {
  KAIGI_HANDLERS,
  parseClaim,
  planTriggers,
  WORKER_HANDLERS,
  wantedTriggers,
  type TriggerPlan,
  type WantedTrigger,
  type WorkersClaim,
} from '../core/trigger-plan.js';
import { ports } from '../ports.js';

// Creates what is missing from `wanted` among this account's triggers (the only ones ScriptApp shows it) and
// deletes duplicates and the handlers named in `replace`.
export function installTriggers(
  wanted: readonly WantedTrigger[] = wantedTriggers(),
  replace: readonly string[] = [],
): TriggerPlan {
  const triggers = ports().triggers;
  const plan = planTriggers(triggers.list(), wanted, replace);
  if (plan.remove.length) triggers.remove(plan.remove);
  for (const w of plan.create) triggers.create(w);
  return plan;
}

// A spent one-shot trigger removes itself, so they never pile up toward the 20-trigger limit.
export function deleteTrigger(uid: string): void {
  ports().triggers.remove([uid]);
}

function removeHandlers(handlers: readonly string[]): number {
  const triggers = ports().triggers;
  const ids = triggers
    .list()
    .filter((t) => handlers.indexOf(t.handler) >= 0)
    .map((t) => t.id);
  if (ids.length) triggers.remove(ids);
  return ids.length;
}

// Removes only Kaigi's own triggers of this account; other triggers of the project stay.
export function removeTriggers(): number {
  return removeHandlers(KAIGI_HANDLERS);
}

// Removes this account's recurring workers (backstop, daily jobs, on-edit), keeping any pending nudge.
export function removeWorkerTriggers(): number {
  return removeHandlers(WORKER_HANDLERS);
}

// ---- the ownership claim (trigger-plan.ts explains the hand-over) --------------------------------

export function readClaim(): WorkersClaim | null {
  return parseClaim(ports().properties.getProperty(PROPERTY_KEYS.workers));
}

export function writeClaim(claim: WorkersClaim): void {
  propertiesWritten();
  ports().properties.setProperty(PROPERTY_KEYS.workers, JSON.stringify(claim));
}

export function releaseClaim(): void {
  propertiesWritten();
  ports().properties.deleteProperty(PROPERTY_KEYS.workers);
}

// Every Script Property in one call: what a backstop tick reads to decide whether it has anything to do.
export function allScriptProperties(): Record<string, string> {
  return ports().properties.getProperties();
}
