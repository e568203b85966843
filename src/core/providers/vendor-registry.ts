// The model vendors Kaigi can call, one entry each: wire format, key property, base URL and what a call needs.
import { vendorKeyProperty } from '../property-keys.js';
import type { Settings } from '../settings.js';
import type { Vendor } from './schema.js';

export interface VendorEntry {
  name: Vendor;
  // The wire format HttpProvider speaks for this vendor.
  wire: Vendor;
  // Script Property holding the key, and the environment variable the command line reads it from.
  keyProperty: string;
  envKey: string;
  baseUrl(s: Settings): string;
  // Why a call cannot be made with this key and base URL, or null when it can.
  missing(x: { key: string; baseUrl: string }): string | null;
}

function keyed(name: Vendor, envKey: string): VendorEntry {
  return {
    name,
    wire: name,
    keyProperty: vendorKeyProperty(name),
    envKey,
    baseUrl: (s) => s.get<Record<string, string>>('provider.base_urls')[name] ?? '',
    missing: ({ key }) => (key ? null : 'no API key is set'),
  };
}

export const VENDORS: readonly VendorEntry[] = [
  keyed('openai', 'OPENAI_API_KEY'),
  keyed('anthropic', 'ANTHROPIC_API_KEY'),
  keyed('gemini', 'GEMINI_API_KEY'),
  {
    name: 'openai-compatible',
    wire: 'openai-compatible',
    keyProperty: vendorKeyProperty('openai-compatible'),
    envKey: 'KAIGI_API_KEY',
    baseUrl: (s) => s.raw('provider.base_url'),
    missing: ({ baseUrl }) => (baseUrl ? null : 'no base URL is set (Settings: provider.base_url)'),
  },
];

export function findVendor(name: string): VendorEntry | undefined {
  return VENDORS.find((v) => v.name === name);
}
