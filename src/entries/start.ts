// Entry points for starting a discussion from Sheets (the start dialog and the sidebar form).
import * as start from '../app/discussions/start.js';
import { withPropertySnapshot } from '../store/property-reads.js';

export function getStartOptions(): start.StartOptions {
  return start.getStartOptions();
}

export function estimateStart(input: unknown): start.StartEstimate {
  return start.estimateStart(input);
}

export function startDiscussion(input: unknown): { task_id: string; discussion_id: string; duplicate: boolean } {
  // A start reads a dozen properties (the spreadsheet, the state, the configuration version, each agent's model and
  // key for the forecast): one getProperties() call, dropped at every write and at the lock (property-reads.ts).
  return withPropertySnapshot(() => start.startDiscussion(input));
}
