// kaigi tick: one time-driven execution on a saved workbook, as Apps Script would run it.
import { type Command, print, withExisting } from '../shared.js';

export const tickCommand: Command = {
  name: 'tick',
  options: ['workbook'],
  run: ({ opts }) =>
    withExisting(
      opts,
      async (rt, file) => {
        const r = await rt.run('tick', [], { kind: 'trigger' });
        await rt.save(file);
        await print(JSON.stringify(r.ok ? r.value : { error: r.error?.message }));
        return r.ok ? 0 : 1;
      },
      true,
    ),
};
