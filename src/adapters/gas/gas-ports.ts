// The platform ports as Apps Script provides them: the only module that hands its services to src/ports.ts.
import { setDefaultPorts, type Ports, type SpreadsheetPort, type TriggerSpec, type TriggersPort } from '../../ports.js';
import { ensureCharts } from './charts.js';
import { urlFetchPort } from './http-port.js';
import { applyTab } from './tabs.js';
import { upgradeTabs } from './tab-upgrade.js';

function sha256Hex(text: string): string {
  const bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8);
  let out = '';
  for (const b of bytes) out += ((b + 256) % 256).toString(16).padStart(2, '0');
  return out;
}

function createTrigger(w: TriggerSpec): void {
  if (w.kind === 'onEdit' || w.kind === 'onChange') {
    const b = ScriptApp.newTrigger(w.handler).forSpreadsheet(SpreadsheetApp.getActiveSpreadsheet());
    (w.kind === 'onEdit' ? b.onEdit() : b.onChange()).create();
    return;
  }
  const b = ScriptApp.newTrigger(w.handler).timeBased();
  if (w.kind === 'after') b.after(w.value).create();
  else if (w.kind === 'everyMinutes') b.everyMinutes(w.value).create();
  else b.everyDays(1).atHour(w.value).create();
}

const triggers: TriggersPort = {
  list: () =>
    ScriptApp.getProjectTriggers().map((t) => ({
      id: t.getUniqueId(),
      handler: t.getHandlerFunction(),
      eventType: String(t.getEventType()),
    })),
  remove(ids) {
    for (const t of ScriptApp.getProjectTriggers()) if (ids.indexOf(t.getUniqueId()) >= 0) ScriptApp.deleteTrigger(t);
  },
  create: createTrigger,
};

// Read when first asked, once per execution: each service is fetched from Apps Script only by a use that needs it.
function gasPorts(): Ports {
  return {
    get properties() {
      return PropertiesService.getScriptProperties();
    },
    get cache() {
      return CacheService.getScriptCache();
    },
    get lock() {
      return LockService.getScriptLock();
    },
    // Apps Script's own clock and ids (the local runtime gives the bundle a Date on its simulated clock).
    clock: { now: () => Date.now() },
    ids: { uuid: () => Utilities.getUuid(), random: () => Math.random() },
    host: {
      activeUserEmail: () => Session.getActiveUser().getEmail(),
      effectiveUserEmail: () => Session.getEffectiveUser().getEmail(),
      temporaryActiveUserKey: () => Session.getTemporaryActiveUserKey(),
      scriptTimeZone: () => Session.getScriptTimeZone(),
      sha256Hex,
      formatDate: (date, timeZone, pattern) => Utilities.formatDate(date, timeZone, pattern),
      sleep: (ms) => Utilities.sleep(Math.min(300000, Math.ceil(ms))),
      activeUserLocale: () => Session.getActiveUserLocale(),
      flushSheets: () => SpreadsheetApp.flush(),
      log: (text) => console.log(text),
    },
    // Every spreadsheet and sheet a store holds in Apps Script came from SpreadsheetApp, so the full API is there to
    // shape tabs and draw charts.
    spreadsheets: {
      active: () => SpreadsheetApp.getActiveSpreadsheet(),
      openById: (id) => SpreadsheetApp.openById(id),
      create: (name) => SpreadsheetApp.create(name),
    },
    fetch: urlFetchPort,
    triggers,
    charts: {
      ensure: (sheet, specs, known) => ensureCharts(sheet as GoogleAppsScript.Spreadsheet.Sheet, specs, known),
    },
    tabs: {
      upgrade: (ss: SpreadsheetPort) => upgradeTabs(ss as GoogleAppsScript.Spreadsheet.Spreadsheet),
      apply: applyTab,
    },
  };
}

setDefaultPorts(gasPorts);
