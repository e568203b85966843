// Entry points the sidebar reads through google.script.run: the discussions list, one discussion's view, and the
// live poll that reads them only when something changed.
import { scriptZone } from '../store/records.js';
import { openBound } from '../store/spreadsheet.js';
import { Council } from '../app/sheet-council.js';
import { discussionView, sidebarData, type DiscussionView, type SidebarData } from '../app/surfaces/sidebar.js';
import { type PollRequest, type SidebarPoll, sidebarPoll } from '../app/surfaces/sidebar-poll.js';

export function getSidebarData(filter?: { status?: string }): SidebarData {
  return sidebarData(new Council(openBound(), scriptZone()), filter ?? {});
}

export function getDiscussion(id: string): DiscussionView {
  return discussionView(new Council(openBound(), scriptZone()), String(id));
}

// A read like the two above, open to every editor: nothing when the change stamp is the one the page holds.
export function pollSidebar(req?: PollRequest): SidebarPoll {
  return sidebarPoll(req ?? {}, () => new Council(openBound(), scriptZone()));
}
