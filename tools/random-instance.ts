// Random instances of a vendor's answer schema, drawn the way a careless model would fill it, for the model server.
import { generateSync } from 'json-schema-faker';
import { asJsonSchema, LENGTH_PATTERN, type Json, type Vendor } from './model-wire.js';
import { seededRandom } from './seeded-random.js';

// Where a schema sets no upper bound, a draw still sometimes goes past every bound Kaigi's checks use, so a bound a
// vendor's schema left out shows up as a refused answer.
const UNBOUNDED = { length: 25000, items: 30 };

// A size in [min, max]: mostly small, sometimes the largest allowed, sometimes anywhere. Sizes near the bounds are
// where a vendor's schema and Kaigi's checks would part; small ones keep most draws cheap.
function size(min: number, max: number | undefined, small: number, r: () => number, cap: number): number {
  const hi = max ?? Math.max(min, cap);
  const x = r();
  if (x < 0.9) return min + Math.floor(r() * (Math.min(hi, min + small) - min + 1));
  if (x < 0.95) return hi;
  return min + Math.floor(r() * (hi - min + 1));
}

// Characters a model may write: ASCII (quotes, backslashes and a formula-like "=" included), a new line, Japanese,
// and emoji outside the BMP, which JSON Schema counts as one character and JavaScript's length as two.
const ALPHABET = Array.from(
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?-=+@"\\/<>()[]{}\n会議連絡数低下称賛目標面談休息研修🙂📈🚀🏯',
);

function randomText(n: number, r: () => number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return out;
}

// Narrows a JSON Schema to one draw: each array gets a length within its bounds and a schema per element, and each
// free string a fixed text of a length within its bounds. Every instance of the narrowed schema is an instance of the
// original, so drawing from it is drawing from the original; json-schema-faker draws the rest (enums, numbers,
// which optional properties appear, which anyOf branch).
function sized(schema: any, r: () => number): any {
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = { ...schema };
  if (out.properties)
    out.properties = Object.fromEntries(Object.entries(out.properties as Json).map(([k, x]) => [k, sized(x, r)]));
  if (out.anyOf) out.anyOf = (out.anyOf as Json[]).map((x) => sized(x, r));
  if (out.type === 'array' && out.items) {
    const max = out.maxItems === undefined ? undefined : Number(out.maxItems);
    const n = size(Number(out.minItems ?? 0), max, 3, r, UNBOUNDED.items);
    out.prefixItems = Array.from({ length: n }, () => sized(out.items, r));
    out.minItems = n;
    out.maxItems = n;
  }
  if (out.type === 'string' && !out.enum && !out.format) {
    const m = typeof out.pattern === 'string' ? LENGTH_PATTERN.exec(out.pattern) : null;
    if (m || out.pattern === undefined) {
      const min = m ? Number(m[1]) : Number(out.minLength ?? 0);
      const maxText = m ? m[2] : out.maxLength;
      const max = maxText === undefined || maxText === '' ? undefined : Number(maxText);
      out.const = randomText(size(min, max, 12, r, UNBOUNDED.length), r);
    }
  }
  return out;
}

// One random instance of a vendor's schema, the same for the same seed: optional properties come and go, enums take
// any member, strings and arrays any size their bounds allow (see sized()).
export function randomInstance(vendor: Vendor, schema: any, seed: number): any {
  return generateSync(sized(asJsonSchema(vendor, schema), seededRandom(seed)), { seed, optionalsProbability: 0.5 });
}
