// The Settings rows of embedding and model providers: which vendor and model, where, at what price, with what caps.
import { settingDef as s } from '../setting-def.js';
import { EMBEDDING_PROVIDERS } from './embeddings.js';
import { DEFAULT_CAPABILITIES, DEFAULT_OUTPUT_CAPS, DEFAULT_PRICES, PRICES_TAKEN } from './model-table.js';
import { registry as vendors } from './vendor-registry.js';

export const PROVIDER_SETTINGS = [
  s('embedding.provider', 'offline', 'string', `One of: ${EMBEDDING_PROVIDERS.join(', ')}`),
  s('embedding.model', 'kaigi-ngram-v1', 'string', 'Embedding model name'),
  s('embedding.dimensions', 256, 'integer', 'Embedding dimensions'),
  s(
    'provider.default',
    'rules',
    'string',
    `Provider for agents whose row names none: ${['rules', ...vendors.names()].join(', ')}`,
  ),
  s('provider.base_url', '', 'string', 'Base URL for the openai-compatible provider'),
  s(
    'provider.base_urls',
    vendors.baseUrlDefaults(),
    'json',
    "Base URL per vendor when calls go through a gateway; empty means the vendor's own endpoint",
  ),
  s(
    'provider.parallel',
    true,
    'boolean',
    'Call the agents of a phase in parallel (one fetchAll); false calls them one by one',
  ),
  s(
    'provider.fetch_concurrency',
    10,
    'integer',
    'Requests sent in one fetchAll; more agents go in further rounds, each started only if it can end in the time budget',
  ),
  s(
    'provider.default_models',
    // From each vendor module's default model.
    vendors.defaultModels(),
    'json',
    'Default model per provider',
  ),
  s(
    'provider.prices_per_1k_tokens_usd',
    DEFAULT_PRICES,
    'json',
    'Prices per 1,000 tokens, by provider:model: input and output, and the prices of a prompt token read from or written to the cache where the vendor has them; a default model missing here is priced from the defaults, and a model with no entry (nor a dated release of one) at its vendor’s dearest model here, which the Inbox says once. An openai-compatible model (a gateway, a local server) costs $0 toward the budget until given an entry such as "openai-compatible:<model>": {"input": 0.0006, "output": 0.0009}; the start dialog warns of one without',
  ),
  s(
    'provider.prices_taken',
    PRICES_TAKEN,
    'string',
    'When the price table’s default prices were read from the vendors’ pricing pages; check them there before relying on a budget, and update this row with the table',
  ),
  s(
    'provider.model_capabilities',
    DEFAULT_CAPABILITIES,
    'json',
    'What each model takes, by model name or its start (the longest match wins, field by field): whether it accepts a temperature, which field carries its output cap, the tokens added to the cap of models that think first, and the shortest prefix the vendor caches. A model not listed gets a temperature and its vendor’s cap field',
  ),
  s(
    'provider.max_output_tokens',
    DEFAULT_OUTPUT_CAPS,
    'json',
    "Output tokens one answer may take, by kind of answer (specialist opinion, decision, …), else by agent group, and room for an answer in a room; the cap in an agent's row comes first. An answer cut at its cap is asked again once with twice the cap",
  ),
];
