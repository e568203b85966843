// Text read as an instant only when it names its zone; no other parse of date text is left in src/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../../src/core/instant.js';

describe('parseInstant', () => {
  it('reads ISO text with Z or an offset, a date alone (UTC midnight) and an HTTP date', () => {
    expect(parseInstant('2026-01-01T09:30:00.000Z')).toBe(Date.UTC(2026, 0, 1, 9, 30));
    expect(parseInstant('2026-01-01T09:30+09:00')).toBe(Date.UTC(2026, 0, 1, 0, 30));
    expect(parseInstant(' 2026-01-01 ')).toBe(Date.UTC(2026, 0, 1));
    expect(parseInstant('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(Date.UTC(2015, 9, 21, 7, 28));
  });

  it('gives NaN for a zone-less date and time, which would be read in the host zone', () => {
    for (const text of ['2026-01-01 09:30', '2026-01-01T09:30', '2026/01/01 09:30:00', 'Jan 1 2026 09:30', '', 'x'])
      expect(parseInstant(text), text).toBeNaN();
  });

  it('is the only parse of date text in src/ (no Date.parse, no new Date of a string)', () => {
    const offenders: string[] = [];
    const visit = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) visit(p);
        else if (p.endsWith('.ts') && p !== path.join('src', 'core', 'instant.ts')) {
          fs.readFileSync(p, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (/\bDate\.parse\(|new Date\(\s*(['"`]|String\()/.test(line)) offenders.push(`${p}:${i + 1}`);
            });
        }
      }
    };
    visit('src');
    expect(offenders).toEqual([]);
  });
});
