// lazy(): a value built on its first use, once, and not when it is defined.
import { describe, expect, it } from 'vitest';
import { lazy } from '../../../src/core/lazy.js';

describe('lazy', () => {
  it('builds nothing until first use, then once', () => {
    let builds = 0;
    const value = lazy(() => {
      builds++;
      return { n: builds };
    });
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it('keeps a value that is falsy', () => {
    let builds = 0;
    const value = lazy(() => {
      builds++;
      return undefined;
    });
    value();
    value();
    expect(builds).toBe(1);
  });
});
