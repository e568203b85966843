// Strings bounded in characters as JSON Schema counts them, for the zod schemas answers and records are checked with.
import { z } from './zod.js';

// A string's length as JSON Schema counts it (code points, not UTF-16 units), so minLength and maxLength mean here what
// they mean to a vendor: an answer of 80 emoji fits a maxLength of 80 and is accepted.
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

// One schema per pair of bounds for the execution: zod schemas never change once made, and building the answer and
// record schemas asked for the same few bounds some forty times (three zod schemas each: the string, its refinement,
// its metadata). The JSON Schema sent to a model is the same either way (shared schemas are written inline).
const made = new Map<string, ReturnType<typeof bounded>>();

// A string of min to max characters; the bounds reach the JSON Schema as minLength and maxLength.
export function chars(min: number, max?: number) {
  const key = `${min} ${max}`;
  let schema = made.get(key);
  if (!schema) {
    schema = bounded(min, max);
    made.set(key, schema);
  }
  return schema;
}

function bounded(min: number, max?: number) {
  const bounds: { minLength?: number; maxLength?: number } = {};
  if (min > 0) bounds.minLength = min;
  if (max !== undefined) bounds.maxLength = max;
  const message =
    max === undefined
      ? `expected at least ${min} character${min === 1 ? '' : 's'}`
      : `expected ${min > 0 ? `${min} to ` : 'at most '}${max} characters`;
  return z
    .string()
    .refine((s) => {
      const n = codePoints(s);
      return n >= min && (max === undefined || n <= max);
    }, message)
    .meta(bounds);
}
