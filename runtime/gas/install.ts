// Installs Apps Script's globals into a fresh V8 context and returns the host's helpers for it.
import { setBridge, encode, type Bridge, getBridge } from './bridge.js';
import { ContentService, HtmlOutput, HtmlService, TextOutput } from './html.js';
import { console, Logger } from './logger.js';
import { ScriptApp } from './script-app.js';
import { Charts, Sheet, SpreadsheetApp } from './spreadsheet.js';
import { CacheService, LockService, PropertiesService } from './stores.js';
import { UrlFetchApp } from './url-fetch.js';
import { Session, Utilities } from './utilities.js';

const MIME_TYPES: Record<string, string> = {
  PLAIN_TEXT: 'text/plain',
  HTML: 'text/html',
  JSON: 'application/json',
  CSV: 'text/csv',
  PDF: 'application/pdf',
  PNG: 'image/png',
  JPEG: 'image/jpeg',
  MICROSOFT_EXCEL: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  GOOGLE_SHEETS: 'application/vnd.google-apps.spreadsheet',
};

// The context's Date follows the runtime's clock, so virtual time moves dates inside the script too.
function installClock(g: Record<string, unknown>): void {
  const RealDate = Date;
  const now = () => getBridge().now();
  // One argument (an instant or a text) is the common call and passes straight on; a rest parameter and a spread
  // cost every construction an array (ten times the real constructor's time in a loop of dates).
  const ClockDate = function (this: unknown, value?: unknown) {
    if (!new.target) return new RealDate(now()).toString();
    // biome-ignore lint/complexity/noArguments: new Date() and new Date(undefined) differ; only the count tells them apart
    const n = arguments.length;
    const d =
      n === 0
        ? new RealDate(now())
        : n === 1
          ? new RealDate(value as number)
          : // biome-ignore lint/complexity/noArguments: the rare call with fields passes them all on, as given
            new (RealDate as unknown as new (...a: unknown[]) => Date)(...Array.prototype.slice.call(arguments));
    if (new.target !== ClockDate) Object.setPrototypeOf(d, new.target.prototype);
    return d;
  } as unknown as DateConstructor;
  Object.defineProperty(ClockDate, 'prototype', { value: RealDate.prototype, writable: false });
  Object.defineProperty(RealDate.prototype, 'constructor', { value: ClockDate, writable: true, configurable: true });
  ClockDate.now = now;
  ClockDate.parse = RealDate.parse;
  ClockDate.UTC = RealDate.UTC;
  Object.defineProperty(g, 'Date', { value: ClockDate, writable: true, configurable: true, enumerable: false });
}

export function install(g: Record<string, unknown>, bridge: Bridge) {
  setBridge(bridge);
  for (const name of ['SharedArrayBuffer', 'Atomics', 'WebAssembly']) delete g[name];
  installClock(g);
  const globals: Record<string, unknown> = {
    SpreadsheetApp,
    PropertiesService,
    CacheService,
    LockService,
    UrlFetchApp,
    Utilities,
    ScriptApp,
    HtmlService,
    ContentService,
    Session,
    Logger,
    console,
    Charts,
    MimeType: MIME_TYPES,
  };
  for (const k of Object.keys(globals))
    Object.defineProperty(g, k, { value: globals[k], writable: true, configurable: true, enumerable: false });
  return {
    // Event objects may name a range ({$range}); the script receives a live Range, as Apps Script passes one.
    decode(text: string): unknown {
      return JSON.parse(text, (_k, v) => {
        if (v && typeof v === 'object' && typeof v.$d === 'number' && Object.keys(v).length === 1)
          return new Date(v.$d);
        // e.user of an event is a User object, as Session's are.
        if (v && typeof v === 'object' && typeof v.$user === 'string' && Object.keys(v).length === 1) {
          const email = v.$user as string;
          return { getEmail: () => email, getUserLoginId: () => email, toString: () => 'User' };
        }
        if (v && typeof v === 'object' && v.$range) {
          const r = v.$range as { sheet: number; name: string; row: number; col: number; rows: number; cols: number };
          return new Sheet({ id: r.sheet, name: r.name }, true).getRange(r.row, r.col, r.rows, r.cols);
        }
        return v;
      });
    },
    // How the host sees a function's return value: outputs by their content, data as JSON.
    describe(value: unknown): string {
      if (value instanceof TextOutput)
        return JSON.stringify({ kind: 'text', mimeType: value.contentType(), content: value.getContent() });
      if (value instanceof HtmlOutput)
        return JSON.stringify({
          kind: 'html',
          mimeType: 'text/html',
          content: value.getContent(),
          title: value.getTitle(),
        });
      if (value === undefined) return JSON.stringify({ kind: 'data', value: null, undefined: true });
      return JSON.stringify({ kind: 'data', value: JSON.parse(encode(value) ?? 'null'), plain: isPlain(value) });
    },
  };
}

// google.script.run accepts only primitives, arrays and plain objects; a Date or a function fails the call.
function isPlain(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === undefined)
    return true;
  if (typeof v === 'function') return false;
  if (Array.isArray(v)) return v.every(isPlain);
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.keys(v as object).every((k) => isPlain((v as Record<string, unknown>)[k]));
  }
  return false;
}
