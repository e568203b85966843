// kaigi token create|list|revoke: the web API's clients (docs/api.md), through the script's own entry points, as the
// spreadsheet's owner; a new token is printed once, alone on the last line, and never stored or printed again.
import type { Runtime } from '../../runtime/runtime.js';
import { type Args, type Command, need, print, refusedAs, UsageError, warn, withExisting } from '../shared.js';

interface ClientInfo {
  name: string;
  role: string;
  created_at: string;
}

// The entry point's refusal (a bad name or role, a name taken, no such client) is bad input: exit 2, one line.
// A message that names no field is about the client's name (no such client), said after --name.
async function entry(rt: Runtime, fn: string, arg: unknown): Promise<any> {
  const r = await rt.run(fn, arg === undefined ? [] : [arg], { kind: 'editor' });
  const name = (arg as { name?: unknown } | undefined)?.name ?? arg;
  if (!r.ok)
    throw refusedAs(r.error!.message, { role: 'role' }, fn === 'revokeApiClient' ? `--name ${String(name)}` : '');
  return r.value;
}

async function create(opts: Args['opts']): Promise<number> {
  const input = { name: need(opts, 'name'), role: need(opts, 'role') };
  return withExisting(
    opts,
    async (rt, file) => {
      const made = (await entry(rt, 'createApiClient', input)) as ClientInfo & { token: string };
      await rt.save(file);
      await warn(`kaigi: API client ${made.name} (${made.role}) created; its token is shown once, store it now:`);
      await print(made.token);
      return 0;
    },
    true,
  );
}

function list(opts: Args['opts']): Promise<number> {
  return withExisting(opts, async (rt) => {
    // Only the fields meant for display, whatever else the entry point may return one day.
    const clients = ((await entry(rt, 'listApiClients', undefined)) as ClientInfo[]).map((c) => ({
      name: c.name,
      role: c.role,
      created_at: c.created_at,
    }));
    if (opts.json) await print(JSON.stringify(clients));
    else if (!clients.length) await print('no API clients');
    else {
      const width = Math.max(4, ...clients.map((c) => c.name.length));
      await print(
        [`${'NAME'.padEnd(width)}  ${'ROLE'.padEnd(11)}  CREATED`]
          .concat(clients.map((c) => `${c.name.padEnd(width)}  ${c.role.padEnd(11)}  ${c.created_at}`))
          .join('\n'),
      );
    }
    return 0;
  });
}

function revoke({ positionals, opts }: Args): Promise<number> {
  const name = positionals[1] ?? need(opts, 'name');
  if (positionals[1] !== undefined && opts.name !== undefined && opts.name !== name)
    throw new UsageError('give the client name once, as NAME or --name');
  return withExisting(
    opts,
    async (rt, file) => {
      const gone = (await entry(rt, 'revokeApiClient', name)) as { name: string };
      await rt.save(file);
      await print(`revoked ${gone.name}`);
      return 0;
    },
    true,
  );
}

export const tokenCommand: Command = {
  name: 'token',
  options: ['workbook', 'role', 'name'],
  flags: ['json'],
  positionals: 2,
  run: (args) => {
    const [sub, extra] = args.positionals;
    if (sub === 'create' || sub === 'list') {
      if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
      return sub === 'create' ? create(args.opts) : list(args.opts);
    }
    if (sub === 'revoke') return revoke(args);
    throw new UsageError(sub ? `unknown token command "${sub}"` : 'give create, list or revoke');
  },
};
