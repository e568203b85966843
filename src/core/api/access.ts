// Who may do what: a person's role from what Apps Script says of them, and the names no API client may take.
import { ValidationError } from '../errors.js';

// A person's role; every person who can run the script at all is an editor of the spreadsheet.
export type PersonRole = 'admin' | 'coordinator' | 'editor';

// What a server function asks of its caller: a role, or (trigger-only work) to run as the workers' owner or be admin.
export type Need = PersonRole | 'workers';

const RANK: Record<PersonRole, number> = { editor: 0, coordinator: 1, admin: 2 };

// What is known of the person running this execution.
export interface Person {
  // Session.getActiveUser().getEmail(): '' when Google does not reveal it (another domain, a consumer account,
  // every installable trigger).
  active: string;
  // Session.getEffectiveUser().getEmail(): whom the script runs as (the caller, a trigger's owner, a web app's
  // deployer).
  effective: string;
  // The spreadsheet's owner ('' when unknown: a shared drive with no owner recorded).
  owner: string;
  // The Kaigi workers' owner (the account whose triggers run tick, dailyReview…), '' when nobody holds them.
  workersOwner: string;
}

export interface AccessLists {
  admins: readonly string[];
  coordinators: readonly string[];
}

// Emails compare without case or surrounding spaces (Google treats them so).
export function sameEmail(a: string, b: string): boolean {
  const x = String(a ?? '')
    .trim()
    .toLowerCase();
  return (
    x !== '' &&
    x ===
      String(b ?? '')
        .trim()
        .toLowerCase()
  );
}

function listed(list: readonly string[], email: string): boolean {
  return list.some((e) => sameEmail(String(e), email));
}

// The owner is always admin. With an email, access.admins and access.coordinators decide. Without one, only the
// owner's own executions (the script runs as the owner: the owner's triggers, or the owner with the email hidden)
// count as admin: an editor's own call always runs as that editor, so their effective user can never be the owner.
export function roleOf(p: Person, lists: AccessLists): PersonRole {
  if (!p.active) return sameEmail(p.effective, p.owner) ? 'admin' : 'editor';
  if (sameEmail(p.active, p.owner) || listed(lists.admins, p.active)) return 'admin';
  if (listed(lists.coordinators, p.active)) return 'coordinator';
  return 'editor';
}

// Whether the role (and, for trigger-only work, whom the execution runs as) meets the need.
export function allows(need: Need, role: PersonRole, p: Person): boolean {
  if (need === 'workers') return role === 'admin' || sameEmail(p.effective, p.workersOwner);
  return RANK[role] >= RANK[need];
}

// Names that already mean someone in the audit and in rooms: Kaigi itself, its rules and the buddy executor.
const RESERVED_CLIENT_NAMES: readonly string[] = ['system', 'kaigi', 'human', 'buddy', 'api', 'agent', 'rules'];

// Why an API client may not take `name`, or '' when it may: it must not be an agent (the roster or the Agents tab),
// a reserved name, or an existing client's name in another case (`Analyst` would read as `analyst`).
export function clientNameProblem(name: string, agentIds: readonly string[], clients: readonly string[]): string {
  const n = name.toLowerCase();
  if (agentIds.some((a) => a.toLowerCase() === n))
    return `${name} is a council agent's id; an API client may not act under an agent's name.`;
  if (RESERVED_CLIENT_NAMES.indexOf(n) >= 0) return `${name} is reserved for Kaigi itself.`;
  const other = clients.find((c) => c.toLowerCase() === n);
  if (other !== undefined)
    return other === name
      ? `An API client named ${name} exists already.`
      : `An API client named ${other} exists already; names may not differ only in case.`;
  return '';
}

// A server function's input may not say who acts: the person is who Apps Script says runs it, an agent only ever
// the engine itself. Naming `by`, `objector` or a `source` other than `human` is refused, not silently replaced,
// so a caller that tried learns it did not work.
export function refuseActorFields(input: unknown, what: string): void {
  if (!input || typeof input !== 'object') return;
  // Own keys only (a plain object from google.script.run or JSON has no others worth reading).
  const own = Object.keys(input);
  for (const field of ['source', 'objector', 'by']) {
    if (own.indexOf(field) < 0) continue;
    const v = (input as Record<string, unknown>)[field];
    if (v === undefined || (field === 'source' && v === 'human')) continue;
    throw new ValidationError(
      `${what} does not take ${field}: whoever runs it is recorded as the actor (an agent acts only inside the council).`,
      'actor_not_accepted',
    );
  }
}
