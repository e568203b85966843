// Kaigi's errors: one small hierarchy, told apart with instanceof, each saying what a person or client can do.

export class KaigiError extends Error {
  // A stable code for clients (API error bodies, the CLI's one-line reasons).
  readonly code: string = 'internal';
  constructor(message: string) {
    super(message);
    // Apps Script logs and the local runtime print the name; keep the subclass's.
    this.name = new.target.name;
  }
}

// Input from a person, a client or a model that does not meet its schema.
export class ValidationError extends KaigiError {
  readonly code: string = 'invalid_input';
}

// Something named by id that is not there.
export class NotFoundError extends KaigiError {
  readonly code: string = 'not_found';
}

// A Settings row, a Script Property or another piece of configuration that cannot be used as it is.
// `key` names it (never its content), so the API's answer and a person's Inbox notice can say which.
export class ConfigError extends KaigiError {
  readonly code: string = 'invalid_configuration';
  constructor(
    message: string,
    readonly key = '',
  ) {
    super(message);
  }
}

// A request that is understood but cannot be answered in the current state (e.g. Kaigi is not set up yet).
export class ConflictError extends KaigiError {
  constructor(
    message: string,
    readonly code: string = 'conflict',
  ) {
    super(message);
  }
}

// Stored state that cannot be read safely: an unknown version, a broken journal, a missing tab.
export class StateError extends KaigiError {
  readonly code: string = 'invalid_state';
}

// Work that cannot finish in this execution and goes back to the queue, not before `retryAt`.
export class RequeueError extends KaigiError {
  readonly code: string = 'requeue';
  constructor(
    message: string,
    readonly retryAt: number,
  ) {
    super(message);
  }
}
