// Any server that speaks OpenAI's Chat Completions (a gateway, llama.cpp, Ollama, vLLM): no endpoint of its own, the
// key optional, and the schema in a dialect grammar engines accept and enforce.
import { vendorKeyProperty } from '../../property-keys.js';
import { defineVendor } from '../vendors.js';
import { grammarSchema } from './grammar-dialect.js';
import { compatibleChat } from './openai.js';

export const openaiCompatible = defineVendor({
  name: 'openai-compatible',
  wire: compatibleChat(grammarSchema),
  keyProperty: vendorKeyProperty('openai-compatible'),
  envKey: 'KAIGI_API_KEY',
  defaultBaseUrl: '',
  defaultModel: 'llama3.1',
  baseUrlSetting: 'provider.base_url',
  needs: { key: false, baseUrl: true },
  warmsCache: false,
});
