// A web app's JSON answer as Apps Script serves it (ContentService): the one step of doGet/doPost that names a service.
export function jsonOutput(body: unknown): GoogleAppsScript.Content.TextOutput {
  return ContentService.createTextOutput(JSON.stringify(body)).setMimeType(ContentService.MimeType.JSON);
}
