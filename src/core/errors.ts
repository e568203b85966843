// Kaigi's errors: one small hierarchy, told apart with instanceof, each saying what a person or client can do.

export class KaigiError extends Error {
  constructor(
    message: string,
    // A stable code for clients (API error bodies, the CLI's one-line reasons); the rooms protocol's codes among them.
    readonly code: string = 'internal',
  ) {
    super(message);
    // Apps Script logs and the local runtime print the name; keep the subclass's.
    this.name = new.target.name;
  }
}

// Input from a person, a client or a model that does not meet its schema.
// `fields` name each bad field ({field, code, message}), for a form to mark and an API answer's details.
export class ValidationError extends KaigiError {
  constructor(
    message: string,
    code = 'invalid_input',
    readonly fields?: { field: string; code: string; message: string }[],
  ) {
    super(message, code);
  }
}

// Something named by id that is not there.
export class NotFoundError extends KaigiError {
  constructor(message: string, code = 'not_found') {
    super(message, code);
  }
}

// A person or client whose role does not allow what they asked: HTTP 403; refusals are audited.
export class ForbiddenError extends KaigiError {
  constructor(message: string, code = 'forbidden') {
    super(message, code);
  }
}

// A Settings row, a Script Property or another piece of configuration that cannot be used as it is.
// `key` names it (never its content), so the API's answer and a person's Inbox notice can say which.
export class ConfigError extends KaigiError {
  constructor(
    message: string,
    readonly key = '',
  ) {
    super(message, 'invalid_configuration');
  }
}

// A request that is understood but cannot be answered in the current state (e.g. Kaigi is not set up yet).
export class ConflictError extends KaigiError {
  constructor(message: string, code = 'conflict') {
    super(message, code);
  }
}

// A request larger than a limit in Settings (the body, a message, a name): HTTP 413.
export class TooLargeError extends KaigiError {
  constructor(message: string, code = 'payload_too_large') {
    super(message, code);
  }
}

// A client over its rate or its budget in Settings: HTTP 429, with when it may call again.
export class RateLimitError extends KaigiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code: 'rate_limited' | 'budget_exceeded' = 'rate_limited',
  ) {
    super(message, code);
  }
}

// Stored state that cannot be read safely: an unknown version, a broken journal, a missing tab.
export class StateError extends KaigiError {
  constructor(message: string, code = 'invalid_state') {
    super(message, code);
  }
}

// The script lock could not be had in time: another execution (a tick's commit, a burst of calls) held it. Nothing
// was done; the caller may try again (the web API answers 503 with retry_after_seconds).
export class BusyError extends StateError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
    // The rooms protocol names the same condition FILE_LOCK_TIMEOUT.
    code = 'lock_timeout',
  ) {
    super(message, code);
  }
}

// Work that cannot finish in this execution and goes back to the queue, not before `retryAt`.
export class RequeueError extends KaigiError {
  constructor(
    message: string,
    readonly retryAt: number,
  ) {
    super(message, 'requeue');
  }
}
