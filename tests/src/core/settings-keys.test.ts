// Settings are typed by key: each key's value type comes from its definition, and `tsc` refuses an unknown key.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Weights } from '../../../src/core/discussion/confidence.js';
import { DEFAULT_SETTINGS, type NumberSettingKey, type SettingKey, Settings } from '../../../src/core/settings.js';

describe('Settings typed by key', () => {
  const s = new Settings({ 'actions.allow_list': '["PRAISE_INCREASE"]', 'retry.max_attempts': '5' });

  it('returns each key as its definition types it, with no cast at the call', () => {
    const allow = s.get('actions.allow_list');
    expectTypeOf(allow).toEqualTypeOf<string[]>();
    expect(allow).toEqual(['PRAISE_INCREASE']);
    expectTypeOf(s.get('memory.enabled')).toEqualTypeOf<boolean>();
    expectTypeOf(s.get('locale')).toEqualTypeOf<string>();
    expectTypeOf(s.get('retry.max_attempts')).toEqualTypeOf<number>();
    expectTypeOf(s.get('phase.target_seconds')).toEqualTypeOf<Record<string, number>>();
    expectTypeOf(s.get('confidence.weights')).toEqualTypeOf<Weights>();
    expect(s.number('retry.max_attempts')).toBe(5);
    expect(s.get('memory.enabled')).toBe(true);
  });

  it('refuses at compile time an unknown key, a wrong value type and number() on a non-number', () => {
    // Each line below is a compile error (tsc fails if it is not); at run time the unknown key throws.
    // @ts-expect-error: no such key
    expect(() => s.get('no.such.key')).toThrow('unknown setting no.such.key');
    // @ts-expect-error: actions.allow_list is a list, not a number
    const n: number = s.get('actions.allow_list');
    expect(Array.isArray(n)).toBe(true);
    // @ts-expect-error: locale is a string, which number() does not read
    expect(s.number('locale')).toBe('ja');
    // @ts-expect-error: a misspelt key
    expect(() => s.raw('provider.defualt')).toThrow('unknown setting');
  });

  it('derives the key type from every definition and only from them', () => {
    const keys: SettingKey[] = DEFAULT_SETTINGS.map((d) => d.key);
    expect(new Set(keys).size).toBe(DEFAULT_SETTINGS.length);
    expectTypeOf<'retry.max_attempts'>().toExtend<NumberSettingKey>();
    expectTypeOf<'memory.enabled'>().not.toExtend<NumberSettingKey>();
    expectTypeOf<'no.such.key'>().not.toExtend<SettingKey>();
  });
});
