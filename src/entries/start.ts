// Entry points for starting a discussion from Sheets (the start dialog and the sidebar form).
import { requestDiscussion, type DiscussionRequest } from '../app/requests.js';

export function startDiscussion(request: DiscussionRequest): { task_id: string; duplicate: boolean } {
  return requestDiscussion(request);
}
