// UrlFetchApp as the providers' transport: one fetchAll per round, muted HTTP errors, per-request network errors.
import type { HttpPort, HttpResult } from '../../core/providers/http.js';
import type { WireRequest } from '../../core/providers/vendors.js';

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
    try {
      return UrlFetchApp.fetchAll(requests.map(params)).map(result);
    } catch {
      // fetchAll fails as a whole on a network error; ask one by one so one bad request fails alone.
      return requests.map((w) => {
        try {
          return result(UrlFetchApp.fetch(w.url, params(w)));
        } catch (err) {
          return { code: 0, headers: {}, body: '', error: String((err as Error).message || err) };
        }
      });
    }
  },
};
