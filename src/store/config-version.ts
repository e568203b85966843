// The configuration cache's version: one for every tab, and a tab's own beside it for Kaigi's changes of one tab.
import type { TabKey } from '../../sheets-schema/index.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { markChanged } from './change-stamp.js';
import { forgetGate } from './gate-cache.js';
import { propertiesWritten, readProperty } from './property-reads.js';
import { ports } from '../ports.js';
import { props } from './services.js';

const CONFIG_VERSION = PROPERTY_KEYS.configVersion;
const CONFIG_TAB_VERSION = PROPERTY_KEYS.configTabVersion;

// Settings, Agents or Prompts changed: the configuration cache's entries and the web API's gate (its limits) go.
// Given the tabs Kaigi itself just changed, only those tabs' entries go: each tab's own property gets a new token (a
// property per tab and a token, not a count, so two executions moving tabs at once cannot undo each other's move or
// land on the same next version). A person's edit or a change of the grid moves every tab on.
// Returns the tabs' new token (null when every tab moved on).
export function bumpConfigVersion(tabs?: readonly TabKey[]): string | null {
  propertiesWritten();
  const props = ports().properties;
  let token: string | null = null;
  if (tabs?.length) {
    token = versionToken();
    const own: Record<string, string> = {};
    for (const t of tabs) own[`${CONFIG_TAB_VERSION}${t}`] = token;
    props.setProperties(own);
  } else props.setProperty(CONFIG_VERSION, String(Number(props.getProperty(CONFIG_VERSION) ?? '0') + 1));
  forgetGate();
  markChanged();
  return token;
}

// A data tab Kaigi itself wrote (KPI), its rows already in the sheet: its cached copy goes (a new token under its own
// property, in the caller's property batch when one is open); the web API's gate does not depend on it.
export function bumpDataVersion(tab: TabKey): void {
  props.set({
    [`${CONFIG_TAB_VERSION}${tab}`]: versionToken(),
  });
}

// The version every tab's name starts with, as this execution last read it.
export function globalConfigVersion(): string {
  return readProperty(CONFIG_VERSION) ?? '0';
}

// The name a tab's cached copy goes under: the global version, then the tab's own when Kaigi has moved it.
export function configCacheName(key: TabKey): string {
  return configCacheNameAt(key, globalConfigVersion(), readProperty(`${CONFIG_TAB_VERSION}${key}`));
}

export function configCacheNameAt(key: TabKey, version: string, own: string | null): string {
  return own ? `kaigi:cfg:${version}.${own}:${key}` : `kaigi:cfg:${version}:${key}`;
}

// A new version: the time and the last 8 hex digits of a fresh id (random in a v4 UUID; the count in an ordered id
// source), so two versions made in the same millisecond still differ.
function versionToken(): string {
  return `${ports().clock.now().toString(36)}-${ports().ids.uuid().replace(/-/g, '').slice(-8)}`;
}
