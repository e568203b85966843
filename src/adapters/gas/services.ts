// The small Apps Script services the use cases need, so src/app never names a service itself.

export const props = {
  get(key: string): string | null {
    return PropertiesService.getScriptProperties().getProperty(key);
  },
  json<T>(key: string, fallback: T): T {
    const raw = PropertiesService.getScriptProperties().getProperty(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  },
  set(values: Record<string, string>): void {
    PropertiesService.getScriptProperties().setProperties(values);
  },
};

export function uuid(): string {
  return Utilities.getUuid();
}

export function sleep(ms: number): void {
  Utilities.sleep(Math.min(300000, Math.ceil(ms)));
}

export function activeUserEmail(): string {
  return Session.getActiveUser().getEmail();
}

// A one-shot trigger for `handler` in `delayMs`, replacing spent ones of the same handler.
export function scheduleOnce(handler: string, delayMs: number, pendingUntil: number): boolean {
  const pending = ScriptApp.getProjectTriggers().filter((t) => t.getHandlerFunction() === handler);
  if (pending.length && pendingUntil > Date.now() - 120000) return false;
  for (const t of pending) ScriptApp.deleteTrigger(t);
  ScriptApp.newTrigger(handler).timeBased().after(delayMs).create();
  return true;
}

export function jsonOutput(body: unknown): GoogleAppsScript.Content.TextOutput {
  return ContentService.createTextOutput(JSON.stringify(body)).setMimeType(ContentService.MimeType.JSON);
}
