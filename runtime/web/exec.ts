// GET and POST /exec as Apps Script serves a web app: the script sees parameters and the body, never a header;
// HTML is answered directly, anything else (and every POST) by a 302 to the echo URL; outcomes are always 200.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Runtime } from '../runtime.js';
import { parametersOf, postParameters, webResponse } from '../web-events.js';
import { type EchoBody, type EchoStore, ECHO_PATH } from './echo.js';
import { type HttpRoute, sendText } from './route-table.js';

// More than a POST body Apps Script accepts; the script's own limit (Settings api.max_body_bytes) is far lower.
const MAX_BODY_BYTES = 50 * 1024 * 1024;

export interface ExecDeps {
  rt: Runtime;
  echo: EchoStore;
  // The echo listener's origin as the client reaches this host (`http://127.0.0.1:41234`).
  echoOrigin(req: IncomingMessage): string;
  // Wraps each execution, so the server knows what is still running when it stops.
  track<T>(p: Promise<T>): Promise<T>;
  // Told about executions the runtime refused to start; never given a URL or a body.
  log(text: string): void;
}

// The body as text, or null when it is larger than any web app takes.
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function redirect(res: ServerResponse, location: string): void {
  const body = `<HTML><HEAD><TITLE>Moved Temporarily</TITLE></HEAD><BODY>The document has moved <A HREF="${location.replace(/&/g, '&amp;')}">here</A>.</BODY></HTML>`;
  res.setHeader('Location', location);
  sendText(res, 302, 'text/html', body);
}

// The preview runs on real time, but an execution's service calls take their time on its own, modelled clock
// (runtime/host/time-model.ts). A request is answered when the wall clock reaches the execution's end, as Apps
// Script would answer it: a client that waits for each answer then sends no faster than it could to Google, and a
// lock its calls held is not asked for again before the holder's modelled release.
async function answerAtItsEnd(reply: EchoBody & { result?: { endedAt: number } }, now: () => number): Promise<void> {
  const lag = (reply.result?.endedAt ?? 0) - now();
  if (lag > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(lag, MAX_PACE_MS)));
}

// No answer waits longer than Apps Script's own execution limit.
const MAX_PACE_MS = 6 * 60_000;

export function execRoute(d: ExecDeps): HttpRoute {
  // An execution the runtime would not start (30 at once already) is an error page, as Apps Script shows one.
  const outcome = async (start: () => Promise<EchoBody>): Promise<EchoBody> => {
    try {
      const reply = await d.track(start());
      await answerAtItsEnd(reply, () => d.rt.clock.now());
      return reply;
    } catch (e) {
      d.log(`an execution did not start: ${(e as Error).message}`);
      return webResponse(false, undefined, { name: 'Error', message: (e as Error).message });
    }
  };
  const toEcho = (req: IncomingMessage, res: ServerResponse, answer: EchoBody) =>
    redirect(res, `${d.echoOrigin(req)}${ECHO_PATH}?user_content_key=${d.echo.put(answer)}`);
  return {
    path: '/exec',
    methods: ['GET', 'POST'],
    handle: async ({ req, res, url }) => {
      if (req.method === 'POST') {
        const contents = await readBody(req);
        if (contents === null)
          return sendText(res, 413, 'text/html', '<html><body><p>413. Request Entity Too Large.</p></body></html>');
        const type = (req.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim().toLowerCase();
        const params = postParameters(url.search, contents, type);
        return toEcho(req, res, await outcome(() => d.rt.doPost(params, contents, type)));
      }
      const answer = await outcome(() => d.rt.doGet(parametersOf(url.search)));
      // HtmlService output (and an error page) is the page itself; ContentService output comes through the echo.
      if (answer.mimeType === 'text/html') return sendText(res, 200, 'text/html', answer.body);
      toEcho(req, res, answer);
    },
  };
}
