// The archive spreadsheets in order, oldest first, and what each holds: Script Property KAIGI_ARCHIVES, versioned.
//
// Rows move into the last archive. When it nears its cell limit the archive run starts another and moves on into it
// (src/app/audit/archive-book.ts); the full one is never written again. Each holds a contiguous part of the two
// logs that are numbered across archives: the Audit chain from `audit_from` up to the next archive's, and the API
// Log's rows after `api_log_from` (as its batches number them) up to the next archive's. Discussions and their rows
// are found by key: their `archived` audit events name the archive they went to.
import { StateError } from '../core/errors.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { props } from './services.js';

export interface ArchiveEntry {
  id: string;
  // The first Audit sequence it holds (its Audit row 2).
  audit_from: number;
  // API Log rows the archives before it hold: its API Log row 2 is the log's row api_log_from + 2.
  api_log_from: number;
}

const VERSION = 1;

function entry(raw: unknown): ArchiveEntry {
  const e = (raw ?? {}) as Partial<ArchiveEntry>;
  if (typeof e.id !== 'string' || !e.id)
    throw new StateError(`The Script Property ${PROPERTY_KEYS.archives} names an archive without an id.`);
  return {
    id: e.id,
    audit_from: Number(e.audit_from) || 1,
    api_log_from: Number(e.api_log_from) || 0,
  };
}

// The archives in order. A spreadsheet archived by a release before the list knows only KAIGI_ARCHIVE_ID: that
// one archive, holding the chain and the log from their start. None yet: [].
export function readArchives(): ArchiveEntry[] {
  const raw = props.get(PROPERTY_KEYS.archives);
  const current = props.get(PROPERTY_KEYS.archiveId);
  if (!raw) return current ? [{ id: current, audit_from: 1, api_log_from: 0 }] : [];
  let v: { v?: unknown; archives?: unknown };
  try {
    v = JSON.parse(raw) as typeof v;
  } catch (e) {
    throw new StateError(`The Script Property ${PROPERTY_KEYS.archives} is not JSON (${(e as Error).message}).`);
  }
  if (v.v !== VERSION || !Array.isArray(v.archives))
    throw new StateError(`The Script Property ${PROPERTY_KEYS.archives} is not a version ${VERSION} archive list.`);
  const list = v.archives.map(entry);
  const last = list[list.length - 1];
  // KAIGI_ARCHIVE_ID is written with the list, in the same call: another value was set by hand.
  if (last && current && current !== last.id)
    throw new StateError(
      `The Script Property ${PROPERTY_KEYS.archiveId} (${current}) is not the last archive of ${PROPERTY_KEYS.archives} ` +
        `(${last.id}); set it back to ${last.id}. Nothing was moved.`,
    );
  return list;
}

// The list, the current archive's id beside it, and any other properties given, in one setProperties call.
export function writeArchives(list: readonly ArchiveEntry[], more: Record<string, string> = {}): void {
  const last = list[list.length - 1];
  props.set({
    ...more,
    [PROPERTY_KEYS.archives]: JSON.stringify({ v: VERSION, archives: list }),
    ...(last ? { [PROPERTY_KEYS.archiveId]: last.id } : {}),
  });
}
