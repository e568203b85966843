// Entry points the sidebar reads through google.script.run: the discussions list and one discussion's view.
import { openBound } from '../adapters/gas/spreadsheet.js';
import { discussionView, sidebarData, type DiscussionView, type SidebarData } from '../app/sidebar.js';

export function getSidebarData(): SidebarData {
  return sidebarData(openBound());
}

export function getDiscussion(id: string): DiscussionView {
  return discussionView(openBound(), String(id));
}
