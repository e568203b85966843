// google.script.run and google.script.host for pages `kaigi serve` previews: each call POSTs {fn, args} to the runtime.
// Plain browser JS (no modules, no build) loaded before the page's own scripts; its <script> tag carries the nonce.
(() => {
  const tag = document.currentScript;
  const NONCE = tag.getAttribute('data-nonce');
  const LOCALE = tag.getAttribute('data-locale') || '';
  const ENDPOINT = tag.getAttribute('data-endpoint') || '/__gs/run';
  const ILLEGAL = 'Failed due to illegal value in argument: only primitives, arrays and plain objects may be passed.';

  const isPlain = (v) => {
    if (v === null || v === undefined) return true;
    const t = typeof v;
    if (t === 'string' || t === 'number' || t === 'boolean') return true;
    if (Array.isArray(v)) return v.every(isPlain);
    if (t !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
    return Object.keys(v).every((k) => isPlain(v[k]));
  };

  // Apps Script turns a <form> passed as the only argument into {name: value}; a file input is not supported here.
  const formObject = (form) => {
    const out = {};
    for (const el of Array.from(form.elements)) {
      if (!el.name || el.disabled) continue;
      if ((el.type === 'checkbox' || el.type === 'radio') && !el.checked) continue;
      out[el.name] = el.value;
    }
    return out;
  };

  // What the wire carries for a value JSON would silently change: the server applies Apps Script's rule to it too.
  const toWire = (v) => {
    if (v === undefined) return { __gsType: 'undefined' };
    if (v instanceof Date) return { __gsType: 'Date', iso: Number.isNaN(v.getTime()) ? null : v.toISOString() };
    if (typeof v === 'function') return { __gsType: 'function' };
    if (typeof v === 'number' && !Number.isFinite(v)) return { __gsType: 'number', text: String(v) };
    if (Array.isArray(v)) return v.map(toWire);
    if (v !== null && typeof v === 'object') {
      if (Object.getPrototypeOf(v) !== Object.prototype) return { __gsType: 'object' };
      const o = {};
      for (const k of Object.keys(v)) o[k] = toWire(v[k]);
      return o;
    }
    return v;
  };

  const asError = (e) => {
    const err = new Error(e?.message ? e.message : String(e));
    err.name = e?.name || 'ScriptError';
    return err;
  };

  // No failure handler: the error surfaces as an uncaught one in the console, as in Apps Script.
  const fail = (h, err) => {
    if (h.failure) h.failure(err, h.user);
    else
      setTimeout(() => {
        throw err;
      }, 0);
  };

  const invoke = (h, fn, given) => {
    let args = given;
    if (args.length === 1 && typeof HTMLFormElement !== 'undefined' && args[0] instanceof HTMLFormElement)
      args = [formObject(args[0])];
    if (!args.every(isPlain)) {
      // Asynchronous, like every outcome of google.script.run.
      setTimeout(() => fail(h, asError({ message: ILLEGAL, name: 'Error' })), 0);
      return;
    }
    fetch(ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Kaigi-Nonce': NONCE },
      body: JSON.stringify({ fn, args: args.map(toWire), locale: LOCALE }),
      credentials: 'same-origin',
    })
      .then((res) => res.json())
      .then(
        (reply) => {
          if (!reply.ok) return fail(h, asError(reply.error));
          if (h.success) h.success(reply.value, h.user);
        },
        (e) => fail(h, asError({ message: `NetworkError: ${e.message}`, name: 'NetworkError' })),
      );
  };

  // Each with* returns a new runner, so a shared runner keeps its handlers; any other name calls that function.
  const runner = (h) => {
    const base = {
      withSuccessHandler: (f) => runner({ success: f, failure: h.failure, user: h.user }),
      withFailureHandler: (f) => runner({ success: h.success, failure: f, user: h.user }),
      withUserObject: (u) => runner({ success: h.success, failure: h.failure, user: u }),
    };
    return new Proxy(base, {
      get: (target, name) => {
        if (typeof name !== 'string') return undefined;
        if (Object.hasOwn(target, name)) return target[name];
        if (name === 'then') return undefined;
        return (...args) => {
          invoke(h, name, args);
        };
      },
    });
  };

  // What google.script.host was asked for, so a test (or a person in the console) can see it.
  const hostCalls = [];
  window.google = window.google || {};
  window.google.script = {
    run: runner({}),
    host: {
      origin: location.origin,
      close: () => {
        hostCalls.push(['close']);
        document.documentElement.setAttribute('data-gs-closed', 'true');
      },
      setHeight: (px) => {
        hostCalls.push(['setHeight', px]);
      },
      setWidth: (px) => {
        hostCalls.push(['setWidth', px]);
      },
      editor: {
        focus: () => {
          hostCalls.push(['editor.focus']);
        },
      },
      calls: hostCalls,
    },
  };
})();
