// What an operation of the web API is: who may call it, what input it takes, what it does, and where it is reachable —
// a REST route (method and path), an MCP tool (by its name), or both. Web routes and MCP tools share one registry.
import type { z } from 'zod';
import type { Method, Role } from '../../core/api/api.js';
import { lazy } from '../../core/lazy.js';

export interface Caller {
  name: string;
  role: Role;
}

export interface CallContext {
  caller: Caller;
  // `METHOD /path` as called, or `mcp tools/call NAME`.
  called: string;
  // A key that identifies this call across re-sent requests (an MCP client's JSON-RPC id, a REST idempotency key),
  // so an operation that records something can record it once; empty when the call has none.
  requestKey: string;
  // Every operation the server holds (the router's or MCP's list), for the answers that describe them: handed in,
  // not imported, because the registry imports the operations.
  operations: readonly Operation[];
  // Runs the queue in this execution until a task ends or the wait is spent (src/app/queue/work-now.ts): handed in, not
  // imported, because the queue's tasks reach the registry (an archive run moves API Log rows, named by route).
  // `claimed`: the task as the enqueue's own commit claimed it (ownTaskStep), run first.
  workOwnTask?: (taskId: string, waitSeconds: number, claimed?: unknown) => OwnWork;
  // The step that claims a task in the commit that queues it, for a caller about to run it with workOwnTask; null
  // when the wait allows no work. It reads the configuration first, outside the lock (work-now.ts). The step and the
  // claim are the queue's types (work-queue.ts ClaimStep, Claimed), unknown here: the routes only hand them on, and
  // the tests that build a router load none of the Apps Script adapters the queue's types reach.
  ownTaskStep?: (waitSeconds: number) => unknown;
}

export interface OwnWork {
  // The task ran to its end in this execution (DECIDED, ESCALATED, or whatever state the discussion stops in).
  finished: boolean;
  // Seconds this execution was allowed to work: the wait asked for, within api.max_wait_seconds and the tick budget.
  waited_up_to: number;
}

export interface Operation<I = unknown> {
  // The MCP tool's name (snake_case, the rooms protocol's names for the room operations).
  name: string;
  // One sentence for tools/list and the README.
  description: string;
  roles: readonly Role[];
  // Validates the merged query parameters, body fields and {path} params (or a tool's arguments); never zod's
  // url()/base64() checks, which rely on URL and atob that Apps Script lacks. MCP input schemas are generated from it.
  input: z.ZodType<I>;
  // Changes state: the API log says so, and the commits it makes name the client as the actor of their audit rows.
  mutates: boolean;
  // Reachable over REST at this method and path pattern (/tasks/{id}/result puts the segment into the input as `id`).
  http?: { method: Method; path: string };
  // Listed and callable as an MCP tool.
  tool: boolean;
  // The answer's body when it has a fixed shape: the OpenAPI document shows it, tests check it.
  output?: z.ZodType;
  // A request that works, for the OpenAPI document; checked against `input` by the tests.
  example?: Record<string, unknown>;
  // The answer is the handler's body alone, with no HTTP `status` added (a document whose format has no such field).
  bare?: boolean;
  // The Kaigi route an alias answers as (the agent API's /agent/… routes), for the OpenAPI document and the docs.
  same_as?: string;
  // Returns the answer's body; `status` defaults to 200. Throw a KaigiError subclass to answer with an error. A method,
  // so an operation of any input type is an Operation: the router calls it only with what `input` parsed.
  handler(input: I, ctx: CallContext): Record<string, unknown>;
}

// An operation as its module writes it: input and output may be functions that build the schema (src/core/lazy.ts).
type OperationDef<I> = Omit<Operation<I>, 'input' | 'output'> & {
  input: z.ZodType<I> | (() => z.ZodType<I>);
  output?: z.ZodType | (() => z.ZodType);
};

// Keeps each operation's input type checked against its handler while the registry holds them all alike. A schema
// given as a function is built when `input` or `output` is first read, so loading the registry builds none.
export function defineOperation<I>(def: OperationDef<I>): Operation {
  const { input, output, ...rest } = def;
  const inputOf = typeof input === 'function' ? lazy(input) : () => input;
  const op: Operation<I> = {
    ...rest,
    get input() {
      return inputOf();
    },
  };
  if (output) {
    const outputOf = typeof output === 'function' ? lazy(output) : () => output;
    Object.defineProperty(op, 'output', { enumerable: true, configurable: true, get: outputOf });
  }
  return op;
}
