// The Settings rows of the web API: request limits, the API Log, waits and replays, and the API clients' budget.
import { settingDef as s } from '../setting-def.js';

export const API_SETTINGS = [
  s('api.rate_limit_per_minute', 60, 'integer', 'Web API requests per token per minute'),
  s('api.max_body_bytes', 100000, 'integer', 'Largest web API request body accepted'),
  s('api.max_kpi_rows', 1000, 'integer', 'KPI rows one web API or MCP call may send; more are refused (413)'),
  s(
    'api.client_daily_tokens',
    '10%',
    'string',
    "Tokens one API client's calls may make the council spend a day, rooms included: a number, or a share of the daily token budget such as 10%",
  ),
  s(
    'api.log_digest_rows',
    20,
    'integer',
    'API Log rows joined to the audit chain at once, as one Audit row holding their digest (a busy tick joins any fewer)',
  ),
  s('api.log_retention_days', 90, 'integer', 'Days before API Log rows move to the archive, by whole batch; 0: never'),
  // The API Log has 6 columns: 250,000 rows are 1.5M cells, 15% of Google Sheets' 10M-cell limit. The daily check
  // sees the count once a day, and one client at api.rate_limit_per_minute adds 86,400 rows (518k cells) a day, so
  // several such days still leave the council's tabs most of the spreadsheet (archive.cell_threshold is 80%).
  s(
    'api.log_max_rows',
    250000,
    'integer',
    "API Log rows kept in the spreadsheet: past this many, the daily check moves the oldest whole batches to the archive, however recent (6 columns a row; 250,000 rows are 15% of Google Sheets' 10,000,000 cells); 0: no limit",
  ),
  s(
    'api.log_waiting_rows',
    100,
    'integer',
    'API Log rows that may wait for a tick; the call that finds more appends them itself, under the lock',
  ),
  s(
    'api.status_max_age_seconds',
    30,
    'integer',
    'Longest the status request answers from its cached copy when nothing was committed since (queue leases, room presence)',
  ),
  s(
    'budget.reserve_share',
    0.5,
    'number',
    "Share of the daily token budget kept for the council's own discussions: API clients together never spend into it",
  ),
  s(
    'api.max_wait_seconds',
    60,
    'integer',
    'Longest a task request that asks to wait runs its discussion in its own request before answering 202 (0: never waits; the caller’s HTTP timeout must be longer)',
  ),
  s(
    'api.replay_seconds',
    600,
    'integer',
    'How long a re-sent MCP tools/call (same token, request id and arguments) gets the first answer instead of acting again; short, because a client numbers its ids from 0 again in each session',
  ),
];
