// The answer schemas made at build time give, once filled in, the very JSON zod gives, for every kind and any lists.
import { describe, expect, it } from 'vitest';
import { MESSAGE_TYPES } from '../../../../src/core/discussion/messages.js';
import { ConfigError } from '../../../../src/core/errors.js';
import type { Expectation } from '../../../../src/core/provider.js';
import { makeAnswerTemplates } from '../../../../src/core/providers/answer-templates.js';
import type { JsonSchema } from '../../../../src/core/providers/json-schema.js';
import { answerJsonSchemaFrom, answerTemplates } from '../../../../src/core/providers/schema.js';
import { registry } from '../../../../src/core/providers/vendor-registry.js';
import { Settings } from '../../../../src/core/settings.js';

const KINDS: Expectation[] = [...MESSAGE_TYPES, 'DECISION', 'LEARNING', 'REFLECTION', 'ROOM_ANSWER'];
const DEFAULT_ALLOW = new Settings({}).get('actions.allow_list');
const ALLOW_LISTS: string[][] = [
  DEFAULT_ALLOW,
  ['ONE_ON_ONE'],
  // Repeats, and names an object's keys would reorder (integer-like) or that mean something to JavaScript.
  ['b', '2', 'a', 'b', '1', '__proto__', 'constructor', 'x"y\\z', 'ここ', '\u2028'],
];
const METRICS: string[][] = [[], ['contacts'], ['visits', '10', 'visits', 'toString', 'ü']];

describe('answer schemas from build-time templates', () => {
  const templates = answerTemplates();

  it('are, filled in, byte for byte what zod generates, for every kind, allow-list and KPI series', () => {
    let compared = 0;
    for (const kind of KINDS)
      for (const allow of ALLOW_LISTS)
        for (const metrics of METRICS) {
          const fromZod = JSON.stringify(answerJsonSchemaFrom(null, kind, allow, metrics));
          expect(JSON.stringify(answerJsonSchemaFrom(templates, kind, allow, metrics)), `${kind}`).toBe(fromZod);
          compared++;
        }
    expect(compared).toBe(KINDS.length * ALLOW_LISTS.length * METRICS.length);
  });

  it('are shaped by every vendor into the schema zod’s would be shaped into', () => {
    for (const vendor of registry.all)
      for (const kind of KINDS) {
        const shape = (s: JsonSchema) => JSON.stringify(vendor.wire.shapeSchema(s));
        expect(shape(answerJsonSchemaFrom(templates, kind, DEFAULT_ALLOW, ['contacts']))).toBe(
          shape(answerJsonSchemaFrom(null, kind, DEFAULT_ALLOW, ['contacts'])),
        );
      }
  });

  it('hold a variant for the KPI series only where naming them changes the schema', () => {
    expect(Object.keys(templates).filter((k) => k.endsWith('|kpi'))).toEqual(['EXECUTION_ORDER|kpi', 'DECISION|kpi']);
    expect(Object.keys(templates).filter((k) => !k.endsWith('|kpi'))).toEqual(KINDS);
  });

  it('still refuse an empty allow-list as a configuration problem', () => {
    expect(() => answerJsonSchemaFrom(templates, 'SPECIALIST_OPINION', [], [])).toThrow(ConfigError);
  });

  it('stop the build when a list shows up other than as a whole enum', () => {
    const quoting = (_kind: Expectation, allow: readonly string[]): JsonSchema => ({
      type: 'string',
      enum: [...allow],
      description: `one of ${allow.join(', ')}`,
    });
    expect(() => makeAnswerTemplates(quoting)).toThrow(/other than as a whole enum/);
    const inPattern = (_kind: Expectation, _allow: readonly string[], metrics: readonly string[]): JsonSchema => ({
      type: 'string',
      pattern: `^(${metrics.join('|')})$`,
    });
    expect(() => makeAnswerTemplates(inPattern)).toThrow(/other than as a whole enum/);
  });
});
