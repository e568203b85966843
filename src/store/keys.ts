// API keys in Script Properties: written by the settings dialog, never returned to a client.
import { findVendor, registry } from '../core/providers/vendor-registry.js';
import { markChanged } from './change-stamp.js';
import { propertiesWritten } from './property-reads.js';
import type { Store } from './store.js';
import { ports } from '../ports.js';

// The Script Property of a registered vendor's key (embeddings reuse the chat vendors' keys).
export function keyProperty(provider: string): string {
  const v = findVendor(provider);
  if (!v) throw new Error(`unknown provider: ${provider}`);
  return v.keyProperty;
}

// Under the script lock with an audit row naming the vendor, whether the key was set or removed, and who did it —
// never the key, its length or a hash of it. Recorded first, then written: an execution killed in between leaves an
// audited change that did not happen (the status shows it), never a key nobody recorded.
export function saveKey(store: Store, provider: string, key: string, by: string): void {
  const name = keyProperty(provider);
  const vendor = findVendor(provider)!.name;
  store.withLock((state) => {
    const c = store.begin(state, by);
    c.audit({ actor: by, event: key ? 'api_key_set' : 'api_key_removed', tab: '', row_key: vendor, payload: {} });
    c.run(new Date().toISOString());
    const props = ports().properties;
    propertiesWritten();
    if (key) props.setProperty(name, key);
    else props.deleteProperty(name);
    // An agent's model with or without its key is what GET /status shows as in error or not.
    markChanged();
  });
}

// Which vendors have a key, in registry order: the settings dialog draws one field per entry.
export function keyStatus(): Record<string, boolean> {
  const all = ports().properties.getProperties();
  const out: Record<string, boolean> = {};
  for (const v of registry.all) out[v.name] = !!all[v.keyProperty];
  return out;
}
