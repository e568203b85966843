// What a web route (and later an MCP tool) is: who may call it, what input it takes, and what it does.
import type { z } from 'zod';
import type { Method, Role } from '../../core/api.js';

export interface Caller {
  name: string;
  role: Role;
}

interface CallContext {
  caller: Caller;
  // `METHOD /path` as called, or the tool's name.
  called: string;
}

// The part a route and an MCP tool share: the name is the tool's name when the operation becomes a tool.
interface Operation<I = unknown> {
  name: string;
  roles: readonly Role[];
  // Validates the merged query parameters, body fields and {path} params; never zod's url()/base64()
  // checks, which rely on URL and atob that Apps Script lacks.
  input: z.ZodType<I>;
  // Returns the answer's body; `status` defaults to 200. Throw a KaigiError subclass to answer with an error.
  handler: (input: I, ctx: CallContext) => Record<string, unknown>;
}

export interface Route<I = unknown> extends Operation<I> {
  method: Method;
  // A path pattern: /tasks/{id}/result puts the segment into the input as `id`.
  path: string;
}

// Keeps each route's input type checked against its handler while the registry holds them all alike.
export function defineRoute<I>(route: Route<I>): Route {
  return route as unknown as Route;
}
