// What setup tells the person who ran it, in their language: tabs and settings, the metric table, the time zone.
import { type Lang, tf } from '../../core/i18n.js';
import type { SetupReport } from './setup.js';

// The time zone step in words: set to the script's, kept as the spreadsheet's own, or already the same.
function zoneLine(z: SetupReport['timeZone'], lang: Lang): string {
  if (z.set) return tf('setupZoneSet', lang, { zone: z.script });
  if (z.spreadsheet !== z.script) return tf('setupZoneKept', lang, { zone: z.spreadsheet, script: z.script });
  return tf('setupZoneSame', lang, { zone: z.spreadsheet });
}

// The alert's lines. Column problems name tabs and column keys, which are what a person repairs in the sheet.
export function setupMessage(report: SetupReport, lang: Lang): string {
  const lines = [
    tf('setupSummary', lang, {
      created: report.created.length,
      repaired: report.repaired.length,
      settings: report.settingsAdded,
    }),
    ...report.problems,
  ];
  if (report.metricsAdded.length) lines.push(tf('setupMetrics', lang, { metrics: report.metricsAdded.join(', ') }));
  lines.push(zoneLine(report.timeZone, lang));
  // A second editor is told, in the same alert, that another account's triggers do the work (no second set).
  if (report.workersNotice) lines.push('', report.workersNotice);
  return lines.join('\n');
}
