// The archives as verifyAudit reads them: opened as the person who runs verifyAudit, or why one cannot be. The
// archives live in the Drive of the account that runs Kaigi's workers, and are shared with the spreadsheet's owner
// and editors when each is made and at each archive run (src/app/audit/archive-book.ts).
import { openArchive } from '../../store/archive.js';
import { readArchives } from '../../store/archive-list.js';
import { activeUserEmail, props } from '../../store/services.js';
import { Store } from '../../store/store.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { parseClaim } from '../../core/trigger-plan.js';
import type { ArchiveStore } from './audit.js';

export type AuditArchive = { stores: ArchiveStore[] } | { unreadable: string };

// Every archive in order (none yet: []). One that cannot be opened: what stops it and who can give access.
export function archiveForAudit(tz: string): AuditArchive {
  const list = readArchives();
  const stores: ArchiveStore[] = [];
  for (const [i, { id }] of list.entries()) {
    let ss: GoogleAppsScript.Spreadsheet.Spreadsheet;
    try {
      ss = openArchive(id);
    } catch (e) {
      const claim = parseClaim(props.get(PROPERTY_KEYS.workers));
      const which = list.length > 1 ? `archive ${i + 1} of ${list.length}, ` : '';
      return {
        unreadable:
          `The archive spreadsheet ${id} (${which}Script Property ${PROPERTY_KEYS.archives}) cannot be opened as ` +
          `${activeUserEmail()}: ${(e as Error).message} Rows past their retention moved there, so the audit cannot be ` +
          "verified without it. It belongs to the account that runs Kaigi's workers" +
          (claim ? ` (${claim.owner})` : '') +
          ", which shares it with the spreadsheet's owner and editors each time it archives: ask that account to " +
          'share it with you.',
      };
    }
    stores.push({ id, store: new Store(ss, tz) });
  }
  return { stores };
}
