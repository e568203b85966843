// The bridge's JSON codec: its fast paths (no replacer when nothing holds a Date, no reviver while parsing) give the
// same text and the same values as the replacer and the reviver they stand in for.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../../runtime/gas/bridge.js';

// The codec as it was: a replacer on every value, a reviver on every value.
function slowEncode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (Object.prototype.toString.call(raw) === '[object Date]') return { $d: (raw as Date).getTime() };
    return v;
  });
}
function slowDecode(text: string): unknown {
  return JSON.parse(text, (_k, v) =>
    v && typeof v === 'object' && typeof v.$d === 'number' && Object.keys(v).length === 1 ? new Date(v.$d) : v,
  );
}

// A Date made in another V8 context, as the script's are: instanceof Date is false for it.
const foreignDate = vm.runInNewContext('new Date(1700000000000)') as Date;

const VALUES: unknown[] = [
  null,
  'text',
  42,
  [
    ['a', 1, true, ''],
    ['b', 2, false, null],
  ],
  { op: 'rg.setValues', args: [[new Date(0), 'x']] },
  [foreignDate, { nested: [{ deeper: new Date(1234) }] }],
  { $d: 5, other: 1 },
  { $d: 'not a number' },
  { $d: { $d: 7 } },
  JSON.parse('{"__proto__": {"$d": 9}, "a": 1}'),
  Object.defineProperty({ a: new Date(3) }, '__proto__', { value: [new Date(4)], enumerable: true }),
  [new Date(Number.NaN), { later: undefined, at: new Date(8) }],
  { toJSON: () => ({ when: new Date(99) }) },
  { skip: undefined, f: () => 1, n: Number.NaN },
];

describe('bridge codec', () => {
  it('writes the same text as the replacer did, dates in any context included', () => {
    for (const v of VALUES) expect(encode(v)).toBe(slowEncode(v));
  });

  it('reads back the same values as the reviver did', () => {
    for (const v of VALUES) {
      const text = slowEncode(v);
      const mine = decode(text);
      expect(mine).toEqual(slowDecode(text));
      expect(Object.getPrototypeOf(mine ?? {})).toBe(Object.getPrototypeOf(slowDecode(text) ?? {}));
    }
    const back = decode('{"__proto__":{"$d":9},"a":[{"$d":1},{"$d":2,"x":1}]}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(back, '__proto__')?.value).toEqual(new Date(9));
    expect(back.a).toEqual([new Date(1), { $d: 2, x: 1 }]);
  });
});
