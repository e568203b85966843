// Who may do what: every server function a person can call asks here first; a refusal is audited and told.
import { allows, type Need, type Person, type PersonRole, roleOf, sameEmail } from '../../core/api/access.js';
import { ForbiddenError } from '../../core/errors.js';
import { langOf, t } from '../../core/i18n.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { scriptZone } from '../../store/records.js';
import {
  activeEmail,
  activeUserEmail,
  effectiveUserEmail,
  props,
  spreadsheetOwnerEmail,
} from '../../store/services.js';
import { openBound } from '../../store/spreadsheet.js';
import { Store } from '../../store/store.js';
import { readClaim } from '../../store/triggers.js';
import { Configuration } from '../discussions/configuration.js';
import { ports } from '../../ports.js';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

// The spreadsheet's owner, or the one setup recorded: Apps Script may hide the owner's email from another account,
// and a shared drive's file has no owner (then the first setup's account was recorded).
function ownerOf(found: string | null): string {
  return found || props.get(PROPERTY_KEYS.owner) || '';
}

// The role of whoever runs this execution. Settings are read only when the lists can change the answer (an email
// that is not the owner's), so the owner's calls and calls without an email cost no Settings read.
function roleNow(ss: Spreadsheet, p: Person): PersonRole {
  if (!p.active || sameEmail(p.active, p.owner)) return roleOf(p, { admins: [], coordinators: [] });
  const settings = new Configuration(new Store(ss, scriptZone()), scriptZone()).settings();
  return roleOf(p, {
    admins: settings.get('access.admins').map(String),
    coordinators: settings.get('access.coordinators').map(String),
  });
}

// Throws ForbiddenError (in the caller's language, audited) unless the caller's role meets `need`. `what` is the
// server function's name. With `recordsOwner` (setup), the owner's email is recorded for executions it is hidden
// from; and a spreadsheet with no owner at all (a shared drive) that Kaigi was never set up in is claimed by this
// account — somebody must be able to set Kaigi up, and it is the first to do so.
// Whether the caller has the role, without refusing or recording anything: for an action whose effect depends on it
// (an Inbox reply is a directive only from a coordinator).
export function hasRole(need: Need): boolean {
  const ss = openBound();
  const found = spreadsheetOwnerEmail(ss);
  const p: Person = { active: activeEmail(), effective: effectiveUserEmail(), owner: ownerOf(found), workersOwner: '' };
  return allows(need, roleNow(ss, p), p);
}

export function requireRole(what: string, need: Need, opts: { recordsOwner?: boolean } = {}): void {
  const ss = openBound();
  const found = spreadsheetOwnerEmail(ss);
  const p: Person = { active: activeEmail(), effective: effectiveUserEmail(), owner: ownerOf(found), workersOwner: '' };
  if (opts.recordsOwner) {
    const unclaimed = found === null && !p.owner && !props.get(PROPERTY_KEYS.spreadsheetId);
    if (unclaimed && p.effective) p.owner = p.effective;
    if (p.owner && (found || unclaimed) && props.get(PROPERTY_KEYS.owner) !== p.owner)
      props.set({ [PROPERTY_KEYS.owner]: p.owner });
  }
  if (need === 'workers') p.workersOwner = readClaim()?.owner ?? '';
  const role = roleNow(ss, p);
  if (allows(need, role, p)) return;
  const needs = need === 'workers' ? "admin (or the workers' owner)" : need;
  const message = t('forbidden', langOf(ports().host.activeUserLocale()))
    .replace('{what}', what)
    .replace('{need}', needs)
    .replace('{role}', role);
  throw new ForbiddenError(message + auditRefusal(ss, what, need, role));
}

// The refusal goes into the audit chain (who, what, the role needed and theirs). A spreadsheet Kaigi cannot record
// in (not set up yet, lock busy) still refuses, and says that this refusal was not recorded.
function auditRefusal(ss: Spreadsheet, what: string, need: Need, role: PersonRole): string {
  const by = activeUserEmail();
  try {
    const store = new Store(ss, scriptZone());
    store.withLock((state) => {
      const c = store.begin(state, by);
      c.audit({ actor: by, event: 'access_refused', tab: '', row_key: what, payload: { needs: need, role } });
      c.run(new Date(ports().clock.now()).toISOString());
    });
    return '';
  } catch (e) {
    return ` (not audited: ${(e as Error).message})`;
  }
}
