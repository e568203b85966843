// Entry points for the Dashboard tab: refresh its data ranges and charts.
import { openBound } from '../store/spreadsheet.js';
import { scriptZone } from '../store/records.js';
import { Council } from '../app/sheet-council.js';
import { refreshDashboardCovering } from '../app/surfaces/dashboard.js';

// Menu "Refresh the Dashboard": the five tables in one write, then the five charts (a refresh due is covered).
export function refreshDashboard(): { ranges: number; charts: number } {
  const r = refreshDashboardCovering(new Council(openBound(), scriptZone()));
  return { ranges: r.ranges, charts: r.charts };
}
