// The JSON guard: depth counted without recursion, prototype keys refused by path, own keys only.
import { describe, expect, it } from 'vitest';
import {
  checkJsonValue,
  hasOwn,
  JsonInputError,
  jsonDepth,
  MAX_JSON_DEPTH,
  parseJsonInput,
} from '../../../src/core/json-guard.js';

const nested = (n: number, inner = '1') => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;

function refusal(f: () => unknown): JsonInputError {
  try {
    f();
  } catch (e) {
    if (e instanceof JsonInputError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('the JSON guard', () => {
  it('counts depth outside strings only, and stops counting past the limit', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[[{{{"}]}')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    expect(jsonDepth(nested(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
    expect(jsonDepth(nested(1_000_000))).toBe(MAX_JSON_DEPTH + 1);
  });

  it('accepts 64 levels and refuses 65, and 300,000, as invalid_json without overflowing the stack', () => {
    expect(parseJsonInput(nested(MAX_JSON_DEPTH))).toBeTruthy();
    for (const n of [MAX_JSON_DEPTH + 1, 30_000, 300_000]) {
      const e = refusal(() => parseJsonInput(nested(n)));
      expect(e.code).toBe('invalid_json');
      expect(e.message).toMatch(/nested deeper than 64/);
    }
    // Built as a value (google.script.run hands one over): walked with a stack of its own, no recursion.
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(refusal(() => checkJsonValue({ context: deep })).issues?.[0].field).toBe(`context${'.a'.repeat(63)}`);
  });

  it('refuses __proto__, constructor and prototype anywhere, naming the path', () => {
    for (const [text, path] of [
      ['{"__proto__":{"type":"manual"}}', '__proto__'],
      ['{"context":{"a":{"__proto__":{"x":1}}}}', 'context.a.__proto__'],
      ['{"rows":[{"ok":1},{"constructor":1}]}', 'rows[1].constructor'],
      ['{"a":{"prototype":null}}', 'a.prototype'],
    ] as const) {
      const e = refusal(() => parseJsonInput(text));
      expect(e.code).toBe('invalid_json');
      expect(e.issues?.[0]).toMatchObject({ field: path, code: 'forbidden_key' });
      expect(e.message).toContain(path);
    }
    // The same words as values, or inside longer keys, are text like any other.
    expect(parseJsonInput('{"note":"__proto__","constructors":1,"a":["prototype"]}')).toBeTruthy();
  });

  it('looks names up among own keys only', () => {
    expect(hasOwn({}, 'constructor')).toBe(false);
    expect(hasOwn({}, '__proto__')).toBe(false);
    expect(hasOwn(JSON.parse('{"__proto__":1}'), '__proto__')).toBe(true);
  });
});
