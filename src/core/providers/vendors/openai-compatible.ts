// Any server that speaks OpenAI's Chat Completions (a gateway, Ollama, vLLM): no endpoint of its own, the key optional.
import { vendorKeyProperty } from '../../property-keys.js';
import { defineVendor } from '../vendors.js';
import { chatCompletions } from './openai.js';

export const openaiCompatible = defineVendor({
  name: 'openai-compatible',
  wire: chatCompletions,
  keyProperty: vendorKeyProperty('openai-compatible'),
  envKey: 'KAIGI_API_KEY',
  defaultBaseUrl: '',
  defaultModel: 'llama3.1',
  baseUrlSetting: 'provider.base_url',
  needs: { key: false, baseUrl: true },
});
