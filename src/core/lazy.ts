// Values built on first use instead of at load: every execution runs the bundle's top level in a fresh context.
// A zod schema built at load costs every execution, even the many that never parse with it.
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
