// Generative: random instances drawn from every schema Kaigi sends, in every vendor's dialect, are all accepted.
import { describe, expect, it } from 'vitest';
import {
  MESSAGE_TYPES,
  answerErrors,
  orderFromAnswer,
  validateContent,
  type MessageType,
  type OrderAnswer,
} from '../../../src/core/discussion/messages.js';
import type { Expectation } from '../../../src/core/provider.js';
import { dropNulls, schemaFor, type Vendor } from '../../../src/core/providers/schema.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { Settings } from '../../../src/core/settings.js';
import { randomInstance, type Recorded } from '../../../tools/model-server.js';
import { check, type Dialect } from './json-schema.js';

const ALLOW = new Settings({}).get('actions.allow_list');
const KINDS: Expectation[] = [...MESSAGE_TYPES, 'DECISION', 'LEARNING', 'REFLECTION'];
const PER_SCHEMA = 200;
const TODAY = '2026-01-15';

// The wire format each vendor speaks, as the local model server tells them apart.
const wireOf = (vendor: string): Recorded['vendor'] =>
  vendor === 'gemini' ? 'gemini' : vendor === 'anthropic' ? 'anthropic' : 'openai';
const dialectOf = (vendor: string): Dialect => (vendor === 'gemini' ? 'openapi' : 'json-schema');

// Everything Kaigi does with an answer before it is stored: parse the wire text, drop strict mode's nulls, check it,
// and (for a decision) turn the order's days into its review date; the stored content is checked as a message too.
function accept(kind: Expectation, instance: unknown): string | null {
  const answer = dropNulls(JSON.parse(JSON.stringify(instance)));
  const problem = answerErrors(kind, answer, ALLOW);
  if (problem) return problem;
  try {
    if (kind === 'DECISION') {
      const d = answer as { deliberation: Record<string, unknown>; order: OrderAnswer };
      // Kaigi adds its own weights and votes to the model's deliberation before storing it (src/core/engine/decide.ts).
      validateContent('DECISION_DELIBERATION', { ...d.deliberation, weight_assignment: [], votes: [] }, ALLOW);
      validateContent('EXECUTION_ORDER', orderFromAnswer(d.order, `DEC-${TODAY}-001`, TODAY), ALLOW);
    } else if (kind === 'EXECUTION_ORDER')
      validateContent('EXECUTION_ORDER', orderFromAnswer(answer as OrderAnswer, `DEC-${TODAY}-001`, TODAY), ALLOW);
    else if (kind !== 'LEARNING' && kind !== 'REFLECTION') validateContent(kind as MessageType, answer, ALLOW);
  } catch (e) {
    return (e as Error).message;
  }
  return null;
}

// One test per schema dialect: vendors that share a wire format share its schemas.
const SHAPES = registry.all.filter((v, i) => registry.all.findIndex((w) => w.wire === v.wire) === i);

describe('random instances of every sent schema', () => {
  for (const shape of SHAPES) {
    const vendors = registry.all.filter((v) => v.wire === shape.wire).map((v) => v.name);
    it(`${vendors.join(', ')}: ${PER_SCHEMA} seeded instances per answer kind, every one accepted`, () => {
      let drawn = 0;
      for (const kind of KINDS) {
        const schema = schemaFor(kind, shape.name as Vendor, ALLOW);
        for (let seed = 1; seed <= PER_SCHEMA; seed++) {
          const v = randomInstance(wireOf(shape.name), schema, seed);
          // The draw itself is checked against the schema as sent, so a faker slip cannot pass for a Kaigi bug.
          expect(check(schema, v, dialectOf(shape.name)), `${shape.name} ${kind} seed ${seed}`).toEqual([]);
          expect(accept(kind, v), `${shape.name} ${kind} seed ${seed}: ${JSON.stringify(v).slice(0, 300)}`).toBeNull();
          drawn++;
        }
      }
      expect(drawn).toBe(KINDS.length * PER_SCHEMA);
    }, 120_000);
  }

  it('covers every registered vendor', () => {
    // Grammar-based servers have a dialect of their own (src/core/providers/vendors/grammar-dialect.ts).
    expect(SHAPES.map((s) => s.name)).toEqual(['openai', 'anthropic', 'gemini', 'openai-compatible']);
    expect(registry.names().filter((n) => SHAPES.every((s) => s.name !== n))).toEqual([]);
  });
});
