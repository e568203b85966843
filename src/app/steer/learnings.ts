// Semantic search over Learnings with the engine's own retrieval: the same rows, embedding and cosine top-k.
import { embedOffline } from '../../core/memory/embedding.js';
import { ValidationError } from '../../core/errors.js';
import { decodeMatrix, matrixOptionsOf, topK } from '../../core/memory/retrieval.js';
import type { Council } from '../sheet-council.js';
import { learningNamer, type ReadableNames } from './learning-names.js';

export interface LearningHit extends ReadableNames {
  learning_id: string;
  agent_id: string;
  scope: string;
  category: string;
  text: string;
  score: number;
  similarity: number;
  confidence: number;
  // Whether the engine would hand this learning to an agent (active, at or above retrieval.min_confidence).
  retrievable: boolean;
}

const MAX_LIMIT = 50;
const round = (x: number) => Math.round(x * 1000) / 1000;

// The query is embedded as Memory.retrieve embeds a discussion's situation (src/store/memory.ts): the
// offline n-gram vector as is, a vendor's vector through the same int8 cell the rows are stored in. Rows embedded
// by another model are skipped, as the engine skips them until memory.reembed has run. Ranking is the engine's
// cosine (topK in src/core/memory/retrieval.ts), so score and similarity are the same number.
export function searchLearnings(
  council: Council,
  input: { query: string; limit?: number; agent_id?: string },
): { results: LearningHit[]; model: string; searched: number } {
  const query = typeof input?.query === 'string' ? input.query.trim() : '';
  if (!query) throw new ValidationError('a search needs a query', 'invalid_query');
  if (query.length > 2000) throw new ValidationError('a query is at most 2000 characters', 'invalid_query');
  const limit = input.limit === undefined ? 10 : Number(input.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new ValidationError(`limit must be a whole number from 1 to ${MAX_LIMIT}`, 'invalid_limit');
  const mem = council.recall.memory();
  const min = council.settings().number('retrieval.min_confidence');
  const rows = mem.searchable().filter((l) => l.is_active);
  if (!rows.length) return { results: [], model: mem.tag, searched: 0 };
  const m = decodeMatrix(
    rows.map((l) => l.embedding),
    mem.dims,
    rows.map((l) => l.row),
    matrixOptionsOf(council.settings()),
  );
  const byRow: Record<number, (typeof rows)[number]> = {};
  for (const l of rows) byRow[l.row] = l;
  const agent = input.agent_id ? String(input.agent_id) : '';
  const q =
    mem.provider === 'offline'
      ? embedOffline(query, mem.dims)
      : Float32Array.from(decodeMatrix(mem.embed([query]), mem.dims).data);
  const names = learningNamer(council);
  const hits = topK(m, q, limit, (row) => !agent || byRow[row].agent_id === agent);
  return {
    results: hits.map((h) => {
      const l = byRow[h.key];
      return {
        learning_id: l.learning_id,
        agent_id: l.agent_id,
        scope: l.scope,
        category: l.category,
        text: l.content,
        score: round(h.score),
        similarity: round(h.score),
        confidence: l.confidence,
        retrievable: l.scope !== 'case' ? l.confidence >= min : true,
        ...names(l),
      };
    }),
    model: mem.tag,
    searched: rows.length,
  };
}
