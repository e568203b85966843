// kaigi directive add: a person's directive to the council, as the sidebar's form gives one (text, targets, and the
// action types banned from or weighed up in its orders, optionally for one member), as the workbook's owner.
import { type Args, type Command, need, print, refusedAs, UsageError, withExisting } from '../shared.js';

function add(opts: Args['opts']): Promise<number> {
  if (opts.by !== undefined) throw new UsageError("kaigi directive acts as the workbook's owner; --by is not accepted");
  const input: Record<string, unknown> = {
    content: need(opts, 'text'),
    target_agents: String(opts.to ?? 'all'),
    priority: opts.priority === undefined ? undefined : String(opts.priority),
    member_id: opts.member === undefined ? undefined : String(opts.member),
    ban: opts.ban === undefined ? [] : String(opts.ban).split(','),
    prefer: opts.prefer === undefined ? [] : String(opts.prefer).split(','),
  };
  return withExisting(
    opts,
    async (rt, file) => {
      const r = await rt.run('addDirective', [input], { kind: 'server' });
      // addDirective's fields, by the flags that give them.
      if (!r.ok)
        throw refusedAs(r.error!.message, {
          content: 'text',
          target_agents: 'to',
          priority: 'priority',
          member_id: 'member',
          ban: 'ban',
          prefer: 'prefer',
        });
      await rt.save(file);
      await print(JSON.stringify(r.value));
      return 0;
    },
    true,
  );
}

export const directiveCommand: Command = {
  name: 'directive',
  options: ['workbook', 'to', 'text', 'ban', 'prefer', 'member', 'priority', 'by'],
  // --ban and --prefer may be given more than once, one action type each.
  repeatable: ['ban', 'prefer'],
  positionals: 1,
  run: (args) => {
    const [sub] = args.positionals;
    if (sub === 'add') return add(args.opts);
    throw new UsageError(sub ? `unknown directive command "${sub}"` : 'give add');
  },
};
