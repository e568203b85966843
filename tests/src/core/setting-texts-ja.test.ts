// Every Settings row has a Japanese description, and neither language's description shows a code a reader cannot read.
import { describe, expect, it } from 'vitest';
import { SETTING_DESCRIPTIONS_JA } from '../../../src/core/setting-texts-ja.js';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.js';

const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff]/;
// Abbreviations every reader knows and the vendors' names, as the page scan allows them.
const KNOWN = /\b(KPI|API|ID|URL|USD|CSV|TSV|JSON|MCP|AI|HTTP|OpenAI|Anthropic|Gemini|Kaigi)\b/g;
const CODE = /\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b|\b[A-Z]{2,}(_[A-Z0-9]+)*\b/g;

describe('Settings descriptions', () => {
  it('has a Japanese description for every setting key, and none for a key that is not one', () => {
    const keys = DEFAULT_SETTINGS.map((d) => d.key);
    expect(keys.filter((k) => !(SETTING_DESCRIPTIONS_JA[k] ?? '').match(JAPANESE))).toEqual([]);
    expect(Object.keys(SETTING_DESCRIPTIONS_JA).filter((k) => keys.indexOf(k as (typeof keys)[number]) < 0)).toEqual(
      [],
    );
  });

  it('says it in words: no English word in the Japanese, no enum value or snake_case code in either', () => {
    const ja = Object.entries(SETTING_DESCRIPTIONS_JA).flatMap(([k, d]) =>
      (d.replace(KNOWN, ' ').match(/\b[A-Za-z][a-z]{2,}\b|\b[A-Z]{2,}\b/g) ?? []).map((w) => `${k}: ${w}`),
    );
    expect(ja).toEqual([]);
    const en = DEFAULT_SETTINGS.flatMap((d) =>
      (d.description.replace(KNOWN, ' ').match(CODE) ?? []).map((w) => `${d.key}: ${w}`),
    );
    expect(en).toEqual([]);
  });
});
