// The JSON Schema of a structured answer as Kaigi handles it: built in schema.ts, shaped by each vendor module.
// The keywords Kaigi reads or rewrites are named; any other keyword zod emits passes through untouched.
export interface JsonSchema {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  pattern?: string;
  minItems?: number | string;
  maxItems?: number | string;
  minLength?: number | string;
  maxLength?: number | string;
  nullable?: boolean;
  propertyOrdering?: string[];
  [keyword: string]: unknown;
}
