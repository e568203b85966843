// The settings dialog warns when a base URL in Settings points at this computer or a private network, which the
// deployed Kaigi's UrlFetchApp (on Google's servers) cannot reach.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { council, ok, setSetting } from '../../council-helpers.js';

interface FakeElement {
  tag: string;
  id?: string;
  textContent: string;
  className: string;
  children: FakeElement[];
  appendChild(c: FakeElement): FakeElement;
  [k: string]: unknown;
}

function element(tag: string, id?: string): FakeElement {
  const e: FakeElement = {
    tag,
    id,
    textContent: '',
    className: '',
    children: [],
    appendChild(c) {
      e.children.push(c);
      return c;
    },
  };
  Object.defineProperty(e, 'innerHTML', { set: () => void (e.children = []) });
  Object.defineProperty(e, 'firstChild', { get: () => e.children[0] ?? null });
  return e;
}

// Runs the dialog's script as a browser would: a small DOM, and google.script.run calling the runtime's server.
async function openDialog(rt: Runtime): Promise<{ byId: Record<string, FakeElement>; context: vm.Context }> {
  ok(await rt.run('showSettings', [], { kind: 'menu' }));
  const html = rt.ui.dialogs[rt.ui.dialogs.length - 1].html;
  const byId: Record<string, FakeElement> = {};
  const pending: Promise<unknown>[] = [];
  const runner = (success?: (v: unknown) => void, failure?: (e: unknown) => void): unknown =>
    new Proxy(
      {},
      {
        get: (_t, name: string) => {
          if (name === 'withSuccessHandler') return (f: (v: unknown) => void) => runner(f, failure);
          if (name === 'withFailureHandler') return (f: (e: unknown) => void) => runner(success, f);
          return (...args: unknown[]) =>
            void pending.push(
              rt.callServer(name, ...args).then(
                (v) => success?.(v),
                (e) => failure?.(e),
              ),
            );
        },
      },
    );
  const context = vm.createContext({
    document: {
      getElementById: (id: string) => (byId[id] ??= element('div', id)),
      createElement: (tag: string) => element(tag),
    },
    google: { script: { run: runner() } },
  });
  for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) vm.runInContext(m[1], context);
  while (pending.length) await pending.shift();
  return { byId, context };
}

describe('the settings dialog', () => {
  it('warns about each loopback or private base URL in Settings, and only those', async () => {
    const rt = await council();
    await setSetting(rt, 'provider.base_url', 'http://127.0.0.1:11434/v1');
    await setSetting(
      rt,
      'provider.base_urls',
      JSON.stringify({ openai: 'https://gw.example/openai', anthropic: 'http://192.168.1.20:8080', gemini: '' }),
    );
    const { byId } = await openDialog(rt);
    expect(byId.result?.textContent ?? '').toBe('');
    const shown = byId.urls.children.map((c) => [c.tag, c.className, c.textContent]);
    expect(shown.map(([tag, cls, text]) => (tag === 'label' ? text : cls))).toEqual([
      'provider.base_url: http://127.0.0.1:11434/v1',
      'warn',
      'provider.base_urls → openai: https://gw.example/openai',
      'provider.base_urls → anthropic: http://192.168.1.20:8080',
      'warn',
    ]);
    // In the person's language (Japanese for this workbook): Google's servers cannot reach it; the local runtime can.
    expect(shown[1][2]).toMatch(/Google のサーバーからは届かない/);
    expect(shown[1][2]).toMatch(/ローカル ランタイム（npx kaigi run --base-url/);
  });

  it('says nothing when no base URL is local', async () => {
    const rt = await council();
    await setSetting(rt, 'provider.base_url', 'https://openrouter.ai/api/v1');
    const { byId } = await openDialog(rt);
    expect(byId.urls.children.map((c) => c.className)).toEqual(['']);
  });

  it('judges a URL as written: local names and every spelling of a local address', async () => {
    const rt = await council();
    const { context } = await openDialog(rt);
    const isLocal = (u: string) => vm.runInContext(`isLocalBaseUrl(${JSON.stringify(u)})`, context) as boolean;
    const local = [
      'http://127.0.0.1:11434/v1',
      'http://localhost:11434/v1',
      'HTTP://LOCALHOST./v1',
      'http://ollama:11434/v1',
      'http://nas.local:8080',
      'http://gpu.lan/v1',
      'http://10.0.0.5/',
      'http://172.20.1.1/',
      'http://192.168.1.20:8080',
      'http://169.254.169.254/',
      'http://100.64.1.1/',
      'http://0.0.0.0:8000/',
      'http://[::1]:8080/',
      'http://[fd00::5]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://127.1:8080/',
      'http://2130706433/',
      'http://user:pw@127.0.0.1/v1',
    ];
    for (const u of local) expect(isLocal(u), u).toBe(true);
    const remote = [
      'https://api.openai.com/v1',
      'https://openrouter.ai/api/v1',
      'http://8.8.8.8/',
      'http://172.32.0.1/',
      'http://100.128.0.1/',
      'https://[2001:db8::1]/',
      'https://123abc.de/v1',
      '',
      'not a url',
    ];
    for (const u of remote) expect(isLocal(u), u).toBe(false);
  });
});
