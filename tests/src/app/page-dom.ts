// The pages' test harness: each page's source, its render through the built file, and a small fake DOM to run its
// scripts with google.script.run recorded.
import { labelsFor } from '../../../src/core/labels.js';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { gas, newRuntime } from '../../helpers.js';

export const root = path.resolve(__dirname, '../../..');
const htmlDir = path.join(root, 'src', 'html');
export const files = fs.readdirSync(htmlDir).filter((f) => f.endsWith('.html'));
export const source = (f: string) => fs.readFileSync(path.join(htmlDir, f), 'utf8');
export const scriptsOf = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

// Renders a page's template in the runtime, as its entry point does, in one language.
export async function render(file: string, lang: 'ja' | 'en', section = ''): Promise<string> {
  const rt = newRuntime();
  return gas(
    rt,
    `var t = HtmlService.createTemplateFromFile(${JSON.stringify(file)}); t.lang = ${JSON.stringify(lang)};` +
      ` t.section = ${JSON.stringify(section)}; t.labels = ${JSON.stringify(JSON.stringify(labelsFor(lang)))};` +
      ' return t.evaluate().getContent();',
  );
}

// Each control in static HTML and whether something names it: aria-label, a <label for>, or a button's own text.
export function unnamedControls(html: string): string[] {
  const labelled = new Set([...html.matchAll(/<label[^>]*\bfor="([^"]+)"/g)].map((m) => m[1]));
  const out: string[] = [];
  for (const m of html.matchAll(/<(input|select|textarea|button)\b([^>]*)>/g)) {
    const [tag, attrs] = [m[1], m[2]];
    const id = /\bid="([^"]+)"/.exec(attrs)?.[1] ?? '';
    if (/\baria-label="[^"]+"/.test(attrs) || (id && labelled.has(id))) continue;
    if (tag === 'button') {
      const text = html.slice(m.index! + m[0].length, html.indexOf('</button>', m.index!)).replace(/<[^>]*>/g, '');
      if (text.trim()) continue;
    }
    out.push(m[0]);
  }
  return out;
}

// A small DOM, enough for the pages' scripts: elements found by id from the body, text only through textContent.
class FakeElement {
  children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  attrs: Record<string, string> = {};
  style: Record<string, string> = {};
  [k: string]: unknown;
  private text = '';
  constructor(readonly tagName: string) {}
  get firstChild() {
    return this.children[0] ?? null;
  }
  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join('');
  }
  set textContent(v: string) {
    this.children = [];
    this.text = String(v);
  }
  appendChild(c: FakeElement) {
    c.parentNode = this;
    this.children.push(c);
    return c;
  }
  setAttribute(k: string, v: string) {
    this.attrs[k] = String(v);
  }
  getAttribute(k: string) {
    return k in this.attrs ? this.attrs[k] : null;
  }
  focus() {}
  all(): FakeElement[] {
    return this.children.flatMap((c) => [c, ...c.all()]);
  }
}

export interface Page {
  context: vm.Context;
  body: FakeElement;
  calls: { fn: string; args: unknown[]; ok: (v: unknown) => void; fail: (e: unknown) => void }[];
  byId(id: string): FakeElement | undefined;
}

// Runs a page's scripts against the fake DOM; google.script.run records each call for the test to answer.
export function openPage(html: string, ids: string[] = [], timers: { ms: number; fn: () => void }[] = []): Page {
  const body = new FakeElement('body');
  // The page's static elements (by id), as the markup would have them; scripts add the rest.
  const tags = new Map([...html.matchAll(/<([a-z][a-z0-9]*)\b[^>]*\bid="([^"]+)"/g)].map((m) => [m[2], m[1]]));
  for (const id of ids.concat([...tags.keys()]))
    if (!body.all().some((e) => e.id === id))
      body.appendChild(Object.assign(new FakeElement(tags.get(id) ?? 'div'), { id, value: '', fromMarkup: true }));
  const calls: Page['calls'] = [];
  const runner = (ok?: (v: unknown) => void, fail?: (e: unknown) => void): unknown =>
    new Proxy(
      {},
      {
        get: (_t, name: string) => {
          if (name === 'withSuccessHandler') return (f: (v: unknown) => void) => runner(f, fail);
          if (name === 'withFailureHandler') return (f: (e: unknown) => void) => runner(ok, f);
          return (...args: unknown[]) => void calls.push({ fn: name, args, ok: ok!, fail: fail! });
        },
      },
    );
  const byId = (id: string) => body.all().find((e) => e.id === id);
  const context = vm.createContext({
    document: { getElementById: byId, createElement: (tag: string) => new FakeElement(tag) },
    google: { script: { run: runner() } },
    navigator: {},
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    clearTimeout: () => {},
  });
  for (const s of scriptsOf(html)) vm.runInContext(s, context);
  return { context, body, calls, byId };
}

// Every control the scripts created, and whether it has an accessible name.
export function namedControls(page: Page): { id: string; tag: string; name: string }[] {
  const all = page.body.all();
  return (
    all
      // Controls from the markup are checked on the markup (unnamedControls); these are the scripts' own.
      .filter((e) => ['input', 'select', 'textarea', 'button'].indexOf(e.tagName) >= 0 && !e.fromMarkup)
      .map((e) => {
        const label = all.find((l) => l.tagName === 'label' && l.htmlFor === e.id && e.id);
        const name =
          e.getAttribute('aria-label') ?? (label ? label.textContent : e.tagName === 'button' ? e.textContent : '');
        return { id: String(e.id ?? ''), tag: e.tagName, name: String(name ?? '').trim() };
      })
  );
}
