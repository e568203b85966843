// Entry points that show Kaigi's HTML surfaces: the sidebar, the start dialog, settings, API clients, help.
import { t } from '../core/i18n.js';
import { htmlInclude, showHtml, tellUser, userLang } from '../adapters/gas/ui.js';
import { requireRole } from '../app/surfaces/access.js';

export function openSidebar(): void {
  const lang = userLang();
  showHtml('sidebar', t('sidebarTitle', lang), 'sidebar', { lang });
}

export function showStartDialog(): void {
  const lang = userLang();
  showHtml('start', t('startTitle', lang), 'dialog', { lang });
}

// The settings dialog is the admins' (its every call checks again): others are told at once, not at each field.
export function showSettings(): void {
  requireRole('showSettings', 'admin');
  const lang = userLang();
  showHtml('settings', t('settingsTitle', lang), 'dialog', { lang });
}

// The settings dialog, opened at its API clients section.
export function showApiClients(): void {
  requireRole('showApiClients', 'admin');
  const lang = userLang();
  showHtml('settings', t('apiClients', lang), 'dialog', { lang, section: 'api-clients' });
}

export function showHelp(): void {
  const lang = userLang();
  tellUser(t('help', lang), t('helpText', lang));
}

// Templates call this by name from a scriptlet (<?!= include('sidebar-js-core') ?>), so it must be a global.
export function include(name: string): string {
  return htmlInclude(name);
}
