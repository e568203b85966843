// Entry points for starting a discussion from Sheets (the start dialog and the sidebar form).
import * as start from '../app/discussions/start.js';

export function getStartOptions(): start.StartOptions {
  return start.getStartOptions();
}

export function estimateStart(input: unknown): start.StartEstimate {
  return start.estimateStart(input);
}

export function startDiscussion(input: unknown): { task_id: string; discussion_id: string; duplicate: boolean } {
  return start.startDiscussion(input);
}
