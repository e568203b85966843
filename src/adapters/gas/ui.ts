// The Sheets UI: menu, sidebar, dialogs and alerts; absent in trigger and web-app executions.
import { langOf, t, type Lang } from '../../core/i18n.js';

export function userLang(): Lang {
  return langOf(Session.getActiveUserLocale());
}

export function buildMenu(lang: Lang): void {
  SpreadsheetApp.getUi()
    .createMenu(t('menu', lang))
    .addItem(t('openSidebar', lang), 'openSidebar')
    .addItem(t('runQueue', lang), 'runQueueNow')
    .addItem(t('runWatcher', lang), 'dailyWatch')
    .addSeparator()
    .addItem(t('verifyAudit', lang), 'verifyAudit')
    .addItem(t('seedDemo', lang), 'seedDemoData')
    .addItem(t('setup', lang), 'setup')
    .addItem(t('settings', lang), 'showSettings')
    .addItem(t('takeOverWorkers', lang), 'takeOverWorkers')
    .addItem(t('handOverWorkers', lang), 'handOverWorkers')
    .addItem(t('help', lang), 'showHelp')
    .addToUi();
}

export function showHtml(file: string, title: string, mode: 'sidebar' | 'dialog', lang: Lang): void {
  const template = HtmlService.createTemplateFromFile(file);
  template.lang = lang;
  const out = template
    .evaluate()
    .setTitle(title)
    .setWidth(mode === 'sidebar' ? 320 : 480)
    .setHeight(520);
  if (mode === 'sidebar') SpreadsheetApp.getUi().showSidebar(out);
  else SpreadsheetApp.getUi().showModalDialog(out, title);
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
