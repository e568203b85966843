// GET / of `kaigi serve`: the page its printed address opens: every preview page in Japanese and in English, the web
// app's API (its OpenAPI document) and MCP, and who is on the team; a workbook without a team gets a button that loads
// the demo team through the same server function as the menu's item, over the preview's google.script.run.
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { escapeHtml } from '../gas/html.js';
import { findRoot } from '../runtime.js';
import { errorPage, fromLoopback, injectShim, localeOf } from './pages.js';
import { type HttpRoute, sendText } from './route-table.js';

type Lang = 'ja' | 'en';
type Bilingual = Record<Lang, string>;

export interface IndexOptions {
  // The workbook served (its path is shown: the page answers only this machine).
  workbook: string;
  // The previewed pages (`/sidebar`, `/dialog/start`, `/dashboard`), each linked with ?locale=ja and ?locale=en.
  pages: { path: string; label: Bilingual }[];
  // The team as it is now, read between executions.
  members(): { member_id: string; name: string }[];
  // The server function that loads the demo team and its menu label; absent, no button is offered.
  demo?: { fn: string; label: Bilingual };
}

export interface IndexDeps {
  opts: IndexOptions;
  // The locale of a page whose URL names none.
  locale: string;
  // The host name the server is bound to (accepted as a Host header, as the preview pages accept it).
  host: string;
  // The preview's google.script.run nonce (Pages.nonce), for the demo button.
  nonce: string;
}

const TEXT = {
  ja: {
    title: 'Kaigi プレビュー',
    workbook: 'ブック',
    team: (n: number) => `メンバー ${n} 人`,
    noTeam: 'メンバーがまだいません。',
    pages: 'プレビュー（各ページは、メニューが呼ぶのと同じ関数の HtmlService 出力です）',
    page: 'ページ',
    api: 'Web アプリの API と MCP',
    openapi: 'OpenAPI 文書（どのロールでもトークンが要ります。URL に &token=… を付けてください）',
    token: 'トークンを作る（最後の行に一度だけ表示されます）',
    rest: 'REST：パスは path パラメータに、GET のトークンは token パラメータに、POST のトークンは JSON 本文に',
    mcp: 'MCP：POST …/exec?path=/mcp（JSON-RPC 2.0）。デスクトップのクライアントからは標準入出力のブリッジで',
    loading: '読み込み中…',
  },
  en: {
    title: 'Kaigi preview',
    workbook: 'Workbook',
    team: (n: number) => `${n} member${n === 1 ? '' : 's'}`,
    noTeam: 'There is no one on the team yet.',
    pages: 'Preview (each page is the HtmlService output of the entry point the menu calls)',
    page: 'Page',
    api: 'The web app’s API and MCP',
    openapi: 'The OpenAPI document (it needs a token of any role: add &token=… to the URL)',
    token: 'Create a token (printed once, on the last line)',
    rest: 'REST: the route goes in the path parameter, a GET’s token in the token parameter, a POST’s in the JSON body',
    mcp: 'MCP: POST …/exec?path=/mcp (JSON-RPC 2.0); a desktop client reaches it through the stdio bridge',
    loading: 'Loading…',
  },
};

// A word the shell takes as it is, else single-quoted.
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

// This checkout's command line by its absolute path: `npx kaigi` outside the checkout would run whatever npm
// package has that name, and hand it the token.
const kaigiCommand = () => `node ${shellWord(path.join(findRoot(), 'bin', 'kaigi.js'))}`;

// The address the client used (fromLoopback has checked it names this machine).
const originOf = (req: IncomingMessage) => `http://${req.headers.host ?? ''}`;

const link = (href: string) => `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>`;

function team(d: IndexDeps, lang: Lang): string {
  const t = TEXT[lang];
  const members = d.opts.members();
  if (members.length) {
    const names = members.map((m) => `${m.name} (${m.member_id})`).join(', ');
    return `<p id="team">${escapeHtml(t.team(members.length))}: ${escapeHtml(names)}</p>`;
  }
  if (!d.opts.demo) return `<p id="team">${escapeHtml(t.noTeam)}</p>`;
  // The shim's call runs as the owner, whom the function's role check admits, as the menu item would.
  const call = `google.script.run.withSuccessHandler(function () { location.reload(); }).withFailureHandler(function (e) { b.disabled = false; document.getElementById('demo-error').textContent = e.message; })[${JSON.stringify(d.opts.demo.fn)}]();`;
  return (
    `<p id="team">${escapeHtml(t.noTeam)} <button id="load-demo" type="button">${escapeHtml(d.opts.demo.label[lang])}</button>` +
    ` <span id="demo-error" role="alert"></span></p>` +
    `<script>(function () { var b = document.getElementById('load-demo'); b.onclick = function () { b.disabled = true; b.textContent = ${JSON.stringify(t.loading)}; ${call} }; })();</script>`
  );
}

function page(d: IndexDeps, lang: Lang, origin: string): string {
  const t = TEXT[lang];
  const rows = d.opts.pages
    .map(
      (p) =>
        `<tr><th scope="row">${escapeHtml(p.label[lang])}</th>` +
        `<td>${link(`${p.path}?locale=ja`)}</td><td>${link(`${p.path}?locale=en`)}</td></tr>`,
    )
    .join('');
  const exec = `${origin}/exec`;
  const book = shellWord(d.opts.workbook);
  const kaigi = kaigiCommand();
  return (
    `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(t.title)}</title>` +
    '<style>body{font:14px/1.5 system-ui,sans-serif;margin:24px;max-width:900px}td,th{padding:4px 12px 4px 0;text-align:left}' +
    'code{background:#f1f3f4;padding:1px 4px}#demo-error{color:#c5221f}</style></head><body>' +
    `<h1>${escapeHtml(t.title)}</h1>` +
    `<p>${escapeHtml(t.workbook)}: <code id="workbook">${escapeHtml(d.opts.workbook)}</code></p>` +
    team(d, lang) +
    `<h2>${escapeHtml(t.pages)}</h2>` +
    `<table id="pages"><tr><th>${escapeHtml(t.page)}</th><th>日本語</th><th>English</th></tr>${rows}</table>` +
    `<h2>${escapeHtml(t.api)}</h2><ul id="api">` +
    `<li>${escapeHtml(t.openapi)}: ${link('/exec?path=/openapi.json')}</li>` +
    `<li>${escapeHtml(t.token)}: <code>${escapeHtml(`${kaigi} token create --workbook ${book} --role viewer --name me`)}</code></li>` +
    `<li>${escapeHtml(t.rest)}: <code>${escapeHtml(`${exec}?path=/status&token=…`)}</code></li>` +
    `<li>${escapeHtml(t.mcp)}: <code>${escapeHtml(`KAIGI_TOKEN=… ${kaigi} mcp --url ${exec}`)}</code></li>` +
    '</ul></body></html>'
  );
}

export function indexRoute(d: IndexDeps): HttpRoute {
  return {
    path: '/',
    methods: ['GET', 'HEAD'],
    handle: ({ req, res, url }) => {
      if (!fromLoopback(req, d.host)) return errorPage(res, 403, 'Forbidden', 'Only this machine may open it.');
      const locale = localeOf(url, d.locale);
      if (!locale) return errorPage(res, 400, 'Bad Request', 'locale must look like ja, en or en_US.');
      const lang: Lang = /^ja/i.test(locale) ? 'ja' : 'en';
      const html = injectShim(page(d, lang, originOf(req)), { nonce: d.nonce, locale, title: TEXT[lang].title });
      sendText(res, 200, 'text/html', html);
    },
  };
}
