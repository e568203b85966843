// Host handlers for the other services: properties, caches, locks, triggers, HTTP and the spreadsheet UI.
import type { FetchResultWire, ServiceArgs, StoreName } from '../service-calls.js';
import type { ExecContext, Handlers, HostState, OpsNamed } from './handler.js';
import { httpFetch } from './http.js';
import type { PropertyStore } from './properties-store.js';
import type { TriggerModel } from './triggers.js';
import { zoneOffsetMinutes } from './values.js';

function propStore(st: HostState, ex: ExecContext, store: StoreName): PropertyStore {
  if (store === 'script') return st.scriptProperties;
  if (store === 'user') return st.userProperties(ex.user || ex.owner);
  return st.documentProperties;
}

function lockKey(scope: StoreName, ex: ExecContext): string {
  return scope === 'user' ? `user:${ex.user || ex.owner}` : scope;
}

function triggerWire(t: TriggerModel) {
  return { uid: t.uid, handler: t.handler, eventType: t.eventType, source: t.source, sourceId: t.sourceId };
}

export const STORE_HANDLERS: Handlers<OpsNamed<'props' | 'cache' | 'lock' | 'trig'>> = {
  'props.get': (a, st, ex) => propStore(st, ex, a.store).get(a.key),
  'props.all': (a, st, ex) => propStore(st, ex, a.store).all(),
  'props.set': (a, st, ex) => {
    propStore(st, ex, a.store).set(a.entries, a.deleteAllOthers);
    return null;
  },
  'props.delete': (a, st, ex) => {
    propStore(st, ex, a.store).delete(a.key);
    return null;
  },
  'props.clear': (a, st, ex) => {
    propStore(st, ex, a.store).clear();
    return null;
  },

  'cache.get': (a, st, ex) => {
    const c = st.cache(a.store, ex.user);
    const out: Record<string, string> = {};
    for (const k of a.keys) {
      const v = c.get(k);
      if (v !== null) out[k] = v;
    }
    return out;
  },
  'cache.put': (a, st, ex) => {
    st.cache(a.store, ex.user).put(a.entries, a.ttl ?? undefined);
    return null;
  },
  'cache.remove': (a, st, ex) => {
    st.cache(a.store, ex.user).remove(a.keys);
    return null;
  },

  'lock.acquire': (a, st, ex) => st.locks.acquire(lockKey(a.scope, ex), ex.id, a.timeout, ex.clock),
  'lock.release': (a, st, ex) => {
    st.locks.release(lockKey(a.scope, ex), ex.id, ex.clock);
    return null;
  },

  // Installable triggers belong to the user the execution runs as (ExecContext.owner, its effective user): a second
  // editor sees, counts and deletes only their own.
  'trig.create': (a, st, ex) =>
    triggerWire(
      st.triggers.create(a.spec, ex.owner, ex.clock.now(), (time) => zoneOffsetMinutes(time, st.timeZone) * 60000),
    ),
  'trig.list': (_a, st, ex) => st.triggers.ownedBy(ex.owner).map(triggerWire),
  'trig.delete': (a, st, ex) => {
    st.triggers.delete(a.uid, ex.owner);
    return null;
  },
};

export const FETCH_HANDLERS: Handlers<'fetch'> = {
  // A fetchAll's requests go out in rounds of at most the time model's fetchConcurrency, each round waiting for its
  // slowest answer; a failed request answers with its error, the others are unaffected.
  fetch: async (a, st) => {
    const out: FetchResultWire[] = [];
    const width = Math.max(1, st.timeModel.options.fetchConcurrency);
    for (let i = 0; i < a.requests.length; i += width)
      out.push(...(await Promise.all(a.requests.slice(i, i + width).map((r) => fetchOne(r, st)))));
    return out;
  },
};

function fetchOne(r: ServiceArgs<'fetch'>['requests'][number], st: HostState): Promise<FetchResultWire> {
  return httpFetch({
    url: r.url,
    method: r.method,
    headers: r.headers,
    body: r.bodyB64 ? Buffer.from(r.bodyB64, 'base64') : null,
    followRedirects: r.followRedirects,
    timeoutMs: st.fetchTimeoutMs,
    allowLocal: st.allowLocalFetch,
  }).then(
    (res) => ({ code: res.code, headers: res.headers, bodyB64: res.body.toString('base64') }),
    (e: Error) => ({ error: e.message }),
  );
}

export const UI_HANDLERS: Handlers<OpsNamed<'ui'>> = {
  'ui.menu': (a, st) => {
    st.ui.menus = st.ui.menus.filter((m) => m.caption !== a.caption).concat([{ caption: a.caption, items: a.items }]);
    return null;
  },
  'ui.sidebar': (a, st) => {
    st.ui.sidebars.push({ title: a.title, html: a.html, width: a.width });
    return null;
  },
  'ui.dialog': (a, st) => {
    st.ui.dialogs.push({ title: a.title, html: a.html, modal: a.modal });
    return null;
  },
  'ui.toast': (a, st) => {
    st.ui.toasts.push({ msg: a.msg, title: a.title });
    return null;
  },
  'ui.alert': (a, st) => {
    st.ui.alerts.push({ title: a.title, prompt: a.prompt, buttons: a.buttons });
    return st.ui.responses.shift()?.button ?? (a.buttons === 'YES_NO' || a.buttons === 'YES_NO_CANCEL' ? 'YES' : 'OK');
  },
  'ui.prompt': (a, st) => {
    st.ui.alerts.push({ title: a.title, prompt: a.prompt, buttons: a.buttons });
    const r = st.ui.responses.shift();
    return { button: r?.button ?? 'OK', text: r?.text ?? '' };
  },
};
