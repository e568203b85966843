// Entry points that show Kaigi's HTML surfaces: the sidebar, the start dialog, settings, API clients, help.
import { t } from '../core/i18n.js';
import { showHtml, tellUser, userLang } from '../adapters/gas/ui.js';

export function openSidebar(): void {
  const lang = userLang();
  showHtml('sidebar', t('sidebarTitle', lang), 'sidebar', lang);
}

export function showSettings(): void {
  const lang = userLang();
  showHtml('settings', t('settingsTitle', lang), 'dialog', lang);
}

export function showHelp(): void {
  const lang = userLang();
  tellUser(t('help', lang), t('helpText', lang));
}
