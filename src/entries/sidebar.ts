// Entry points the sidebar reads through google.script.run: the discussions list and one discussion's view.
import { scriptZone } from '../adapters/gas/records.js';
import { openBound } from '../adapters/gas/spreadsheet.js';
import { Council } from '../app/council.js';
import { discussionView, sidebarData, type DiscussionView, type SidebarData } from '../app/sidebar.js';

export function getSidebarData(filter?: { status?: string }): SidebarData {
  return sidebarData(new Council(openBound(), scriptZone()), filter ?? {});
}

export function getDiscussion(id: string): DiscussionView {
  return discussionView(new Council(openBound(), scriptZone()), String(id));
}
