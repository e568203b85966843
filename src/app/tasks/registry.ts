// Every queue task type Kaigi runs: adding one is a module plus one line here.
import { archiveRows } from './archive-run.js';
import { advanceDiscussion } from './discussion-advance.js';
import { openDiscussion } from './discussion-open.js';
import { resolveEscalation } from './escalation-resolve.js';
import { escalationTimeout } from './escalation-timeout.js';
import { reembedMemory } from './memory-reembed.js';
import { processObjection } from './objection-process.js';
import { reviewRest } from './review-run.js';
import { roomReply } from './room-reply.js';
import type { TaskHandler } from './task.js';

const TASKS: readonly TaskHandler[] = [
  openDiscussion,
  advanceDiscussion,
  processObjection,
  resolveEscalation,
  escalationTimeout,
  reembedMemory,
  archiveRows,
  roomReply,
  reviewRest,
];

export function findTask(type: string): TaskHandler | undefined {
  return TASKS.find((t) => t.type === type);
}
