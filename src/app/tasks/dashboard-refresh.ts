// dashboard.refresh: rewrites the Dashboard tables and charts after a decision, outside the decision's own step.
import { refreshDashboardNow } from '../dashboard.js';
import type { TaskHandler } from './task.js';

export const refreshDashboardTask: TaskHandler = {
  type: 'dashboard.refresh',
  run(_item, { council }) {
    refreshDashboardNow(council);
    return { kind: 'done' };
  },
};
