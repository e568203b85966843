// MCP tool descriptors from the operation registry: name, description and an input schema generated from the zod input.
import { z } from '../../core/zod.js';
import type { Role } from '../../core/api/api.js';
import type { Operation } from '../routes/route.js';

interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint: boolean };
  // Who may call it, so a client (or a person reading tools/list) sees why another token lists other tools.
  _meta: { 'kaigi/roles': readonly Role[] };
}

export function isTool(op: Operation): boolean {
  return op.tool;
}

export function mayCall(op: Operation, role: Role): boolean {
  return op.roles.indexOf(role) >= 0;
}

// zod gives every int() the bounds of a safe integer; they say nothing to a model and only lengthen the schema.
function dropSafeIntegerBounds(ctx: { jsonSchema: Record<string, unknown> }): void {
  const s = ctx.jsonSchema;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
}

// The JSON Schema a client fills in: the operation's zod input as it is accepted (io 'input': defaults optional,
// coercions take their input type). MCP requires an object schema; an operation whose input is not an object is a
// programming error, named here rather than sent as a schema clients would reject.
function inputSchemaOf(op: Operation): Record<string, unknown> {
  const schema = z.toJSONSchema(op.input, { io: 'input', override: dropSafeIntegerBounds }) as Record<string, unknown>;
  if (schema.type !== 'object')
    throw new Error(`The input of the ${op.name} tool is not a zod object, so it has no MCP input schema.`);
  // MCP's default dialect is JSON Schema 2020-12, the one zod writes; several clients' converters reject $schema.
  delete schema.$schema;
  return schema;
}

function titleOf(name: string): string {
  const words = name.split('_').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function describeTool(op: Operation): ToolDescriptor {
  return {
    name: op.name,
    title: titleOf(op.name),
    description: op.description,
    inputSchema: inputSchemaOf(op),
    annotations: { readOnlyHint: !op.mutates },
    _meta: { 'kaigi/roles': op.roles },
  };
}

// tools/list: only the tools the caller's role may call, so a model is never offered a tool that will refuse it.
export function listTools(operations: readonly Operation[], role: Role): ToolDescriptor[] {
  return operations.filter((op) => isTool(op) && mayCall(op, role)).map(describeTool);
}
