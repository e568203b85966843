// Text that names an instant as epoch ms: only a form that carries its zone, since a zone-less time means a host's zone.
//
// `Date.parse('2026-01-01 09:30')` is 09:30 in whatever zone the process runs in: the script's on Apps Script, the
// developer's on a laptop, UTC in CI. A cell a person typed that way names no one instant, so it is not read as one.
// Accepted: ISO 8601 with Z or an offset ('2026-01-01T09:30:00Z', '…+09:00'); a date alone ('2026-01-01'), which
// ECMAScript reads as UTC midnight; an HTTP date ('Wed, 21 Oct 2015 07:28:00 GMT', as a Retry-After header gives it).

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

// NaN for anything else, a zone-less date and time included.
export function parseInstant(text: string): number {
  const s = text.trim();
  if (!ISO_DATE.test(s) && !ISO_ZONED.test(s) && !HTTP_DATE.test(s)) return Number.NaN;
  return Date.parse(s);
}
