// API keys in Script Properties: written by the settings dialog, never returned to a client.
import { findVendor, registry } from '../../core/providers/vendor-registry.js';

// The Script Property of a registered vendor's key (embeddings reuse the chat vendors' keys).
export function keyProperty(provider: string): string {
  const v = findVendor(provider);
  if (!v) throw new Error(`unknown provider: ${provider}`);
  return v.keyProperty;
}

export function saveKey(provider: string, key: string): void {
  const name = keyProperty(provider);
  const props = PropertiesService.getScriptProperties();
  if (key) props.setProperty(name, key);
  else props.deleteProperty(name);
}

// Which vendors have a key, in registry order: the settings dialog draws one field per entry.
export function keyStatus(): Record<string, boolean> {
  const all = PropertiesService.getScriptProperties().getProperties();
  const out: Record<string, boolean> = {};
  for (const v of registry.all) out[v.name] = !!all[v.keyProperty];
  return out;
}
