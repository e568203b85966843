// A saved workbook opened once in the test's process, as the CLI opens one: API clients made as `kaigi token create`
// makes each (tests/cli/token.test.ts runs that command), tabs read as `kaigi export` prints them. The tests that
// serve a workbook need several tokens and read several tabs, and a `kaigi` process for each costs seconds.
import { Runtime } from '../../runtime/runtime.js';

// Opens `book` on real time, as the CLI does, runs `body` and closes the runtime; `save` writes the workbook back.
async function opened<T>(book: string, save: boolean, body: (rt: Runtime) => Promise<T>): Promise<T> {
  const rt = await Runtime.open(book, { clock: 'real' });
  try {
    const out = await body(rt);
    if (save) await rt.save(book);
    return out;
  } finally {
    await rt.close();
  }
}

async function entry(rt: Runtime, fn: string, arg: unknown): Promise<unknown> {
  const r = await rt.run(fn, [arg], { kind: 'editor' });
  if (!r.ok) throw new Error(`${fn} ${JSON.stringify(arg)}: ${r.error?.name}: ${r.error?.message}`);
  return r.value;
}

// Creates each client through the createApiClient entry point as the owner, then saves the workbook once. Returns
// the tokens in the order asked.
export function apiClients(book: string, clients: { name: string; role: string }[]): Promise<string[]> {
  return opened(book, true, async (rt) => {
    const tokens: string[] = [];
    for (const c of clients) tokens.push(((await entry(rt, 'createApiClient', c)) as { token: string }).token);
    return tokens;
  });
}

// Each tab's logical rows through the exportTab entry point, as `kaigi export --tab` prints them (JSON: dates as
// strings), by the names asked.
export function exportTabs(book: string, tabs: string[]): Promise<Record<string, any[]>> {
  return opened(book, false, async (rt) => {
    const out: Record<string, any[]> = {};
    for (const tab of tabs)
      out[tab] = JSON.parse(JSON.stringify(((await entry(rt, 'exportTab', tab)) as { rows: unknown[] }).rows));
    return out;
  });
}
