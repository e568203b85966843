// A small JSON Schema checker for the keyword subsets Kaigi sends; an unknown keyword is an error, not ignored.
type Json = Record<string, any>;
export type Dialect = 'json-schema' | 'openapi';

const KNOWN: Record<Dialect, string[]> = {
  'json-schema': [
    'type',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'enum',
    'anyOf',
    'description',
    'pattern',
    'minimum',
    'maximum',
    'minItems',
    'maxItems',
    'minLength',
    'maxLength',
  ],
  // Gemini's OpenAPI 3.0 subset: upper-case types, nullable, counts as strings, a property order.
  openapi: [
    'type',
    'properties',
    'required',
    'items',
    'enum',
    'anyOf',
    'description',
    'minimum',
    'maximum',
    'minItems',
    'maxItems',
    'minLength',
    'maxLength',
    'pattern',
    'nullable',
    'propertyOrdering',
  ],
};

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'object':
      return !!v && typeof v === 'object' && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      throw new Error(`unknown type ${type}`);
  }
}

// Every problem found, each with its path; an empty list means the value fits the schema.
export function check(schema: Json, value: unknown, dialect: Dialect, path = '$'): string[] {
  for (const k of Object.keys(schema))
    if (KNOWN[dialect].indexOf(k) < 0) throw new Error(`${path}: keyword "${k}" is outside the ${dialect} subset`);
  if (dialect === 'openapi' && value === null) return schema.nullable === true ? [] : [`${path}: null not allowed`];
  if (schema.anyOf) {
    const fits = (schema.anyOf as Json[]).some((s) => check(s, value, dialect, path).length === 0);
    return fits ? [] : [`${path}: matches no anyOf branch`];
  }
  const errors: string[] = [];
  if (schema.type !== undefined) {
    if (dialect === 'openapi' && schema.type !== String(schema.type).toUpperCase())
      throw new Error(`${path}: OpenAPI types are upper-case, got ${schema.type}`);
    if (!typeOk(String(schema.type).toLowerCase(), value)) return [`${path}: expected ${schema.type}`];
  }
  const count = (x: unknown) => (dialect === 'openapi' ? Number(x) : (x as number));
  if (schema.enum && (schema.enum as unknown[]).indexOf(value) < 0)
    errors.push(`${path}: ${String(value)} not in enum`);
  if (typeof value === 'string') {
    // Lengths and patterns in code points, as JSON Schema counts characters.
    const length = Array.from(value).length;
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${path}: does not match pattern`);
    if (schema.minLength !== undefined && length < count(schema.minLength)) errors.push(`${path}: too short`);
    if (schema.maxLength !== undefined && length > count(schema.maxLength)) errors.push(`${path}: too long`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above maximum`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < count(schema.minItems)) errors.push(`${path}: too few items`);
    if (schema.maxItems !== undefined && value.length > count(schema.maxItems)) errors.push(`${path}: too many items`);
    if (schema.items) value.forEach((x, i) => errors.push(...check(schema.items, x, dialect, `${path}[${i}]`)));
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    const v = value as Record<string, unknown>;
    for (const k of (schema.required ?? []) as string[]) if (!(k in v)) errors.push(`${path}.${k}: required`);
    for (const k of Object.keys(v)) {
      if (k in schema.properties) errors.push(...check(schema.properties[k], v[k], dialect, `${path}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${path}.${k}: not allowed`);
    }
  }
  return errors;
}

// Every sub-schema, with its path, for assertions over a whole schema.
export function walk(schema: Json, visit: (s: Json, path: string) => void, path = '$'): void {
  visit(schema, path);
  if (schema.properties)
    for (const k of Object.keys(schema.properties)) walk(schema.properties[k], visit, `${path}.${k}`);
  if (schema.items) walk(schema.items, visit, `${path}[]`);
  if (schema.anyOf) (schema.anyOf as Json[]).forEach((s, i) => walk(s, visit, `${path}|${i}`));
}

// Strict mode sends every property: absent optional ones as null.
export function withNulls(schema: Json, value: unknown): unknown {
  // An optional property is anyOf [its schema, null]: fill in against the non-null branch.
  const s: Json = schema.anyOf ? ((schema.anyOf as Json[]).find((b) => b.type !== 'null') ?? schema) : schema;
  if (Array.isArray(value)) return value.map((x) => withNulls(s.items ?? {}, x));
  if (!value || typeof value !== 'object' || !s.properties) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(s.properties)) {
    const v = (value as Record<string, unknown>)[k];
    out[k] = v === undefined ? null : withNulls(s.properties[k], v);
  }
  return out;
}
