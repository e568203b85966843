// GET /agent/status: the council as one agent of the agent API, read from GET /status (and its cached copy).
import { ALL_ROLES } from '../../../core/api/api.js';
import { seedStatusAnswer, seedStatusInput, seedStatusOf } from '../../../core/api/seed-api.js';
import { getStatus } from '../council/status.js';
import { defineOperation } from '../route.js';

export const seedStatus = defineOperation({
  name: 'seed_status',
  description:
    'The agent API’s agent status {agentName, role, status: idle | busy | error, currentTask, availableTools}: the council as one agent, from GET /status.',
  mutates: false,
  tool: false,
  http: { method: 'GET', path: '/agent/status' },
  // The agent API's body alone: its `status` is that API's (accepted, idle…) or absent, never Kaigi's HTTP status.
  bare: true,
  same_as: 'GET /status',
  roles: ALL_ROLES,
  input: seedStatusInput,
  output: seedStatusAnswer,
  handler: (_input, ctx) => {
    const full = getStatus.handler({}, ctx) as {
      state?: unknown;
      currentTask?: unknown;
      agents?: unknown;
      availableTools?: string[];
    };
    return seedStatusOf(full, full.availableTools ?? []);
  },
});
