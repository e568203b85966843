// Utilities.formatDate: Java SimpleDateFormat patterns rendered in a time zone through Intl.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Parts {
  y: number;
  M: number;
  d: number;
  H: number;
  m: number;
  s: number;
  S: number;
  dow: number;
  offsetMin: number;
}

function normalizeZone(tz: string): string {
  const m = /^(?:GMT|UTC)([+-])(\d{1,2}):?(\d{2})?$/.exec(tz);
  if (m) {
    // Etc/GMT zones only cover whole hours and invert the sign.
    return `Etc/GMT${m[1] === '+' ? '-' : '+'}${Number(m[2])}`;
  }
  return tz === 'GMT' || tz === 'UTC' ? 'UTC' : tz;
}

// Building an Intl.DateTimeFormat costs about a millisecond (it loads the zone's rules), formatting with one a few
// microseconds: one formatter per zone, kept for the execution (this bundle is installed afresh in each). A zone Intl
// refuses throws on every call, as before, since only a formatter that was built is kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: normalizeZone(timeZone),
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

// formatToParts costs tens of microseconds a call, and a script formats the same instants over and over (every KPI row
// of a day, each in a few patterns): the parts of an instant in a zone are kept for the execution, as many as a
// day's worth of distinct instants a script plausibly formats, then forgotten all at once.
const seen = new Map<string, Parts>();
const SEEN_MAX = 5000;

function parts(date: Date, timeZone: string): Parts {
  const key = `${date.getTime()} ${timeZone}`;
  let p = seen.get(key);
  if (!p) {
    if (seen.size >= SEEN_MAX) seen.clear();
    p = partsOf(date, timeZone);
    seen.set(key, p);
  }
  return p;
}

function partsOf(date: Date, timeZone: string): Parts {
  const fmt = formatterFor(timeZone);
  const p: Record<string, string> = {};
  for (const x of fmt.formatToParts(date)) p[x.type] = x.value;
  const y = Number(p.year),
    M = Number(p.month),
    d = Number(p.day),
    H = Number(p.hour) % 24,
    m = Number(p.minute),
    s = Number(p.second);
  const ms = date.getTime();
  const offsetMin = Math.round((Date.UTC(y, M - 1, d, H, m, s) - (ms - (((ms % 1000) + 1000) % 1000))) / 60000);
  const dow = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday);
  return { y, M, d, H, m, s, S: ((ms % 1000) + 1000) % 1000, dow, offsetMin };
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

function zone(offsetMin: number, style: 'Z' | 'X' | 'XX' | 'XXX' | 'z'): string {
  if (style.startsWith('X') && offsetMin === 0) return 'Z';
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  const hh = pad(Math.floor(a / 60), 2),
    mm = pad(a % 60, 2);
  if (style === 'Z' || style === 'XX') return `${sign}${hh}${mm}`;
  if (style === 'X') return `${sign}${hh}`;
  if (style === 'z') return `GMT${sign}${hh}:${mm}`;
  return `${sign}${hh}:${mm}`;
}

export function formatDate(date: Date, timeZone: string, pattern: string): string {
  if (Object.prototype.toString.call(date) !== '[object Date]' || Number.isNaN(date.getTime()))
    throw new Error('Invalid argument: date');
  const p = parts(date, timeZone);
  let out = '';
  for (let i = 0; i < pattern.length; ) {
    const ch = pattern[i];
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) {
        out += "'";
        i += 2;
        continue;
      }
      out += pattern.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(ch)) {
      out += ch;
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === ch) n++;
    i += n;
    switch (ch) {
      case 'y':
        out += n === 2 ? pad(p.y % 100, 2) : pad(p.y, n);
        break;
      case 'M':
        out += n >= 4 ? MONTHS[p.M - 1] : n === 3 ? MONTHS[p.M - 1].slice(0, 3) : pad(p.M, n);
        break;
      case 'd':
        out += pad(p.d, n);
        break;
      case 'H':
        out += pad(p.H, n);
        break;
      case 'k':
        out += pad(p.H === 0 ? 24 : p.H, n);
        break;
      case 'h':
        out += pad(p.H % 12 === 0 ? 12 : p.H % 12, n);
        break;
      case 'K':
        out += pad(p.H % 12, n);
        break;
      case 'm':
        out += pad(p.m, n);
        break;
      case 's':
        out += pad(p.s, n);
        break;
      case 'S':
        out += pad(p.S, 3).slice(0, Math.max(n, 3)).padEnd(n, '0');
        break;
      case 'a':
        out += p.H < 12 ? 'AM' : 'PM';
        break;
      case 'E':
        out += n >= 4 ? DAYS[p.dow] : DAYS[p.dow].slice(0, 3);
        break;
      case 'u':
        out += String(p.dow === 0 ? 7 : p.dow);
        break;
      case 'Z':
        out += zone(p.offsetMin, 'Z');
        break;
      case 'X':
        out += zone(p.offsetMin, n === 1 ? 'X' : n === 2 ? 'XX' : 'XXX');
        break;
      case 'z':
        out += zone(p.offsetMin, 'z');
        break;
      default:
        throw new Error(`Illegal pattern character '${ch}'`);
    }
  }
  return out;
}
