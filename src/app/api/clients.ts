// API clients: create one (its token shown once), list them, revoke one; only SHA-256 hashes are kept.
import { sha256Hex } from '../../store/crypto.js';
import { props, uuid } from '../../store/services.js';
import type { Store } from '../../store/store.js';
import { ALL_ROLES, type Role, type TokenRecord } from '../../core/api/api.js';
import { clientNameProblem } from '../../core/api/access.js';
import { clientValues, readClients } from '../../core/api/api-clients.js';
import { defaultAgents } from '../../core/discussion/default-council.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { checkPropertySizes } from '../../core/property-size.js';
import type { AgentDef } from '../../core/types.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { ports } from '../../ports.js';

const KEY = PROPERTY_KEYS.apiTokens;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface ClientInfo {
  name: string;
  role: Role;
  created_at: string;
}

// Every API client, from the token list's shards (src/core/api/api-clients.ts); an older single list is read as it is.
function readTokenList(): TokenRecord[] {
  return readClients((key) => props.get(key), KEY);
}

export function listClients(): ClientInfo[] {
  return readTokenList().map((t) => ({
    name: t.name,
    role: t.role,
    created_at: t.created_at ?? '',
  }));
}

// Two random UUIDs (244 random bits) as 64 hex digits behind a prefix that says what the secret is.
function newToken(): string {
  return `kaigi_${(uuid() + uuid()).replace(/-/g, '').toLowerCase()}`;
}

function checkName(name: unknown): string {
  const n = typeof name === 'string' ? name.trim() : '';
  if (!NAME.test(n))
    throw new ValidationError(
      'A client name is 1–64 letters, digits, dots, hyphens or underscores, starting with a letter or digit.',
    );
  return n;
}

// Under the script lock, so two admins creating clients at once both keep theirs; the audit row names the admin,
// the client and its role, never the token or its hash. A client is audited as `api:NAME`, but rooms, presence and
// people read the bare name: so it may not be an agent's id (the roster's or the Agents tab's), a name Kaigi uses
// for itself, or another client's name in another case.
export function createClient(
  store: Store,
  input: { name?: unknown; role?: unknown },
  by: string,
  agents: readonly AgentDef[],
): ClientInfo & { token: string } {
  const name = checkName(input.name);
  const role = String(input.role ?? '') as Role;
  if (ALL_ROLES.indexOf(role) < 0) throw new ValidationError(`A client's role is one of ${ALL_ROLES.join(', ')}.`);
  return store.withLock((state) => {
    const list = readTokenList();
    const agentIds = defaultAgents()
      .concat(agents)
      .map((a) => a.agent_id);
    const problem = clientNameProblem(
      name,
      agentIds,
      list.map((t) => t.name),
    );
    if (problem) throw new ConflictError(problem, 'client_name_taken');
    const token = newToken();
    const created_at = new Date(ports().clock.now()).toISOString();
    const entry: TokenRecord = { hash: sha256Hex(token), role, name, created_at };
    // Before the record: a list past the cap, or one that could not be stored, is refused with nothing audited.
    const values = clientValues(list.concat([entry]), KEY);
    checkPropertySizes(values);
    const c = store.begin(state, by);
    c.audit({ actor: by, event: 'api_client_created', tab: '', row_key: name, payload: { role } });
    c.run(created_at);
    // After the record: an execution killed in between leaves an audited creation whose token was never shown.
    props.set(values);
    return { name, role, created_at, token };
  });
}

export function revokeClient(store: Store, name: unknown, by: string): { name: string; revoked: true } {
  const n = checkName(name);
  return store.withLock((state) => {
    const list = readTokenList();
    const gone = list.find((t) => t.name === n);
    if (!gone) throw new NotFoundError(`No API client is named ${n}.`);
    const c = store.begin(state, by);
    // Revoked first, then recorded: a token must never outlive an execution killed in between.
    props.set(
      clientValues(
        list.filter((t) => t.name !== n),
        KEY,
      ),
    );
    c.audit({ actor: by, event: 'api_client_revoked', tab: '', row_key: n, payload: { role: gone.role } });
    c.run(new Date(ports().clock.now()).toISOString());
    return { name: n, revoked: true };
  });
}
