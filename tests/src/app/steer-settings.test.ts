// Settings from the sidebar: every row typed and described, and an update validated by type, audited and live.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/core/settings.js';
import { council } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { call, HOSTILE } from './steer-helpers.js';

describe('getSettingsRows and updateSetting', () => {
  it('lists every setting with its type and description', async () => {
    const rt = await council();
    const rows = await call(rt, 'getSettingsRows');
    expect(rows.map((r: { key: string }) => r.key)).toEqual(DEFAULT_SETTINGS.map((d) => d.key));
    const target = rows.find((r: { key: string }) => r.key === 'phase.target_seconds');
    expect(target.type).toBe('json');
    expect(target.description).toMatch(/Target time per phase/);
    // A Japanese page reads the row by its Japanese description; the key stays the identifier.
    expect(target.description_ja).toMatch(/フェーズごとの目標時間/);
    expect(JSON.parse(target.value)).toMatchObject({ 1: 5, 2: 30 });
  });

  it('writes a valid value through an audited commit and the council reads it at once', async () => {
    const rt = await council();
    await call(rt, 'getSettingsRows'); // the cached copy the update must replace
    expect(await call(rt, 'updateSetting', { key: 'retrieval.top_k', value: 7 })).toEqual({
      key: 'retrieval.top_k',
      value: '7',
      changed: true,
    });
    expect(records(rt, 'settings').find((r) => r.key === 'retrieval.top_k')!.value).toBe('7');
    const rows = await call(rt, 'getSettingsRows');
    expect(rows.find((r: { key: string }) => r.key === 'retrieval.top_k').value).toBe('7');
    const audit = records(rt, 'audit').filter((a) => a.event === 'setting' && a.row_key === 'retrieval.top_k');
    expect(audit.length).toBe(1);
    expect(JSON.parse(String(audit[0].payload_json))).toMatchObject({ from: '5', to: '7' });
    // JSON values may be given as objects; text stays text.
    await call(rt, 'updateSetting', { key: 'phase.target_seconds', value: { 1: 6, 2: 30, 3: 15, 4: 10, 5: 20, 6: 0 } });
    expect(JSON.parse(String(records(rt, 'settings').find((r) => r.key === 'phase.target_seconds')!.value))[1]).toBe(6);
    await call(rt, 'updateSetting', { key: 'embedding.model', value: HOSTILE });
    expect(records(rt, 'settings').find((r) => r.key === 'embedding.model')!.value).toBe(HOSTILE);
    // The same value again writes nothing.
    expect((await call(rt, 'updateSetting', { key: 'retrieval.top_k', value: '7' })).changed).toBe(false);
  });

  it('refuses an unknown key and a value of the wrong type or range, naming the key', async () => {
    const rt = await council();
    const bad: [string, unknown, RegExp][] = [
      ['no.such.key', '1', /unknown setting: no\.such\.key/],
      ['retrieval.top_k', 'many', /retrieval\.top_k: not a number \(type integer\)/],
      ['retrieval.top_k', '2.5', /retrieval\.top_k: not a whole number/],
      ['retrieval.top_k', -1, /retrieval\.top_k: must be 0 or more/],
      ['memory.enabled', 'perhaps', /memory\.enabled: not true or false/],
      ['phase.target_seconds', '[1,2]', /phase\.target_seconds: a JSON array where a JSON object belongs/],
      ['phase.target_seconds', '{', /phase\.target_seconds: not valid JSON/],
      ['locale', 'fr', /locale: must be one of ja, en/],
      // Written out, not read from EMBEDDING_PROVIDERS (which the dialog uses): an independent check of that list.
      ['embedding.provider', 'cohere', /embedding\.provider: must be one of offline, openai, gemini$/],
    ];
    for (const [key, value, why] of bad) await expect(call(rt, 'updateSetting', { key, value })).rejects.toThrow(why);
    expect(records(rt, 'audit').filter((a) => a.event === 'setting').length).toBe(0);
  });
});
