// Every value of every enum a person sees has a label in Japanese and in English, so a new value cannot be left
// unlabelled; the default agents and trigger types have names in both languages too.
import { describe, expect, it } from 'vitest';
import { defaultAgents } from '../../../src/core/discussion/default-council.js';
import {
  LABEL_KINDS,
  type LabelKind,
  label,
  labelsFor,
  readable,
  speakerName,
  triggerLabel,
} from '../../../src/core/labels.js';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.js';

const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
const RAW_ENUM = /[A-Z]+_[A-Z_]+/;

describe('label tables', () => {
  const kinds = Object.keys(LABEL_KINDS) as LabelKind[];

  it.each(kinds)('%s: every value has a Japanese and an English label', (kind) => {
    const { values, labels } = LABEL_KINDS[kind] as {
      values: readonly (string | number)[];
      labels: Record<string, readonly [string, string]>;
    };
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) {
      const row = labels[String(v)];
      expect(row, `${kind} ${v}`).toBeDefined();
      const [ja, en] = row;
      expect(ja.trim(), `${kind} ${v} ja`).not.toBe('');
      expect(en.trim(), `${kind} ${v} en`).not.toBe('');
      expect(en, `${kind} ${v} en is English`).not.toMatch(JAPANESE);
      expect(en, `${kind} ${v} en is no code`).not.toMatch(RAW_ENUM);
      expect(ja, `${kind} ${v} ja is no code`).not.toMatch(RAW_ENUM);
    }
    // No label for a value the enum does not have (a stale row would hide a renamed value).
    expect(Object.keys(labels).sort()).toEqual(values.map(String).sort());
  });

  it('labelsFor gives pages every value in one language', () => {
    const en = labelsFor('en');
    const ja = labelsFor('ja');
    expect(en.status.ESCALATED).toBe('Escalated to a person');
    expect(ja.priority.HIGH).toBe('高');
    expect(en.executor.buddy).toBe('Buddy: whoever carries out the order');
    for (const kind of kinds) expect(Object.keys(en[kind]).length).toBe(LABEL_KINDS[kind].values.length);
  });

  it('a value no table knows is shown readable, never as a code', () => {
    expect(label('action_type', 'GROUP_COACHING', 'en')).toBe('Group coaching');
    expect(label('metric', 'login_days', 'en')).toBe('login days');
    expect(label('metric', 'Umsatz', 'en')).toBe('Umsatz');
    expect(readable('田中 太郎')).toBe('田中 太郎');
    expect(label('fallback', 4, 'ja')).toBe('ルールに基づく回答');
  });

  it('every default agent has a display name per language (心理学特化 / Psychology)', () => {
    const agents = defaultAgents();
    expect(agents).toHaveLength(14);
    for (const a of agents) {
      expect(a.name_ja.trim()).not.toBe('');
      expect(a.name_en).not.toMatch(JAPANESE);
      expect(a.name_en.trim()).not.toBe('');
    }
    expect(speakerName(agents, 'psychology', 'ja')).toBe('心理学特化');
    expect(speakerName(agents, 'psychology', 'en')).toBe('Psychology');
    expect(speakerName(agents, 'buddy', 'en')).toBe('Buddy');
  });

  it('every default trigger type has a label in both languages', () => {
    const types = JSON.parse(DEFAULT_SETTINGS.find((s) => s.key === 'triggers.types')!.value) as {
      type: string;
      label_ja: string;
      label_en: string;
    }[];
    expect(types.length).toBeGreaterThan(0);
    for (const t of types) {
      expect(t.label_ja).toMatch(JAPANESE);
      expect(t.label_en).not.toMatch(JAPANESE);
      expect(triggerLabel(types, t.type, 'en')).toBe(t.label_en);
    }
  });
});
