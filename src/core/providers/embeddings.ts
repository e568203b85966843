// Embedding APIs: OpenAI's /embeddings (with dimensions) and Gemini's batchEmbedContents (outputDimensionality).
import { join, type WireRequest } from './vendors.js';

// What Settings embedding.provider takes: the offline feature hashing (src/core/memory/embedding.ts, no key, no network) or a
// vendor whose embedding API buildEmbedding speaks. The one list: the setting's description and the settings
// dialog's choices are made from it.
export const EMBEDDING_PROVIDERS = ['offline', 'openai', 'gemini'] as const;
export type EmbeddingVendor = Exclude<(typeof EMBEDDING_PROVIDERS)[number], 'offline'>;

export function buildEmbedding(
  vendor: EmbeddingVendor,
  model: string,
  dims: number,
  texts: string[],
  key: string,
  baseUrl: string,
): WireRequest {
  if (vendor === 'gemini') {
    const base = baseUrl || 'https://generativelanguage.googleapis.com/v1beta';
    return {
      url: join(base, `/models/${encodeURIComponent(model)}:batchEmbedContents`),
      method: 'post',
      contentType: 'application/json',
      headers: { 'x-goog-api-key': key },
      payload: JSON.stringify({
        requests: texts.map((t) => ({
          model: `models/${model}`,
          content: { parts: [{ text: t }] },
          outputDimensionality: dims,
        })),
      }),
    };
  }
  return {
    url: join(baseUrl || 'https://api.openai.com/v1', '/embeddings'),
    method: 'post',
    contentType: 'application/json',
    headers: { Authorization: `Bearer ${key}` },
    payload: JSON.stringify({ model, input: texts, dimensions: dims, encoding_format: 'float' }),
  };
}

export function parseEmbedding(vendor: EmbeddingVendor, body: string, count: number): number[][] {
  const j = JSON.parse(body);
  const vectors: number[][] =
    vendor === 'gemini'
      ? (j.embeddings ?? []).map((e: { values: number[] }) => e.values)
      : (j.data ?? [])
          .slice()
          .sort((a: { index: number }, b: { index: number }) => a.index - b.index)
          .map((d: { embedding: number[] }) => d.embedding);
  if (vectors.length !== count || vectors.some((v) => !Array.isArray(v) || !v.length))
    throw new Error(`the embedding answer holds ${vectors.length} vectors for ${count} texts`);
  return vectors;
}
