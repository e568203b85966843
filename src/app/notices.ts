// Telling a person once: an audited Inbox row per condition, remembered so the same condition is said only once.
import { sha256Hex } from '../store/crypto.js';
import { inboxRow } from '../store/records.js';
import { props } from '../store/services.js';
import type { Commit, Store } from '../store/store.js';
import { ConfigError } from '../core/errors.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import type { QueueItem } from '../core/queue.js';
import type { SettingProblem, Settings } from '../core/settings.js';
import type { InboxItem } from '../core/types.js';
import { ports } from '../ports.js';

// What has been said: { [notice key]: sha256 of its condition }.
const NOTICES_PROPERTY = PROPERTY_KEYS.notices;

export interface NoticeText {
  title: string;
  body: string;
  priority?: InboxItem['priority'];
  discussion_id?: string;
  // An alert unless told otherwise (a KPI swing the good way is a milestone).
  type?: Extract<InboxItem['type'], 'anomaly_alert' | 'milestone'>;
}

export interface Notice extends NoticeText {
  // What the condition is about (`setting:queue.max_attempts`); one remembered condition per key.
  key: string;
  // The condition itself: a different condition under the same key (another bad value) is told again.
  condition: string;
}

type Memory = Record<string, string>;

function readMemory(): Memory {
  const raw = props.get(NOTICES_PROPERTY);
  if (!raw) return {};
  let v: unknown = null;
  try {
    v = JSON.parse(raw);
  } catch {
    v = null;
  }
  // A broken memory cannot say what was told; stopping here is louder than telling everything again or nothing.
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError(
      `The ${NOTICES_PROPERTY} Script Property is not a JSON object; delete it and Kaigi starts remembering afresh.`,
      NOTICES_PROPERTY,
    );
  return v as Memory;
}

function writeMemory(m: Memory): void {
  props.set({ [NOTICES_PROPERTY]: JSON.stringify(m) });
}

function fingerprint(n: Notice): string {
  return sha256Hex(n.condition);
}

// A system alert for a person: the Inbox row and its audit event, added to a commit (as its final write when
// `marker`, a commit of its own). Also for callers that tell a person once by their own record (the daily budget).
export function writeNotice(c: Commit, n: NoticeText, marker = false): string {
  const now = ports().clock.now();
  const inbox: InboxItem = {
    inbox_id: `INB-${c.nextSeq('inbox')}`,
    from_agent: 'system',
    type: n.type ?? 'anomaly_alert',
    priority: n.priority ?? 'high',
    title: n.title.slice(0, 300),
    body: n.body.slice(0, 3000),
    discussion_id: n.discussion_id ?? '',
  };
  const row = inboxRow(inbox, now);
  if (marker) c.setMarker('inbox', 'append', row, `Inbox:${inbox.inbox_id}`);
  else c.append('inbox', [row]);
  c.audit({
    actor: 'system',
    event: 'inbox',
    tab: 'Inbox',
    row_key: inbox.inbox_id,
    payload: { title: inbox.title },
  });
  return inbox.inbox_id;
}

export class Notices {
  constructor(private readonly store: Store) {}

  // Adds the Inbox row and its audit event to a commit, as its final write when `marker` (a commit of its own).
  write(c: Commit, n: NoticeText, marker = false): string {
    return writeNotice(c, n, marker);
  }

  // Inside the caller's commit (and lock): the row if the condition was not said yet. Returns what to run once
  // the commit is in the sheet; a crash between the two says it twice at worst, never not at all.
  within(c: Commit, n: Notice): (() => void) | null {
    const f = fingerprint(n);
    if (readMemory()[n.key] === f) return null;
    this.write(c, n);
    return () => {
      const m = readMemory();
      m[n.key] = f;
      writeMemory(m);
    };
  }

  // In a commit of its own. True when a row was written, false when the condition had been said.
  tell(n: Notice): boolean {
    return this.sync(n.key, [n], false) > 0;
  }

  // A family of conditions (keys starting with `prefix`): each present one is told once, and the family's others
  // are forgotten, so a condition that was fixed and comes back is told again. Returns the rows written.
  sync(prefix: string, present: readonly Notice[], forget = true): number {
    const wanted = (m: Memory) => present.filter((n) => m[n.key] !== fingerprint(n));
    const stale = (m: Memory) =>
      forget ? Object.keys(m).filter((k) => k.indexOf(prefix) === 0 && !present.some((n) => n.key === k)) : [];
    // The common case, nothing new and nothing fixed, costs one property read and no lock.
    const seen = readMemory();
    if (!wanted(seen).length && !stale(seen).length) return 0;
    return this.store.withLock((state) => {
      const m = readMemory();
      const todo = wanted(m);
      for (const k of stale(m)) delete m[k];
      if (todo.length) {
        const c = this.store.begin(state);
        todo.forEach((n, i) => this.write(c, n, i === 0));
        c.run(new Date(ports().clock.now()).toISOString());
      }
      for (const n of todo) m[n.key] = fingerprint(n);
      writeMemory(m);
      return todo.length;
    });
  }
}

// ---- the conditions Kaigi tells a person about ------------------------------------------------

// A cell's value in a notice, as a JSON string cut at `max` characters.
export function quote(v: string, max = 200): string {
  return JSON.stringify(v.length > max ? `${v.slice(0, max)}…` : v);
}

function settingNotice(p: SettingProblem): Notice {
  return {
    key: `setting:${p.key}`,
    condition: `${p.value}\n${p.error}`,
    title: `Setting ${p.key} is not usable; its default applies`,
    body:
      `The Settings row ${p.key} holds ${quote(p.value)}, which is ${p.error} (expected ${p.type}). ` +
      `Kaigi uses the default ${quote(p.fallback)} until the row is fixed.`,
  };
}

// Every Settings row that falls back to its default, told once each; a fixed row is forgotten.
export function tellSettingProblems(store: Store, settings: Settings): number {
  return new Notices(store).sync('setting:', settings.problems().map(settingNotice));
}

// A piece of configuration (a Script Property) that stops a request: named, never quoted.
export function configNotice(e: ConfigError): Notice {
  const key = e.key || 'configuration';
  return {
    key: `config:${key}`,
    condition: e.message,
    title: `${key} is not usable`,
    body: `${e.message} Requests that need it answer 500 invalid_configuration until it is fixed.`,
  };
}

// A Queue item no handler of this version knows; one notice per type, however many items or attempts.
export function unknownTaskNotice(item: QueueItem): Notice {
  return {
    key: `task-type:${item.type}`,
    condition: item.type,
    title: `Unknown task type "${item.type}" in the Queue`,
    body:
      `Queue item ${item.id} (from ${item.from || 'unknown'}) has the task type "${item.type}", which this version ` +
      'of Kaigi has no handler for. Items of this type fail and become dead after their attempts; ' +
      'enqueue a known type or deploy the version that handles it.',
    discussion_id: String(item.payload?.discussion_id ?? ''),
  };
}
