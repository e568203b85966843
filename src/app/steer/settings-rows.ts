// Settings from the sidebar and the settings dialog: every row with its type, and a typed, audited update.
import { rowsOf } from '../../../sheets-schema/index.js';
import { bumpConfigVersion, configCacheNameAt, globalConfigVersion } from '../../store/config-version.js';
import { ValidationError } from '../../core/errors.js';
import { EMBEDDING_PROVIDERS } from '../../core/providers/embeddings.js';
import { DEFAULT_SETTINGS, parseSetting, type SettingDef } from '../../core/settings.js';
import { SETTING_DESCRIPTIONS_JA } from '../../core/setting-texts-ja.js';
import type { Council } from '../sheet-council.js';
import { text } from './plain.js';

const cols = rowsOf('settings');

export interface SettingRow {
  key: string;
  value: string;
  type: string;
  description: string;
  // The description a Japanese page shows; the key stays the row's identifier in either language.
  description_ja: string;
}

// Values a type alone does not bound: a choice among a few words. Numbers are bounded below by 0, since no
// setting's default is negative (limits, seconds, weights, thresholds).
const CHOICES: Record<string, string[]> = {
  locale: ['ja', 'en'],
  'embedding.provider': [...EMBEDDING_PROVIDERS],
};

// Every known setting in the order of DEFAULT_SETTINGS, with the stored value (or the default where the tab lacks
// the row), then any row the tab holds that Kaigi does not know. Type and description are Kaigi's, not the cell's.
export function settingsRows(council: Council): SettingRow[] {
  const stored: Record<string, string> = {};
  const order: string[] = [];
  for (const r of council.store.readConfig('settings').map((v) => cols.read(v))) {
    const key = text(r.key);
    if (!key) continue;
    stored[key] = text(r.value);
    order.push(key);
  }
  const known: SettingRow[] = DEFAULT_SETTINGS.map((d) => ({
    key: d.key,
    value: d.key in stored ? stored[d.key] : d.value,
    type: d.type,
    description: d.description,
    description_ja: SETTING_DESCRIPTIONS_JA[d.key],
  }));
  const unknown = order
    .filter((k) => !DEFAULT_SETTINGS.some((d) => d.key === k))
    .map((k) => ({
      key: k,
      value: stored[k],
      type: 'string',
      description: '(not a Kaigi setting)',
      description_ja: '（Kaigi の設定ではありません）',
    }));
  return known.concat(unknown);
}

// The value as it will be stored, or a ValidationError naming the key and why; the parser is the one the council
// reads Settings with (src/core/settings.ts), so a value accepted here never falls back to its default there.
function checkSetting(key: string, value: unknown): { def: SettingDef; raw: string } {
  const def = DEFAULT_SETTINGS.find((d) => d.key === key);
  if (!def) throw new ValidationError(`unknown setting: ${key}`, 'unknown_setting');
  const raw =
    value !== null && typeof value === 'object'
      ? JSON.stringify(value)
      : value === undefined || value === null
        ? ''
        : String(value);
  let parsed: unknown;
  try {
    parsed = parseSetting(def.type, raw, def.value);
  } catch (e) {
    throw new ValidationError(`${key}: ${(e as Error).message} (type ${def.type})`, 'invalid_setting');
  }
  if (typeof parsed === 'number' && parsed < 0)
    throw new ValidationError(`${key}: must be 0 or more`, 'invalid_setting');
  if (CHOICES[key] && CHOICES[key].indexOf(raw) < 0)
    throw new ValidationError(`${key}: must be one of ${CHOICES[key].join(', ')}`, 'invalid_setting');
  return { def, raw };
}

export function updateSetting(
  council: Council,
  input: { key: string; value: unknown },
  by: string,
): { key: string; value: string; changed: boolean } {
  const key = text(input?.key);
  if (!key) throw new ValidationError('key is required', 'unknown_setting');
  const { def, raw } = checkSetting(key, input.value);
  const out = council.store.withLock((state) => {
    // From the sheet under the lock, not a copy this execution holds: a person may have edited the tab since the cache
    // was filled. The version every tab's cache name starts with is taken first: a person's edit after it moves it on,
    // so the copy put below under the version taken here is then never read.
    council.store.forgetTab('settings');
    const version = globalConfigVersion();
    const rows = council.store.readTab('settings');
    const at = rows.findIndex((v) => text(cols.read(v).key) === key);
    const before = at >= 0 ? text(cols.read(rows[at]).value) : null;
    if (before === raw) return { key, value: raw, changed: false, version, rows };
    const row = at >= 0 ? at + 2 : Math.max(1, council.store.sheet('settings').getLastRow()) + 1;
    const values = cols.write(
      at >= 0 ? { value: raw } : { key, value: raw, type: def.type, description: def.description },
      at >= 0 ? rows[at] : undefined,
    );
    const c = council.store.begin(state, by);
    const now = council.now();
    c.setMarker('settings', row, values, `Settings:${key}`);
    c.audit({ actor: by, event: 'setting', tab: 'Settings', row_key: key, payload: { from: before, to: raw } });
    c.run(new Date(now).toISOString());
    // As the sheet now holds them: the written row at the tab's width.
    const after = rows.slice();
    const width = council.store.width('settings');
    after[row - 2] = values.slice(0, width).concat(Array(Math.max(0, width - values.length)).fill(''));
    return { key, value: raw, changed: true, version, rows: after };
  });
  // The tab as it now stands is cached under its new name at once: the next execution does not read it again.
  if (out.changed)
    council.store.cacheConfig(configCacheNameAt('settings', out.version, bumpConfigVersion(['settings'])), out.rows);
  return { key: out.key, value: out.value, changed: out.changed };
}
