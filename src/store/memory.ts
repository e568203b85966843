// The Learnings tab as memory: embeddings written with rows, decoded once per execution, searched by cosine.
import { rowsOf } from '../../sheets-schema/index.js';
import {
  OFFLINE_MODEL,
  embedOffline,
  encodeVector,
  isVectorCell,
  l2normalise,
  modelTag,
} from '../core/memory/embedding.js';
import { EMPTY_MEMORY, successRate, type AgentMemory, type Learning } from '../core/memory/memory.js';
import { recall, recallOptionsOf } from '../core/memory/recall.js';
import { buildEmbedding, parseEmbedding, type EmbeddingVendor } from '../core/providers/embeddings.js';
import { redact } from '../core/providers/http.js';
import { decodeMatrix, type Matrix, matrixOptionsOf } from '../core/memory/retrieval.js';
import type { Settings } from '../core/settings.js';
import { keyProperty } from './keys.js';
import type { Store } from './store.js';
import { ports } from '../ports.js';
import { parseInstant } from '../core/instant.js';

const learningCols = rowsOf('learnings');

// A date cell as milliseconds; an empty or unreadable cell is 0 (never applied, or written before dates were kept).
export function timeOf(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  const t = parseInstant(String(v ?? ''));
  return Number.isFinite(t) ? t : 0;
}

export class Memory {
  private cached: Learning[] | null = null;
  private matrixCache: { tag: string; m: Matrix } | null = null;
  // Row → the cell the decoder refused there, kept past forget(): a row written again since is not refused.
  private readonly refused = new Map<number, string>();
  private searchableCache: { from: Learning[]; tag: string; rows: Learning[] } | null = null;

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
        .readCommitted('learnings')
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
            created_at: timeOf(r.created_at),
            last_applied_at: timeOf(r.last_applied_at),
            // A row from before the column: it was written once.
            evidence_count: Number(r.evidence_count) || 1,
            promotion: String(r.promotion),
          };
        })
        .filter((l) => l.learning_id !== '');
    }
    return this.cached;
  }

  forget(): void {
    this.reparse();
    this.store.forgetTab('learnings');
  }

  // Under the lock, before a commit planned from the rows: the tab's rows as committed now. The store reads them again
  // only when another execution has committed since it last did (Store.readTabNow): a review of a hundred decisions
  // read the whole tab a hundred times, each before its commit.
  rowsNow(): unknown[][] {
    this.reparse();
    return this.store.readTabNow('learnings');
  }

  // After this execution's own commit: its rows are parsed again from the store's copy, which the commit carried on.
  reparse(): void {
    this.cached = null;
    this.matrixCache = null;
  }

  // One request per batch; the offline embedding needs no network and no key.
  embed(texts: string[]): string[] {
    if (!texts.length) return [];
    if (this.provider === 'offline') return texts.map((t) => encodeVector(embedOffline(t, this.dims)));
    const vendor = this.provider as EmbeddingVendor;
    const key = ports().properties.getProperty(keyProperty(vendor)) ?? '';
    if (!key) throw new Error(`embedding.provider is ${vendor} but no API key is set`);
    const base = this.settings.get('provider.base_urls')[vendor] ?? '';
    const [res] = ports().fetch.fetchAll([buildEmbedding(vendor, this.model, this.dims, texts, key, base)]);
    if (res.error || res.code !== 200)
      throw new Error(
        redact(`embedding request failed: ${res.error ?? `HTTP ${res.code} ${res.body.slice(0, 200)}`}`, key),
      );
    return parseEmbedding(vendor, redact(res.body, key), texts.length).map((v) => encodeVector(l2normalise(v)));
  }

  // Rows embedded by another model are never compared with this one; they wait for re-embedding, as do rows whose
  // cell no version of Kaigi wrote (edited by hand, cut short). Cells of an older version are read as they are.
  // A cell of the right length the decoder refuses shows only when decoded: `decode` decodes the matrix (shared with
  // retrieval) if this execution has not yet; without it, the refusals of any matrix decoded so far count.
  stale(decode = false): Learning[] {
    if (decode && this.searchable().length) this.matrix();
    return this.rows().filter(
      (l) =>
        l.embedding &&
        (l.embedding_model !== this.tag ||
          !isVectorCell(l.embedding, this.dims) ||
          this.refused.get(l.row) === l.embedding),
    );
  }

  // The rows retrieval compares: this model's, with a readable cell. The same array until the rows are read again,
  // so that recall, which keys its case ranking on it, ranks a discussion's cases once for all its agents.
  searchable(): Learning[] {
    const all = this.rows();
    const hit = this.searchableCache;
    if (hit && hit.from === all && hit.tag === this.tag) return hit.rows;
    const rows = all.filter((l) => l.embedding_model === this.tag && isVectorCell(l.embedding, this.dims));
    this.searchableCache = { from: all, tag: this.tag, rows };
    return rows;
  }

  // Decoded once per execution and shared by every agent's recall: a phase's agents all retrieve in one execution.
  private matrix(): { m: Matrix; rows: Learning[] } {
    const rows = this.searchable();
    if (!this.matrixCache || this.matrixCache.tag !== this.tag || this.matrixCache.m.rows !== rows.length) {
      this.matrixCache = {
        tag: this.tag,
        m: decodeMatrix(
          rows.map((l) => l.embedding),
          this.dims,
          rows.map((l) => l.row),
          matrixOptionsOf(this.settings),
        ),
      };
      const { refused } = this.matrixCache.m;
      if (refused.length) for (const l of rows) if (refused.indexOf(l.row) >= 0) this.refused.set(l.row, l.embedding);
    }
    return { m: this.matrixCache.m, rows };
  }

  // Top-k active learnings for an agent (its own first, then shared) and top-k similar past cases (src/core/memory/recall.ts).
  retrieve(
    query: string,
    agent: string,
    exclude: string,
    subject = '',
    now = Date.now(),
  ): Pick<AgentMemory, 'learnings' | 'cases'> {
    if (!this.rows().length) return { learnings: EMPTY_MEMORY.learnings, cases: EMPTY_MEMORY.cases };
    const { m, rows } = this.matrix();
    return recall(rows, m, this.queryVector(query), agent, exclude, recallOptionsOf(this.settings, now), subject);
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
    success_rate: successRate(l.times_applied, l.times_successful),
    evidence_count: l.evidence_count ?? 1,
    promotion: l.promotion ?? '',
  });
}
