// One worker execution: take the script lock and process queued work within the time budget.

export interface TickReport {
  ran: boolean;
  processed: number;
  reason: string;
}

export function runTick(): TickReport {
  const lock = LockService.getScriptLock();
  if (!lock.tryLock(10000)) return { ran: false, processed: 0, reason: 'another execution holds the script lock' };
  try {
    return { ran: true, processed: 0, reason: 'queue empty' };
  } finally {
    lock.releaseLock();
  }
}
