// Shared test helpers: a runtime per test, and a snippet runner that fails loudly.
import { Runtime, type ExecutionResult, type RunOptions, type RuntimeOptions } from '../runtime/runtime.js';

export async function withRuntime<T>(fn: (rt: Runtime) => Promise<T>, opts: RuntimeOptions = {}): Promise<T> {
  const rt = new Runtime(opts);
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

// Runs Apps Script code in the runtime and returns its value; throws with the script's error otherwise.
export async function gas(rt: Runtime, code: string, opts: RunOptions = {}): Promise<any> {
  const r = await rt.evaluate(code, opts);
  if (!r.ok) throw new Error(`snippet failed: ${r.error?.name}: ${r.error?.message}`);
  return r.value;
}

// Runs Apps Script code expected to throw; returns the error message.
export async function gasError(rt: Runtime, code: string, opts: RunOptions = {}): Promise<string> {
  const r: ExecutionResult = await rt.evaluate(code, opts);
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error!.message;
}
