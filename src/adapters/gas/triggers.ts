// Kaigi's triggers through ScriptApp, and the Script Property that says which account owns them.
import { PROPERTY_KEYS } from '../../core/property-keys.js';
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
} from '../../core/trigger-plan.js';

// Creates what is missing from `wanted` among this account's triggers (the only ones ScriptApp shows it) and
// deletes duplicates and the handlers named in `replace`.
export function installTriggers(
  wanted: readonly WantedTrigger[] = wantedTriggers(),
  replace: readonly string[] = [],
): TriggerPlan {
  const existing = ScriptApp.getProjectTriggers();
  const plan = planTriggers(
    existing.map((t) => ({
      id: t.getUniqueId(),
      handler: t.getHandlerFunction(),
      eventType: String(t.getEventType()),
    })),
    wanted,
    replace,
  );
  for (const t of existing) if (plan.remove.indexOf(t.getUniqueId()) >= 0) ScriptApp.deleteTrigger(t);
  for (const w of plan.create) {
    if (w.kind === 'onEdit' || w.kind === 'onChange') {
      const b = ScriptApp.newTrigger(w.handler).forSpreadsheet(SpreadsheetApp.getActiveSpreadsheet());
      (w.kind === 'onEdit' ? b.onEdit() : b.onChange()).create();
      continue;
    }
    const b = ScriptApp.newTrigger(w.handler).timeBased();
    if (w.kind === 'everyMinutes') b.everyMinutes(w.value).create();
    else b.everyDays(1).atHour(w.value).create();
  }
  return plan;
}

// A spent one-shot trigger removes itself, so they never pile up toward the 20-trigger limit.
export function deleteTrigger(uid: string): void {
  for (const t of ScriptApp.getProjectTriggers()) if (t.getUniqueId() === uid) ScriptApp.deleteTrigger(t);
}

function removeHandlers(handlers: readonly string[]): number {
  let removed = 0;
  for (const t of ScriptApp.getProjectTriggers()) {
    if (handlers.indexOf(t.getHandlerFunction()) >= 0) {
      ScriptApp.deleteTrigger(t);
      removed++;
    }
  }
  return removed;
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
  return parseClaim(PropertiesService.getScriptProperties().getProperty(PROPERTY_KEYS.workers));
}

export function writeClaim(claim: WorkersClaim): void {
  propertiesWritten();
  PropertiesService.getScriptProperties().setProperty(PROPERTY_KEYS.workers, JSON.stringify(claim));
}

export function releaseClaim(): void {
  propertiesWritten();
  PropertiesService.getScriptProperties().deleteProperty(PROPERTY_KEYS.workers);
}

// Every Script Property in one call: what a backstop tick reads to decide whether it has anything to do.
export function allScriptProperties(): Record<string, string> {
  return PropertiesService.getScriptProperties().getProperties();
}
