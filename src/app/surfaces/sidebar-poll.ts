// One poll of the live sidebar: when nothing changed since the change stamp the page holds, one cache read and
// nothing else; otherwise the list and the open discussion's view, tagged with the stamp taken before reading them.
import { peekStamp, stampForRead } from '../../store/change-stamp.js';
import { withPropertySnapshot } from '../../store/property-reads.js';
import type { Council } from '../sheet-council.js';
import { discussionView, type DiscussionView, type SidebarData, sidebarData } from './sidebar.js';

export interface PollRequest {
  // The stamp of the page's last full read; absent or '' to read in full (the first load, a new filter).
  since?: string;
  // The list's status filter, as getSidebarData takes it.
  status?: string;
  // The discussion the page shows, if any.
  open?: string;
}

export interface SidebarPoll {
  stamp: string;
  changed: boolean;
  list?: SidebarData;
  view?: DiscussionView;
  // Why the open discussion could not be shown (one just queued has no log row yet): the page shows it, or waits
  // while the list is busy.
  viewError?: string;
}

export function sidebarPoll(req: PollRequest, council: () => Council): SidebarPoll {
  const r = req ?? {};
  const seen = peekStamp();
  if (r.since && seen !== null && seen === String(r.since)) return { stamp: seen, changed: false };
  const stamp = stampForRead(seen);
  // A read that writes nothing: every Script Property it needs in one call (property-reads.ts).
  return withPropertySnapshot(() => {
    const c = council();
    const out: SidebarPoll = { stamp, changed: true, list: sidebarData(c, { status: r.status }) };
    if (r.open) {
      try {
        out.view = discussionView(c, String(r.open));
      } catch (e) {
        out.viewError = (e as Error).message;
      }
    }
    return out;
  });
}
