// The parts of zod that src/ uses, gathered as the `z` namespace by src/core/zod.ts.
export {
  array,
  boolean,
  enum,
  looseObject,
  number,
  object,
  preprocess,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
} from 'zod';
export type { infer, output, ZodError, ZodNumber, ZodObject, ZodType } from 'zod';
