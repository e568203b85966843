// Lookup over the tab definitions by key and by English or Japanese name.
import { TABS } from './tabs.js';
import type { TabKey } from './rows.js';

export * from './tabs.js';
export * from './types.js';
export * from './rows.js';

export type TabDef = (typeof TABS)[number];

export function tabByKey(key: TabKey): TabDef {
  const t = TABS.find((x) => x.key === key);
  if (!t) throw new Error(`unknown tab ${key}`);
  return t;
}

export function tabByName(name: string): TabDef | undefined {
  const n = name.trim().toLowerCase();
  return TABS.find((t) => t.key === n || t.name.toLowerCase() === n || t.nameJa === name.trim());
}
