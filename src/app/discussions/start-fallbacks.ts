// Which agents would answer by rules instead of their model, and why, before a discussion starts: the provider each
// active agent would use (the override first, as ModelAccess.providerFor picks it) with no key or no base URL for it.
import { props } from '../../store/services.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { findVendor } from '../../core/providers/vendor-registry.js';
import { missingFor, settingsBaseUrl } from '../../core/providers/vendors.js';
import type { Settings } from '../../core/settings.js';
import type { AgentDef } from '../../core/types.js';

export interface RuleFallback {
  agent_id: string;
  name_ja: string;
  name_en: string;
  provider: string;
  // Why: no key (set in the settings dialog), no base URL (the Settings row named), or a provider Kaigi does not know.
  reason: 'no_key' | 'no_base_url' | 'unknown_provider';
  setting: string;
}

export function ruleFallbacks(agents: readonly AgentDef[], s: Settings): RuleFallback[] {
  const override = props.get(PROPERTY_KEYS.providerOverride);
  const spec = override ? (JSON.parse(override) as { provider: string; model?: string; base_url?: string }) : null;
  const out: RuleFallback[] = [];
  for (const a of agents) {
    if (!a.active) continue;
    const name = (spec ? spec.provider : a.model.split(':')[0]) || s.raw('provider.default');
    if (name === 'rules') continue;
    const base = { agent_id: a.agent_id, name_ja: a.name_ja, name_en: a.name_en, provider: name };
    const vendor = findVendor(name);
    if (!vendor) {
      out.push({ ...base, reason: 'unknown_provider', setting: '' });
      continue;
    }
    const key = props.get(vendor.keyProperty) ?? '';
    const problem = missingFor(vendor, { key, baseUrl: spec?.base_url || settingsBaseUrl(vendor, s) });
    if (!problem) continue;
    out.push(
      vendor.needs.key && !key
        ? { ...base, reason: 'no_key', setting: vendor.envKey }
        : { ...base, reason: 'no_base_url', setting: vendor.baseUrlSetting },
    );
  }
  return out;
}
