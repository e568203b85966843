// Installs and removes Kaigi's time-driven triggers through ScriptApp.
import { KAIGI_HANDLERS, planTriggers, type TriggerPlan } from '../../core/trigger-plan.js';

export function installTriggers(): TriggerPlan {
  const existing = ScriptApp.getProjectTriggers();
  const plan = planTriggers(
    existing.map((t) => ({
      id: t.getUniqueId(),
      handler: t.getHandlerFunction(),
      eventType: String(t.getEventType()),
    })),
  );
  for (const t of existing) if (plan.remove.indexOf(t.getUniqueId()) >= 0) ScriptApp.deleteTrigger(t);
  for (const w of plan.create) {
    if (w.kind === 'onEdit') {
      ScriptApp.newTrigger(w.handler).forSpreadsheet(SpreadsheetApp.getActiveSpreadsheet()).onEdit().create();
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

// Removes only Kaigi's own triggers; other triggers of the project stay.
export function removeTriggers(): number {
  let removed = 0;
  for (const t of ScriptApp.getProjectTriggers()) {
    if (KAIGI_HANDLERS.indexOf(t.getHandlerFunction()) >= 0) {
      ScriptApp.deleteTrigger(t);
      removed++;
    }
  }
  return removed;
}
