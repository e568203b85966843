// HtmlService (templates with scriptlets, outputs) and ContentService (text and JSON outputs).
import { enumOf, GasError, getBridge } from './bridge.js';
import { Blob } from './utilities.js';

const SandboxMode = enumOf(['EMULATED', 'IFRAME', 'NATIVE']);
const XFrameOptionsMode = enumOf(['ALLOWALL', 'DEFAULT']);

export class HtmlOutput {
  private title = '';
  private width = 300;
  private height = 500;
  private readonly meta: { name: string; content: string }[] = [];
  xFrame = 'DEFAULT';
  constructor(private content = '') {}
  getContent(): string {
    return this.content;
  }
  setContent(c: string): HtmlOutput {
    this.content = String(c);
    return this;
  }
  append(c: string): HtmlOutput {
    this.content += String(c);
    return this;
  }
  appendUntrusted(c: string): HtmlOutput {
    this.content += escapeHtml(String(c));
    return this;
  }
  clear(): HtmlOutput {
    this.content = '';
    return this;
  }
  getTitle(): string {
    return this.title;
  }
  setTitle(t: string): HtmlOutput {
    this.title = String(t);
    return this;
  }
  getWidth(): number {
    return this.width;
  }
  setWidth(w: number): HtmlOutput {
    this.width = w;
    return this;
  }
  getHeight(): number {
    return this.height;
  }
  setHeight(h: number): HtmlOutput {
    this.height = h;
    return this;
  }
  setSandboxMode(_m: string): HtmlOutput {
    return this;
  }
  setXFrameOptionsMode(m: string): HtmlOutput {
    this.xFrame = m;
    return this;
  }
  setFaviconUrl(_u: string): HtmlOutput {
    return this;
  }
  addMetaTag(name: string, content: string): HtmlOutput {
    this.meta.push({ name, content });
    return this;
  }
  getMetaTags() {
    return this.meta.slice();
  }
  asTemplate(): HtmlTemplate {
    return new HtmlTemplate(this.content);
  }
  getBlob(): Blob {
    return new Blob(this.content, 'text/html', this.title || null);
  }
  getAs(t: string): Blob {
    return this.getBlob().getAs(t);
  }
}

// Text for HTML or SVG (XML) content and attribute values.
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// Compiles <? code ?>, <?= escaped ?> and <?!= raw ?> into a function run with the template's fields in scope.
function compile(source: string): string {
  let js = 'var __o = [];\nwith (__data) {\n';
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    js += `__o.push(${JSON.stringify(source.slice(last, m.index))});\n`;
    if (m[1] === '=') js += `__o.push(__esc(${m[2]}));\n`;
    else if (m[1] === '!=') js += `__o.push(String(${m[2]}));\n`;
    else js += `${m[2]}\n`;
    last = re.lastIndex;
  }
  js += `__o.push(${JSON.stringify(source.slice(last))});\n}\nreturn __o.join('');`;
  return js;
}

export class HtmlTemplate {
  [field: string]: unknown;
  constructor(private readonly source: string) {}
  getRawContent(): string {
    return this.source;
  }
  getCode(): string {
    return compile(this.source);
  }
  evaluate(): HtmlOutput {
    getBridge().check();
    const data: Record<string, unknown> = {};
    for (const k of Object.keys(this)) if (k !== 'source') data[k] = this[k];
    // Scriptlets run in the script's global scope, as in Apps Script, with template fields visible.
    const fn = new Function('__data', '__esc', compile(this.source));
    return new HtmlOutput(fn(data, (v: unknown) => escapeHtml(String(v))));
  }
}

// Read from the host at the first file the execution asks for (this bundle is installed afresh in each execution).
let projectFiles: Record<string, string> | undefined;

function file(name: string): string {
  projectFiles ??= JSON.parse(getBridge().files()) as Record<string, string>;
  const files = projectFiles;
  const key = name.replace(/\.html$/, '');
  if (!(key in files)) throw new GasError(`No HTML file named ${key} was found.`);
  return files[key];
}

export const HtmlService = {
  SandboxMode,
  XFrameOptionsMode,
  createHtmlOutput(html: string | Blob = ''): HtmlOutput {
    getBridge().check();
    return new HtmlOutput(typeof html === 'string' ? html : html.getDataAsString());
  },
  createHtmlOutputFromFile(name: string): HtmlOutput {
    getBridge().check();
    return new HtmlOutput(file(name));
  },
  createTemplate(html: string): HtmlTemplate {
    getBridge().check();
    return new HtmlTemplate(String(html));
  },
  createTemplateFromFile(name: string): HtmlTemplate {
    getBridge().check();
    return new HtmlTemplate(file(name));
  },
  getUserAgent(): string {
    return 'Mozilla/5.0 (local runtime)';
  },
};

const MimeType = enumOf(['ATOM', 'CSV', 'ICAL', 'JAVASCRIPT', 'JSON', 'RSS', 'TEXT', 'VCARD', 'XML']);
const MIME: Record<string, string> = {
  ATOM: 'application/atom+xml',
  CSV: 'text/csv',
  ICAL: 'text/calendar',
  JAVASCRIPT: 'application/javascript',
  JSON: 'application/json',
  RSS: 'application/rss+xml',
  TEXT: 'text/plain',
  VCARD: 'text/vcard',
  XML: 'text/xml',
};

export class TextOutput {
  private mime = 'TEXT';
  private fileName: string | null = null;
  constructor(private content = '') {}
  getContent(): string {
    return this.content;
  }
  setContent(c: string): TextOutput {
    this.content = String(c);
    return this;
  }
  append(c: string): TextOutput {
    this.content += String(c);
    return this;
  }
  clear(): TextOutput {
    this.content = '';
    return this;
  }
  getMimeType(): string {
    return this.mime;
  }
  setMimeType(m: string): TextOutput {
    if (!(m in MIME)) throw new GasError('Invalid argument: mimeType');
    this.mime = m;
    return this;
  }
  downloadAsFile(name: string): TextOutput {
    this.fileName = name;
    return this;
  }
  getFileName(): string | null {
    return this.fileName;
  }
  contentType(): string {
    return MIME[this.mime];
  }
}

export const ContentService = {
  MimeType,
  createTextOutput(content?: string): TextOutput {
    getBridge().check();
    return new TextOutput(content === undefined ? '' : String(content));
  },
};
