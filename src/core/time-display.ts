// Times as a person reads them: an instant as the wall clock of the spreadsheet's time zone, the zone named after it.
import type { Lang } from './i18n.js';
import { parseInstant } from './instant.js';

// Only what is shown changes: cells keep their ISO UTC values (the audit chain hashes them), and machine exports
// (JSON, the API) keep them too. The sidebar's own copy of this format is fmtTime in src/html/sidebar-js-core.html.

export interface TimeShape {
  // The date before the time (default true); false for a time within a day already named nearby.
  date?: boolean;
  seconds?: boolean;
  // The zone's short name after the time (default true): "JST" in Japanese, "GMT+9" in English for Asia/Tokyo.
  zone?: boolean;
}

const LOCALES: Record<Lang, string> = { ja: 'ja-JP', en: 'en-US' };
const formats: Record<string, Intl.DateTimeFormat> = {};

// An unknown zone name would make every time unreadable: such a zone shows UTC, and says so in its label, so no time
// is ever shown in a zone other than the one it names.
function knownZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

function formatFor(zone: string, lang: Lang): Intl.DateTimeFormat {
  const key = `${zone}|${lang}`;
  // hourCycle h23 (midnight is 00, never 24) is ES2020; the type library this project compiles against is older.
  const options: Intl.DateTimeFormatOptions & { hourCycle: 'h23' } = {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  };
  return (formats[key] ??= new Intl.DateTimeFormat(LOCALES[lang], options));
}

// An ISO string, a Date or epoch ms as ms; NaN for anything that names no instant.
function instant(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || v.trim() === '') return Number.NaN;
  return parseInstant(v);
}

function partsOf(t: number, zone: string, lang: Lang): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of formatFor(zone, lang).formatToParts(new Date(t))) out[p.type] = p.value;
  return out;
}

// "2026-03-08 11:27 JST". A value that names no instant is shown as it is ('' for none), since a cell a person typed
// over is still worth reading.
export function formatInZone(v: unknown, zone: string, lang: Lang, shape: TimeShape = {}): string {
  const t = instant(v);
  if (Number.isNaN(t)) return v === null || v === undefined ? '' : String(v);
  const p = partsOf(t, knownZone(zone), lang);
  const time = `${p.hour}:${p.minute}${shape.seconds ? `:${p.second}` : ''}`;
  const day = shape.date === false ? '' : `${p.year}-${p.month}-${p.day} `;
  return `${day}${time}${shape.zone === false ? '' : ` ${p.timeZoneName}`}`;
}

// The zone as a legend names it: "Asia/Tokyo (JST)", its short name as of `at` (which moves with daylight saving).
export function zoneLabel(zone: string, lang: Lang, at = Date.now()): string {
  const z = knownZone(zone);
  const short = partsOf(at, z, lang).timeZoneName;
  return short && short !== z ? `${z} (${short})` : z;
}
