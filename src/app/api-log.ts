// The API Log tab (SPEC §11): one row per web API or MCP call — time, client, call, status, code, duration; never
// the token, the raw path or the body.
import { rowsOf } from '../../sheets-schema/index.js';
import type { Store } from '../adapters/gas/store.js';
import { callLabel } from '../core/api.js';

const cols = rowsOf('api_log');

export interface ApiLogEntry {
  time: number;
  client: string;
  call: string;
  status: number;
  code: string;
  ms: number;
}

// Through a commit under the script lock, at the tail the store's state keeps: concurrent calls each get a row of
// their own, a killed execution leaves no half row, and the row lands in the rows the store grew ahead with the
// tab's plain-text formats (Sheet.appendRow would be one round trip cheaper, but past those rows a client named
// "007" or "2026-01-01" would be stored as a number or a date). Every value is ours: the client's name is checked
// when it is created, the call is a route pattern or an MCP label.
export function writeApiLog(store: Store, e: ApiLogEntry): void {
  store.withLock((state) => {
    const c = store.begin(state);
    c.setMarker(
      'api_log',
      'append',
      cols.write({
        time: new Date(e.time),
        client: e.client,
        call: callLabel(e.call),
        status: e.status,
        code: e.code,
        duration_ms: Math.max(0, Math.round(e.ms)),
      }),
      'API Log',
    );
    c.run(new Date(e.time).toISOString());
  });
}
