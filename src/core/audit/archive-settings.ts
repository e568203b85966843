// The Settings rows of retention and the archive: the archive's name, when rows move early, when an archive is full.
import { settingDef as s } from '../setting-def.js';

export const ARCHIVE_SETTINGS = [
  s(
    'archive.spreadsheet_name',
    'Kaigi Archive',
    'string',
    'Name of the archive spreadsheet created for rows past retention',
  ),
  s(
    'archive.cell_threshold',
    0.8,
    'number',
    "Share of Google Sheets' 10,000,000-cell limit above which the oldest closed discussions move to the archive early",
  ),
  s(
    'archive.max_share',
    0.8,
    'number',
    "Share of an archive spreadsheet's 10,000,000-cell limit past which the archive run starts a new archive spreadsheet and moves on into it",
  ),
];
