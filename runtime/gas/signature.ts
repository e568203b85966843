// Google's overload resolution for service methods: an argument of the wrong kind in an int position is refused.
import { GasError } from './bridge.js';

// How Google names an argument's kind in "The parameters (number,null) don't match the method signature for …".
function kindOf(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'boolean') return 'Boolean';
  if (Array.isArray(v)) return 'Object[]';
  return 'Object';
}

// The message Google gives when no overload takes these arguments.
function noOverload(method: string, args: readonly unknown[]): GasError {
  return new GasError(`The parameters (${args.map(kindOf).join(',')}) don't match the method signature for ${method}.`);
}

// Apps Script converts a JS number to a Java int for an int parameter; undefined, null or any non-number matches no
// overload. Where Google is unclear on NaN, Infinity and fractions (it may truncate), the harsher reading refuses
// them too, so no script passes here that could fail there. `args` are the call's actual arguments (their count is
// part of the signature), `ints` how many leading ones must be ints, `arities` the counts an overload takes.
export function intArguments(method: string, args: readonly unknown[], arities: readonly number[], ints = args.length) {
  if (arities.indexOf(args.length) < 0) throw noOverload(method, args);
  for (let i = 0; i < Math.min(ints, args.length); i++) {
    const v = args[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw noOverload(method, args);
  }
}

// A count or a duration that Google documents as a non-negative int ("Invalid argument: …" names the parameter).
export function nonNegativeInt(method: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw noOverload(method, [v]);
  if (v < 0) throw new GasError(`Invalid argument: ${name}`);
  return v;
}
