// API keys in Script Properties: written by the settings dialog, never returned to a client.

export const PROVIDERS_WITH_KEYS = ['openai', 'anthropic', 'gemini', 'openai-compatible'] as const;
export type KeyedProvider = (typeof PROVIDERS_WITH_KEYS)[number];

export function keyProperty(provider: KeyedProvider): string {
  return `KAIGI_KEY_${provider.toUpperCase().replace(/-/g, '_')}`;
}

export function saveKey(provider: string, key: string): void {
  if ((PROVIDERS_WITH_KEYS as readonly string[]).indexOf(provider) < 0)
    throw new Error(`unknown provider: ${provider}`);
  const props = PropertiesService.getScriptProperties();
  const name = keyProperty(provider as KeyedProvider);
  if (key) props.setProperty(name, key);
  else props.deleteProperty(name);
}

export function keyStatus(): Record<string, boolean> {
  const all = PropertiesService.getScriptProperties().getProperties();
  const out: Record<string, boolean> = {};
  for (const p of PROVIDERS_WITH_KEYS) out[p] = !!all[keyProperty(p)];
  return out;
}
