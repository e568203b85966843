// Room reads and writes with the rooms protocol's codes for a store that fails (STORAGE_ERROR, 500) and, for writes
// under the script lock, a lock that cannot be had in time (FILE_LOCK_TIMEOUT, 503 with retry_after_seconds).
import type { Store, StoreState } from '../../store/store.js';
import { BusyError, KaigiError, StateError } from '../../core/errors.js';

// An API call waits this long for the lock (the rooms protocol's AGENT_COMM_LOCK_TIMEOUT is 5 s; a tick's commit takes
// a few).
const LOCK_WAIT_MS = 10_000;

// The store's code for a lock it could not get in time (src/store/store.ts withLock).
function isLockTimeout(e: StateError): boolean {
  return e.code === 'lock_timeout';
}

// The store's own errors (a missing tab, an altered overflow value, a busy lock) under the rooms protocol's codes; the
// room rules' errors (ValidationError, NotFoundError, ConflictError, ...) pass as they are.
export function withStorage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof StateError)) throw e;
    // The rooms protocol's code, with the store's 503 and retry_after_seconds: nothing was done, and the caller may
    // retry, like any other call that could not have the lock in time (a 500 would say the server failed).
    if (isLockTimeout(e))
      throw new BusyError(
        'Kaigi is busy: the lock on the rooms could not be had in time. Try again.',
        e instanceof BusyError ? e.retryAfterSeconds : undefined,
        'FILE_LOCK_TIMEOUT',
      );
    throw new KaigiError(`The rooms could not be read or stored: ${e.message}`, 'STORAGE_ERROR');
  }
}

export function withRoomLock<T>(store: Store, fn: (state: StoreState) => T): T {
  return withStorage(() => store.withLock(fn, LOCK_WAIT_MS));
}
