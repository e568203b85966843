// What Apps Script hands a web app and google.script.run: the doGet/doPost event, and the plain-data rule.

export interface WebBody {
  contents: string;
  type: string;
}

// A parameter's name is whatever the client sent, `__proto__` and `toString` included: each one is set as an own
// property (an assignment to `__proto__` would set the prototype instead), so the script sees it as a name it does not
// take, never as an object's member.
function setOwn<T>(o: Record<string, T>, k: string, v: T): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const own = (o: object, k: string) => Object.hasOwn(o, k);

// The event object doGet and doPost receive: parameters first value and all values, the query string, the body.
export function webEvent(parameters: Record<string, string | string[]>, body?: WebBody): Record<string, unknown> {
  const parameter: Record<string, string> = {};
  const params: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(parameters)) {
    const all = Array.isArray(v) ? v : [v];
    setOwn(params, k, all);
    setOwn(parameter, k, all[0]);
  }
  const queryString = Object.entries(params)
    .flatMap(([k, vs]) => vs.map((v) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
    .join('&');
  const e: Record<string, unknown> = {
    parameter,
    parameters: params,
    queryString,
    contextPath: '',
    contentLength: body ? Buffer.byteLength(body.contents) : -1,
  };
  if (body)
    e.postData = {
      contents: body.contents,
      length: Buffer.byteLength(body.contents),
      type: body.type,
      name: 'postData',
    };
  return e;
}

// google.script.run passes only primitives, arrays and plain objects.
export function isPlainArgument(v: unknown): boolean {
  return (
    v === null ||
    ['string', 'number', 'boolean', 'undefined'].includes(typeof v) ||
    (Array.isArray(v)
      ? v.every(isPlainArgument)
      : typeof v === 'object' &&
        Object.getPrototypeOf(v) === Object.prototype &&
        Object.values(v as object).every(isPlainArgument))
  );
}

// How a web-app execution's outcome reaches the browser: Apps Script always answers 200, so only the body tells.
export function webResponse(
  ok: boolean,
  output: { mimeType: string; content: string } | undefined,
  error: { name: string; message: string } | undefined,
): { status: 200; mimeType: string; body: string } {
  if (ok && output) return { status: 200, mimeType: output.mimeType, body: output.content };
  const message = ok
    ? 'The script completed but did not return anything.'
    : `${error!.name === 'Exception' ? 'Exception: ' : ''}${error!.message}`;
  return {
    status: 200,
    mimeType: 'text/html',
    body: `<html><body><div>Error: ${message.replace(/</g, '&lt;')}</div></body></html>`,
  };
}

// A query string (or a form-encoded body) as Apps Script's parameters: every value of each name, in order.
export function parametersOf(query: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    if (own(out, k)) out[k].push(v);
    else setOwn(out, k, [v]);
  }
  return out;
}

// A POST's parameters: the query's, then a form-encoded body's fields (Apps Script adds those to e.parameter too).
export function postParameters(query: string, contents: string, type: string): Record<string, string[]> {
  const out = parametersOf(query);
  if (type !== 'application/x-www-form-urlencoded') return out;
  for (const [k, vs] of Object.entries(parametersOf(contents))) setOwn(out, k, (own(out, k) ? out[k] : []).concat(vs));
  return out;
}
