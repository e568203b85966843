// UrlFetchApp as the providers' transport: one fetchAll per call, muted HTTP errors, a failed call reported, not thrown.
import { RequeueError } from '../../core/errors.js';
import { FETCH_LIMIT_MS, type HttpPort, type HttpResult } from '../../core/providers/http.js';
import type { WireRequest } from '../../core/providers/vendors.js';
import { executionStarted } from '../execution-start.js';

// Apps Script ends every execution at 6 minutes.
const EXECUTION_LIMIT_MS = 360_000;
// What must stay free after the last fetch ends: one commit (a script-lock wait of up to 30 s, its writes, a flush).
const AFTER_FETCH_MS = 60_000;

function params(w: WireRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  return {
    url: w.url,
    method: w.method,
    contentType: w.contentType,
    headers: w.headers,
    payload: w.payload,
    muteHttpExceptions: true,
  };
}

function result(r: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResult {
  return { code: r.getResponseCode(), headers: r.getHeaders() as Record<string, string>, body: r.getContentText() };
}

export const urlFetchPort: HttpPort = {
  fetchAll(requests: WireRequest[]): HttpResult[] {
    // A backstop under every caller's own deadline (the providers' tick budget, the embedding calls that have
    // none): a fetch that could end too late for its results to be written is not started. A fetch started by
    // 240 s ends by 300 s, leaving a minute for the commit before Apps Script's 360 s.
    // The work comes back once this execution cannot be running any more, so no tick claims it again meanwhile.
    const started = executionStarted();
    const startedAfter = Date.now() - started;
    if (startedAfter + FETCH_LIMIT_MS + AFTER_FETCH_MS > EXECUTION_LIMIT_MS)
      throw new RequeueError(
        `a fetch started ${Math.round(startedAfter / 1000)} s into the execution could end too late to be written`,
        started + EXECUTION_LIMIT_MS,
      );
    try {
      return UrlFetchApp.fetchAll(requests.map(params)).map(result);
    } catch (err) {
      // fetchAll fails as a whole on one request's network error and the answers that came back are lost with it.
      // Nothing is sent again here: the caller keeps the answers it has and decides, within its time budget, what
      // to ask again (HttpProvider.respond).
      const message = String((err as Error).message || err);
      const lost = requests.length > 1;
      return requests.map(() => ({
        code: 0,
        headers: {},
        body: '',
        error: lost ? `fetchAll failed as a whole: ${message}` : message,
        lost,
      }));
    }
  },
};
