// The Learnings tab as memory: embeddings written with rows, decoded once per execution, searched by cosine.
import { rowsOf } from '../../../sheets-schema/index.js';
import { OFFLINE_MODEL, embedOffline, encodeVector, l2normalise, modelTag } from '../../core/embedding.js';
import { EMPTY_MEMORY, type AgentMemory, type CaseContext, type Learning } from '../../core/memory.js';
import { buildEmbedding, parseEmbedding, type EmbeddingVendor } from '../../core/providers/embeddings.js';
import { redact } from '../../core/providers/http.js';
import { decodeMatrix, topK, type Matrix } from '../../core/retrieval.js';
import type { Settings } from '../../core/settings.js';
import { urlFetchPort } from './http-port.js';
import { keyProperty } from './keys.js';
import type { Store } from './store.js';

const learningCols = rowsOf('learnings');

export class Memory {
  private cached: Learning[] | null = null;
  private matrixCache: { tag: string; m: Matrix } | null = null;

  constructor(
    private readonly store: Store,
    private readonly settings: Settings,
  ) {}

  get dims(): number {
    return this.settings.number('embedding.dimensions');
  }

  get provider(): string {
    return this.settings.raw('embedding.provider');
  }

  get model(): string {
    return this.provider === 'offline' ? OFFLINE_MODEL : this.settings.raw('embedding.model');
  }

  get tag(): string {
    return modelTag(this.model, this.dims);
  }

  rows(): Learning[] {
    if (!this.cached) {
      this.cached = this.store
        .readTab('learnings')
        .map((v, i) => {
          const r = learningCols.read(v);
          return {
            row: i + 2,
            learning_id: String(r.learning_id),
            scope: String(r.scope) as Learning['scope'],
            agent_id: String(r.agent_id),
            category: String(r.category),
            content: String(r.content),
            context: String(r.context),
            confidence: Number(r.confidence) || 0,
            times_applied: Number(r.times_applied) || 0,
            times_successful: Number(r.times_successful) || 0,
            is_active: r.is_active === true || String(r.is_active).toLowerCase() === 'true',
            source: String(r.source),
            embedding: String(r.embedding),
            embedding_model: String(r.embedding_model),
          };
        })
        .filter((l) => l.learning_id !== '');
    }
    return this.cached;
  }

  forget(): void {
    this.cached = null;
    this.matrixCache = null;
    this.store.forgetTab('learnings');
  }

  // One request per batch; the offline embedding needs no network and no key.
  embed(texts: string[]): string[] {
    if (!texts.length) return [];
    if (this.provider === 'offline') return texts.map((t) => encodeVector(embedOffline(t, this.dims)));
    const vendor = this.provider as EmbeddingVendor;
    const key = PropertiesService.getScriptProperties().getProperty(keyProperty(vendor)) ?? '';
    if (!key) throw new Error(`embedding.provider is ${vendor} but no API key is set`);
    const base = this.settings.get<Record<string, string>>('provider.base_urls')[vendor] ?? '';
    const [res] = urlFetchPort.fetchAll([buildEmbedding(vendor, this.model, this.dims, texts, key, base)]);
    if (res.error || res.code !== 200)
      throw new Error(
        redact(`embedding request failed: ${res.error ?? `HTTP ${res.code} ${res.body.slice(0, 200)}`}`, key),
      );
    return parseEmbedding(vendor, redact(res.body, key), texts.length).map((v) => encodeVector(l2normalise(v)));
  }

  // Rows embedded by another model are never compared with this one; they wait for re-embedding.
  stale(): Learning[] {
    return this.rows().filter((l) => l.embedding && l.embedding_model !== this.tag);
  }

  private matrix(): { m: Matrix; rows: Learning[] } {
    const rows = this.rows().filter((l) => l.embedding && l.embedding_model === this.tag);
    if (!this.matrixCache || this.matrixCache.tag !== this.tag || this.matrixCache.m.rows !== rows.length) {
      this.matrixCache = {
        tag: this.tag,
        m: decodeMatrix(
          rows.map((l) => l.embedding),
          this.dims,
          rows.map((l) => l.row),
        ),
      };
    }
    return { m: this.matrixCache.m, rows };
  }

  // Top-k active learnings for an agent (its own first, then shared) and top-k similar past cases.
  retrieve(query: string, agent: string, exclude: string): Pick<AgentMemory, 'learnings' | 'cases'> {
    if (!this.rows().length) return { learnings: EMPTY_MEMORY.learnings, cases: EMPTY_MEMORY.cases };
    const k = this.settings.number('retrieval.top_k');
    const min = this.settings.number('retrieval.min_confidence');
    const { m, rows } = this.matrix();
    const byRow: Record<number, Learning> = {};
    for (const l of rows) byRow[l.row] = l;
    const q = this.queryVector(query);
    const usable = (l: Learning) => l.is_active && l.confidence >= min;
    const own = topK(
      m,
      q,
      k,
      (row) => byRow[row].scope === 'individual' && byRow[row].agent_id === agent && usable(byRow[row]),
    );
    const shared = topK(
      m,
      q,
      Math.max(0, k - own.length),
      (row) => byRow[row].scope === 'shared' && usable(byRow[row]),
    );
    const cases = topK(
      m,
      q,
      k,
      (row) =>
        byRow[row].scope === 'case' &&
        byRow[row].is_active &&
        caseOf(byRow[row]).discussion_id !== exclude &&
        caseOf(byRow[row]).verdict !== '',
    );
    return {
      learnings: own.concat(shared).map((h) => ({
        id: byRow[h.key].learning_id,
        scope: byRow[h.key].scope,
        content: byRow[h.key].content,
        confidence: byRow[h.key].confidence,
      })),
      cases: cases.map((h) => {
        const c = caseOf(byRow[h.key]);
        return {
          id: byRow[h.key].learning_id,
          content: byRow[h.key].content,
          actions: c.actions,
          verdict: c.verdict,
          similarity: Math.round(h.score * 1000) / 1000,
        };
      }),
    };
  }

  // Every agent of a discussion asks with the same situation: it is embedded once per execution.
  private readonly queries = new Map<string, Float32Array>();

  private queryVector(text: string): Float32Array {
    const key = `${this.tag}\n${text}`;
    let v = this.queries.get(key);
    if (!v) {
      v = this.provider === 'offline' ? embedOffline(text, this.dims) : this.decodeOne(this.embed([text])[0]);
      this.queries.set(key, v);
    }
    return v;
  }

  private decodeOne(cell: string): Float32Array {
    const m = decodeMatrix([cell], this.dims);
    const out = new Float32Array(this.dims);
    for (let i = 0; i < this.dims; i++) out[i] = m.data[i];
    return out;
  }

  byId(id: string): Learning | undefined {
    return this.rows().find((l) => l.learning_id === id);
  }
}

function caseOf(l: Learning): CaseContext {
  try {
    return JSON.parse(l.context) as CaseContext;
  } catch {
    return { discussion_id: '', decision_id: '', member: '', metric: '', actions: [], verdict: '' };
  }
}

export function learningRow(l: Omit<Learning, 'row'>, createdAt: number, lastApplied: number | null): unknown[] {
  return learningCols.write({
    learning_id: l.learning_id,
    scope: l.scope,
    agent_id: l.agent_id,
    category: l.category,
    content: l.content,
    context: l.context,
    confidence: l.confidence,
    times_applied: l.times_applied,
    times_successful: l.times_successful,
    is_active: l.is_active,
    source: l.source,
    embedding: l.embedding,
    embedding_model: l.embedding_model,
    created_at: new Date(createdAt),
    last_applied_at: lastApplied ? new Date(lastApplied) : '',
  });
}
