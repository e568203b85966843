// GET /openapi.json: the OpenAPI 3.1 document of every route, generated from the registry's zod schemas on each call
// (src/core/api/openapi.ts), so it cannot drift from what the router accepts.
import { z } from '../../../core/zod.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import { openApiDocument } from '../../../core/api/openapi.js';
import { SERVER_VERSION } from '../../mcp/protocol.js';
import { defineOperation } from '../route.js';

export const getOpenApi = defineOperation({
  name: 'get_openapi',
  description: 'The OpenAPI 3.1 document of this web API: every route, its input, roles, errors and an example.',
  mutates: false,
  tool: false,
  http: { method: 'GET', path: '/openapi.json' },
  // Any client: the document says nothing a token does not already reach, and a stranger gets the usual 401.
  roles: ALL_ROLES,
  input: () => z.strictObject({}),
  // An OpenAPI document has no `status` field: a validator would refuse one.
  bare: true,
  handler: (_input, ctx) => openApiDocument(ctx.operations, { version: SERVER_VERSION }),
});
