// The answer schemas Code.js sends, filled in from the templates the build made (src/core/providers/answer-templates.ts),
// are byte for byte what zod generates for the same allow-list and KPI series, for every vendor.
import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../../src/core/provider.js';
import { schemaFor } from '../../../src/core/providers/schema.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { Settings } from '../../../src/core/settings.js';
import { MESSAGE_TYPES } from '../../../src/core/discussion/messages.js';
import { localModelServer } from '../../model-server-hooks.js';
import { council, settle, start, statuses } from '../../council-helpers.js';

const models = localModelServer();
const KINDS: Expectation[] = [...MESSAGE_TYPES, 'DECISION', 'LEARNING', 'REFLECTION', 'ROOM_ANSWER'];
const ALLOW = new Settings({}).get('actions.allow_list');

function walk(s: unknown, f: (node: Record<string, unknown>) => void): void {
  if (!s || typeof s !== 'object') return;
  if (!Array.isArray(s)) f(s as Record<string, unknown>);
  for (const v of Object.values(s)) walk(v, f);
}

describe('answer schemas sent by the bundle', () => {
  for (const vendor of registry.all)
    it(`are zod's own for ${vendor.name}`, async () => {
      const rt = await council();
      rt.scriptProperties.set({
        [vendor.keyProperty]: 'placeholder-cred-tests',
        KAIGI_PROVIDER_OVERRIDE: JSON.stringify({ provider: vendor.name, model: 'm', base_url: `${models.base()}/v1` }),
      });
      models.allow(rt);
      const from = models.server.requests.length;
      await start(rt);
      await settle(rt);
      expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
      const sent = models.server.requests.slice(from).map((r) => JSON.stringify(r.schema));
      // The member's KPI series, as the decision's success criteria name them.
      let series: string[] = [];
      for (const s of models.server.requests.slice(from))
        walk(s.schema, (n) => {
          if (n.description === "One of the member's KPI series" && Array.isArray(n.enum)) series = n.enum as string[];
        });
      expect(series).toContain('contacts');
      const zod = new Map(KINDS.map((k) => [JSON.stringify(schemaFor(k, vendor.wire, ALLOW, series)), k]));
      const kinds = new Set<Expectation>();
      for (const s of sent) {
        const kind = zod.get(s);
        expect(kind, s.slice(0, 200)).toBeDefined();
        kinds.add(kind as Expectation);
      }
      // Phases 1 to 5 and the review: the analyst, the specialists, three perspectives, the checks (ethics and legal
      // share one schema), the decider.
      expect(kinds.size).toBeGreaterThanOrEqual(7);
    });
});
