// Directives from the sidebar: the list, and cancelling one before an agent receives it.
import { DIRECTIVE_STATUSES } from '../../core/discussion/vocab.js';
import { rowsOf } from '../../../sheets-schema/index.js';
import { bumpConfigVersion } from '../../store/store.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { Council } from '../sheet-council.js';
import { plainRow, text } from './plain.js';

const cols = rowsOf('directives');
const STATUSES: readonly string[] = DIRECTIVE_STATUSES;

// Directives is read through the configuration cache (no round trip when cached), newest first.
export function listDirectives(council: Council, filter: { status?: string } = {}): Record<string, unknown>[] {
  const status = filter?.status ? String(filter.status) : '';
  if (status && STATUSES.indexOf(status) < 0)
    throw new ValidationError(`status must be one of ${STATUSES.join(', ')}`, 'invalid_status');
  return council.store
    .readConfig('directives')
    .map((v) => cols.read(v))
    .filter((r) => text(r.directive_id) !== '' && (!status || r.status === status))
    .map((r) => {
      const row = plainRow(r);
      let consumed: unknown = [];
      try {
        consumed = JSON.parse(text(r.consumed_by_json) || '[]');
      } catch {
        // A hand-edited cell that is not JSON is shown as it is.
        consumed = [text(r.consumed_by_json)];
      }
      return { ...row, consumed_by: consumed };
    })
    .reverse();
}

// An active directive becomes cancelled: Configuration.directives() delivers active ones only, and the version bump
// drops every cached copy so the next discussion no longer receives it. A consumed one has been delivered already.
export function cancelDirective(council: Council, id: string, by: string): { directive_id: string; status: string } {
  const key = text(id);
  if (!key) throw new ValidationError('directive_id is required');
  const out = council.store.withLock((state) => {
    // Under the lock and from the sheet, not the cache: a decision may just have consumed it.
    const row = council.store.findRow('directives', key);
    const values = row ? council.store.readRows('directives', row, 1)[0] : null;
    if (!row || !values || cols.read(values).directive_id !== key) throw new NotFoundError(`no directive ${key}`);
    const from = text(cols.read(values).status);
    if (from === 'cancelled') return { directive_id: key, status: from, changed: false };
    if (from !== 'active')
      throw new ConflictError(`${key} is ${from}: it was delivered already and cannot be cancelled`, 'not_active');
    const c = council.store.begin(state, by);
    const now = council.now();
    c.setMarker('directives', row, cols.write({ status: 'cancelled' }, values), `Directives:${key}`);
    c.audit({ actor: by, event: 'directive_cancelled', tab: 'Directives', row_key: key, payload: { from } });
    c.run(new Date(now).toISOString());
    return { directive_id: key, status: 'cancelled', changed: true };
  });
  if (out.changed) bumpConfigVersion(['directives']);
  return { directive_id: out.directive_id, status: out.status };
}
