// The Sheets UI: menu, sidebar, dialogs and alerts; absent in trigger and web-app executions.
import { langOf, t, type Lang } from '../../core/i18n.js';
import { labelsFor } from '../../core/labels.js';
import { scriptZone } from '../../store/records.js';
import { sheetZone } from '../../store/spreadsheet.js';
import { ports } from '../../ports.js';

export function userLang(): Lang {
  return langOf(ports().host.activeUserLocale());
}

// The everyday items first; the occasional tools (KPI watch, demo data, worker ownership) sit in a submenu.
export function buildMenu(lang: Lang): void {
  const ui = SpreadsheetApp.getUi();
  const more = ui
    .createMenu(t('moreTools', lang))
    .addItem(t('runWatcher', lang), 'dailyWatch')
    .addItem(t('seedDemo', lang), 'seedDemoData')
    .addItem(t('takeOverWorkers', lang), 'takeOverWorkers')
    .addItem(t('handOverWorkers', lang), 'handOverWorkers');
  ui.createMenu(t('menu', lang))
    .addItem(t('startDiscussion', lang), 'showStartDialog')
    .addItem(t('openSidebar', lang), 'openSidebar')
    .addItem(t('runQueue', lang), 'runQueueNow')
    .addItem(t('refreshDashboard', lang), 'refreshDashboard')
    .addSeparator()
    .addItem(t('setup', lang), 'setup')
    .addItem(t('settings', lang), 'showSettings')
    .addItem(t('apiClients', lang), 'showApiClients')
    .addItem(t('verifyAudit', lang), 'verifyAudit')
    .addItem(t('help', lang), 'showHelp')
    .addSeparator()
    .addSubMenu(more)
    .addToUi();
}

// Template fields a page reads: its language and, for the settings dialog, the section to open at.
interface PageFields {
  lang: Lang;
  section?: string;
}

const SIZES = { sidebar: { width: 300, height: 600 }, dialog: { width: 520, height: 600 } };

export function showHtml(file: string, title: string, mode: 'sidebar' | 'dialog', fields: PageFields): void {
  const template = HtmlService.createTemplateFromFile(file);
  template.lang = fields.lang;
  template.section = fields.section || '';
  // The spreadsheet's time zone (the script's when the spreadsheet names none): every time the page shows is in it,
  // whatever zone the browser is in.
  template.zone = sheetZone() || scriptZone();
  // Every enum's labels in the page's language, so the page shows labels without asking the server again; `<` is
  // escaped so the JSON cannot end the <script> it sits in.
  template.labels = JSON.stringify(labelsFor(fields.lang)).replace(/</g, '\\u003c');
  const size = SIZES[mode];
  const out = template.evaluate().setTitle(title).setWidth(size.width).setHeight(size.height);
  if (mode === 'sidebar') SpreadsheetApp.getUi().showSidebar(out);
  else SpreadsheetApp.getUi().showModalDialog(out, title);
}

// The raw content of an include file (CSS or <script>), for a template's <?!= include('name') ?>. Only files whose
// names say they are includes may be pulled in, so this global cannot hand a page's template source to a caller.
export function htmlInclude(name: string): string {
  const file = String(name);
  if (!/^(sidebar|start|settings)-[a-z0-9-]+$/.test(file)) throw new Error(`not an include file: ${file}`);
  return HtmlService.createHtmlOutputFromFile(file).getContent();
}

// Shows a message when a person is looking; silently does nothing in a trigger execution.
export function tellUser(title: string, message: string): boolean {
  let ui: GoogleAppsScript.Base.Ui;
  try {
    ui = SpreadsheetApp.getUi();
  } catch {
    return false;
  }
  ui.alert(title, message, ui.ButtonSet.OK);
  return true;
}
