// The archive as verifyAudit reads it: opened as the person who runs verifyAudit, or why it cannot be. The archive
// lives in the Drive of the account that runs Kaigi's workers, and is shared with the spreadsheet's owner and editors
// when it is made and at each archive run (src/store/archive.ts shareArchive).
import { openArchive } from '../../store/archive.js';
import { activeUserEmail, props } from '../../store/services.js';
import { Store } from '../../store/store.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { parseClaim } from '../../core/trigger-plan.js';

export type AuditArchive = { store: Store | null } | { unreadable: string };

// No archive yet: { store: null }. One that cannot be opened: what stops it and who can give access.
export function archiveForAudit(tz: string): AuditArchive {
  const id = props.get(PROPERTY_KEYS.archiveId);
  if (!id) return { store: null };
  let ss: GoogleAppsScript.Spreadsheet.Spreadsheet;
  try {
    ss = openArchive(id);
  } catch (e) {
    const claim = parseClaim(props.get(PROPERTY_KEYS.workers));
    return {
      unreadable:
        `The archive spreadsheet ${id} (Script Property ${PROPERTY_KEYS.archiveId}) cannot be opened as ` +
        `${activeUserEmail()}: ${(e as Error).message} Rows past their retention moved there, so the audit cannot be ` +
        "verified without it. It belongs to the account that runs Kaigi's workers" +
        (claim ? ` (${claim.owner})` : '') +
        ", which shares it with the spreadsheet's owner and editors each time it archives: ask that account to " +
        'share it with you.',
    };
  }
  return { store: new Store(ss, tz) };
}
