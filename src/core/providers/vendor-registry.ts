// The one list of model vendors: a new vendor is one module in vendors/ and one line in VENDORS; the rest derives.
import type { VendorModule } from './vendors.js';
import { anthropic } from './vendors/anthropic.js';
import { gemini } from './vendors/gemini.js';
import { openai } from './vendors/openai.js';
import { openaiCompatible } from './vendors/openai-compatible.js';

// The order is the order of every derived list: settings defaults, key status, the CLI's choice of a default.
const VENDORS = [openai, anthropic, gemini, openaiCompatible] as const;

export type Vendor = (typeof VENDORS)[number]['name'];

export interface VendorRegistry {
  readonly all: readonly VendorModule[];
  find(name: string): VendorModule | undefined;
  names(): string[];
  // Settings defaults: provider.default_models, and provider.base_urls for the vendors kept in that map.
  defaultModels(): Record<string, string>;
  baseUrlDefaults(): Record<string, string>;
  // Environment variable → Script Property, for the command line.
  envKeys(): Record<string, string>;
}

// A registry over any list, so a test can register a vendor of its own; names, keys and env keys must be unique.
export function vendorRegistry(list: readonly VendorModule[]): VendorRegistry {
  for (const field of ['name', 'keyProperty', 'envKey'] as const) {
    const seen = list.map((v) => v[field]);
    const twice = seen.find((x, i) => seen.indexOf(x) !== i);
    if (twice !== undefined) throw new Error(`two vendors share the ${field} "${twice}"`);
  }
  const map = (f: (v: VendorModule) => [string, string] | null): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const v of list) {
      const kv = f(v);
      if (kv) out[kv[0]] = kv[1];
    }
    return out;
  };
  return {
    all: list,
    find: (name) => list.find((v) => v.name === name),
    names: () => list.map((v) => v.name),
    defaultModels: () => map((v) => [v.name, v.defaultModel]),
    // Empty means the vendor's own endpoint.
    baseUrlDefaults: () => map((v) => (v.baseUrlSetting === 'provider.base_urls' ? [v.name, ''] : null)),
    envKeys: () => map((v) => [v.envKey, v.keyProperty]),
  };
}

export const registry = vendorRegistry(VENDORS);

export function findVendor(name: string): VendorModule | undefined {
  return registry.find(name);
}
