// When this execution's script function was called: the start the fetch backstop counts Apps Script's 6 minutes from.

let started: number | undefined;

// Called by the bundle's entry wrappers (scripts/build.mjs) before the script function runs. Only the first call counts:
// an entry reached again inside the same execution (an HTML template's include()) is not a new start. Taken here
// rather than in the bundle's global code, which a local runtime may run ahead of the execution (runtime/worker.ts).
export function enterExecution(): void {
  if (started === undefined) started = Date.now();
}

// The execution's start; code run without an entry wrapper (tests that call a module directly) starts at its first ask.
export function executionStarted(): number {
  if (started === undefined) started = Date.now();
  return started;
}
