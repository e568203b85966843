// Untrusted JSON, checked without recursion: nesting deeper than MAX_JSON_DEPTH and the keys that reach an object's
// prototype (__proto__, constructor, prototype) are refused before anything reads the value, so no input can
// overflow the stack (JSON.parse, zod, a canonical form or a prompt's bounding all recurse) or pass for fields.
import { ValidationError } from './errors.js';

// Deeper than any input Kaigi reads (a trigger's context, a room message's metadata, a JSON-RPC call) needs.
export const MAX_JSON_DEPTH = 64;

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

// Every name a plain object has by inheritance (toString, valueOf, hasOwnProperty, __proto__, constructor …): no query
// parameter of any route has one, and code that looks such a name up in a parameter object finds the member, not a
// value, so each is refused by name like a forbidden key.
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

export function isPrototypeName(key: string): boolean {
  return FORBIDDEN_KEYS.has(key) || PROTOTYPE_NAMES.has(key);
}

// The refusal: 400 invalid_json in the API's answer (errorToApi maps a ValidationError to 400 with its code).
export class JsonInputError extends ValidationError {
  constructor(
    message: string,
    // Where: the path of a forbidden key (`context.a.__proto__`) or the depth reached; none for text that is not JSON.
    readonly issues?: { field: string; code: string; message: string }[],
  ) {
    super(message, 'invalid_json');
  }
}

function tooDeep(what: string, depth: number, field = ''): JsonInputError {
  const message = `${what} is nested deeper than ${MAX_JSON_DEPTH} levels (${depth} or more).`;
  return new JsonInputError(message, [{ field, code: 'too_deep', message }]);
}

// The deepest nesting of arrays and objects in JSON text, counted by one pass over the characters outside strings;
// stops counting as soon as the limit is passed. Text that is not JSON is left for JSON.parse to refuse.
export function jsonDepth(text: string, stopAbove = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

// Walks a value with an explicit stack: its depth and the first forbidden key, by path. Own keys only (JSON.parse
// and a google.script.run argument make every key, __proto__ included, an own property).
export function checkJsonValue(value: unknown, what = 'The input', root = ''): void {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: root, depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > MAX_JSON_DEPTH) throw tooDeep(what, depth + 1, path);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: childPath(path, i), depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(v)) {
      const at = childPath(path, key);
      if (isForbiddenKey(key))
        throw new JsonInputError(`${what} may not hold the key ${key} (at ${at}).`, [
          { field: at, code: 'forbidden_key', message: `the key ${key} is not accepted` },
        ]);
      stack.push({ v: (v as Record<string, unknown>)[key], path: at, depth: depth + 1 });
    }
  }
}

// JSON text from a client: depth first (before JSON.parse recurses into it), then parsed, then its keys checked.
// A text that is not JSON throws a JsonInputError too, never quoting the text.
export function parseJsonInput(text: string, what = 'The request body'): unknown {
  const depth = jsonDepth(text);
  if (depth > MAX_JSON_DEPTH) throw tooDeep(what, depth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonInputError(`${what} is not valid JSON.`);
  }
  checkJsonValue(value, what);
  return value;
}

// Object.hasOwn (ES2022, beyond the bundle's ES2019 library): a name is looked up among a record's own keys, never
// its prototype's, so `__proto__` or `constructor` is a name like any other.
export function hasOwn(o: object, key: string): boolean {
  // biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is not in the ES2019 library the bundle targets
  return Object.prototype.hasOwnProperty.call(o, key);
}

// A stored JSON object (a Script Property's value): null when nothing is stored; `fail(why)` builds the error a
// value that is not a JSON object throws, so each reader names its own property and error type.
export function parseStoredObject(raw: string | null, fail: (why: string) => Error): Record<string, unknown> | null {
  if (raw === null || raw.trim() === '') return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw fail('not JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw fail('not an object');
  return v as Record<string, unknown>;
}
