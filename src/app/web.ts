// doGet/doPost: token authentication, role checks and routing; answers are JSON with the status inside.
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { jsonOutput, props } from '../adapters/gas/services.js';
import { openBound, SPREADSHEET_ID_PROPERTY } from '../adapters/gas/spreadsheet.js';
import { apiError, constantTimeEqual, routeKey, ROUTE_ROLES, type ApiError, type Role } from '../core/api.js';
import { TABS } from '../../sheets-schema/index.js';
import { sha256Hex } from '../adapters/gas/crypto.js';
import { findSheet } from '../adapters/gas/tabs.js';

interface TokenRecord {
  hash: string;
  role: Role;
  name: string;
}

export const TOKENS_PROPERTY = PROPERTY_KEYS.apiTokens;

function tokens(): TokenRecord[] {
  try {
    return props.json<TokenRecord[]>(TOKENS_PROPERTY, []);
  } catch {
    return [];
  }
}

function authenticate(token: string | undefined): TokenRecord | null {
  if (!token) return null;
  const hash = sha256Hex(token);
  let found: TokenRecord | null = null;
  for (const t of tokens()) if (constantTimeEqual(t.hash, hash)) found = t;
  return found;
}

const json = jsonOutput;

function status(): unknown {
  if (!props.get(SPREADSHEET_ID_PROPERTY))
    return apiError(409, 'not_set_up', 'Kaigi has not been set up in its spreadsheet yet.');
  const ss = openBound();
  return { status: 200, tabs: TABS.map((t) => ({ tab: t.name, present: findSheet(ss, t) !== null })) };
}

export function handleWeb(
  method: 'GET' | 'POST',
  e: GoogleAppsScript.Events.DoGet | GoogleAppsScript.Events.DoPost,
): GoogleAppsScript.Content.TextOutput {
  let body: Record<string, unknown> = {};
  if (method === 'POST') {
    const post = (e as GoogleAppsScript.Events.DoPost).postData;
    try {
      body = post?.contents ? (JSON.parse(post.contents) as Record<string, unknown>) : {};
    } catch {
      return json(apiError(400, 'invalid_json', 'The request body is not valid JSON.'));
    }
  }
  const path = String(e.parameter.path || '/');
  const key = routeKey(method, path);
  const roles = ROUTE_ROLES[key];
  if (!roles) return json(apiError(404, 'not_found', `No endpoint ${key}.`));
  const token = (e.parameter.token as string | undefined) ?? (typeof body.token === 'string' ? body.token : undefined);
  const caller = authenticate(token);
  if (!caller) return json(apiError(401, 'unauthorized', 'A valid API token is required.'));
  if (roles.indexOf(caller.role) < 0)
    return json(apiError(403, 'forbidden', `The ${caller.role} role cannot call ${key}.`));
  const result: unknown | ApiError = key === 'GET /status' ? status() : apiError(404, 'not_found', key);
  return json(result);
}
