// A small streaming XML scanner for the SpreadsheetML parts of an .xlsx file: elements, attributes and text.
// Namespace prefixes are dropped from element names (some writers use x:c for c), text and attribute values are
// decoded (entities, character references, XML's line-end rule); anything malformed is reported, never skipped.

export interface XmlEvents {
  open(name: string, attrs: Record<string, string>, empty: boolean): void;
  close(name: string): void;
  text(text: string): void;
}

const ENTITY = /&(?:#(\d+);|#x([0-9A-Fa-f]+);|(lt|gt|amp|quot|apos);)?/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

// Text as an XML parser gives it: CR LF and a lone CR become LF (a CR written as &#13; stays), entities decoded.
// null when it holds an entity XML does not define.
function decodeXmlText(raw: string): string | null {
  const s = raw.indexOf('\r') >= 0 ? raw.replace(/\r\n?/g, '\n') : raw;
  if (s.indexOf('&') < 0) return s;
  let bad = false;
  const out = s.replace(ENTITY, (_, dec: string | undefined, hex: string | undefined, named: string | undefined) => {
    if (named) return NAMED[named];
    const code = dec ? Number(dec) : hex ? Number.parseInt(hex, 16) : Number.NaN;
    if (Number.isNaN(code) || code > 0x10ffff) {
      bad = true;
      return '';
    }
    return String.fromCodePoint(code);
  });
  return bad ? null : out;
}

function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

const GT = 62; // >
const SLASH = 47;
const QUOTE = 34;
const APOS = 39;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

// Calls back for every element and text run in document order; `fail` reports what is malformed and where.
// A hand-written loop over the characters: a sheet of 200,000 cells is 8 MB of XML, and a regular expression
// per token costs seconds there.
export function scanXml(xml: string, on: XmlEvents, fail: (problem: string) => never): void {
  const open: string[] = [];
  const n = xml.length;
  let i = 0;
  // Takes the position as an argument: a closure over `i` would make every access to it slower.
  const at: (problem: string, pos: number) => never = (problem, pos) => fail(`${problem} (near character ${pos})`);
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const raw = xml.slice(i, textEnd);
      const text = decodeXmlText(raw);
      if (text === null) at('an entity XML does not define', i);
      if (open.length) on.text(text);
      else if (raw.trim()) at('text outside the root element', lt);
    }
    if (lt < 0) break;
    i = lt;
    const c = xml.charCodeAt(lt + 1);
    if (c === 63 /* ? */) {
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) at('an unterminated processing instruction', lt);
      i = end + 2;
    } else if (c === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end < 0) at('an unterminated comment', lt);
        i = end + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end < 0) at('an unterminated CDATA section', lt);
        if (!open.length) at('CDATA outside the root element', lt);
        on.text(xml.slice(lt + 9, end));
        i = end + 3;
      } else {
        const end = xml.indexOf('>', lt + 2);
        if (end < 0) at('an unterminated declaration', lt);
        i = end + 1;
      }
    } else if (c === SLASH) {
      const end = xml.indexOf('>', lt + 2);
      if (end < 0) at('an unterminated end tag', lt);
      const name = localName(xml.slice(lt + 2, end).trim());
      const top = open.pop();
      if (top !== name) at(`</${name}> closes <${top ?? 'nothing'}>`, lt);
      on.close(name);
      i = end + 1;
    } else {
      let p = lt + 1;
      while (p < n) {
        const ch = xml.charCodeAt(p);
        if (isSpace(ch) || ch === SLASH || ch === GT) break;
        p++;
      }
      if (p === lt + 1) at('malformed XML', lt);
      const name = localName(xml.slice(lt + 1, p));
      const attrs: Record<string, string> = {};
      let empty = false;
      for (;;) {
        while (p < n && isSpace(xml.charCodeAt(p))) p++;
        if (p >= n) at(`an unterminated <${name}>`, lt);
        const ch = xml.charCodeAt(p);
        if (ch === GT) {
          p++;
          break;
        }
        if (ch === SLASH) {
          if (xml.charCodeAt(p + 1) !== GT) at(`a stray / in <${name}>`, lt);
          empty = true;
          p += 2;
          break;
        }
        const eq = xml.indexOf('=', p);
        if (eq < 0) at(`an attribute without a value in <${name}>`, lt);
        const key = xml.slice(p, eq).trim();
        p = eq + 1;
        while (p < n && isSpace(xml.charCodeAt(p))) p++;
        const q = xml.charCodeAt(p);
        if (q !== QUOTE && q !== APOS) at(`the attribute ${key} of <${name}> is not quoted`, lt);
        const close = xml.indexOf(q === QUOTE ? '"' : "'", p + 1);
        if (close < 0 || !key || /[\s<>/]/.test(key)) at(`a malformed attribute in <${name}>`, lt);
        const value = xml.slice(p + 1, close);
        const decoded = value.indexOf('&') < 0 && value.indexOf('\r') < 0 ? value : decodeXmlText(value);
        if (decoded === null) at(`an entity XML does not define in the attribute ${key} of <${name}>`, lt);
        attrs[key] = decoded;
        p = close + 1;
      }
      on.open(name, attrs, empty);
      if (empty) on.close(name);
      else open.push(name);
      i = p;
    }
  }
  if (open.length) fail(`<${open[open.length - 1]}> is never closed`);
}

// An attribute whatever its namespace prefix (r:id is written with other prefixes too).
export function attrOf(attrs: Record<string, string>, local: string): string | undefined {
  if (local in attrs) return attrs[local];
  for (const k in attrs) if (localName(k) === local) return attrs[k];
  return undefined;
}
