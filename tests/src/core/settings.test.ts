// Settings in-process: values parse for their types, a bad row falls back to its default and is recorded as a problem.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSetting, Settings } from '../../../src/core/settings.js';
import { errorToApi, matchPath, parseTokenList } from '../../../src/core/api/api.js';
import { ConfigError, NotFoundError, ValidationError } from '../../../src/core/errors.js';

describe('Settings', () => {
  it('keeps a plain value only while its stored text is unchanged, and gives each reader its own JSON', () => {
    const values: Record<string, string> = { 'queue.max_attempts': '5' };
    const s = new Settings(values);
    expect(s.number('queue.max_attempts')).toBe(5);
    values['queue.max_attempts'] = '7';
    expect(s.number('queue.max_attempts')).toBe(7);
    values['queue.max_attempts'] = 'x';
    expect(s.number('queue.max_attempts')).toBe(
      Number(DEFAULT_SETTINGS.find((d) => d.key === 'queue.max_attempts')?.value),
    );
    const allow = s.get('actions.allow_list');
    allow.push('CHANGED');
    expect(s.get('actions.allow_list')).not.toContain('CHANGED');
  });

  it('parses every default for its type and reports no problem for them', () => {
    const values = Object.fromEntries(DEFAULT_SETTINGS.map((d) => [d.key, d.value]));
    const s = new Settings(values);
    expect(s.problems()).toEqual([]);
    expect(s.number('queue.max_attempts')).toBe(3);
    expect(s.get('memory.enabled')).toBe(true);
    expect(s.get('actions.allow_list')).toContain('PRAISE_INCREASE');
  });

  it('falls back to the default for a value that does not parse, and records the key, value and error', () => {
    const s = new Settings({
      'queue.max_attempts': 'three',
      'limits.discussion_timeout_hours': '12',
      'memory.enabled': 'perhaps',
      'phase.max_seconds': '{"1": 30',
      'actions.allow_list': '{"a": 1}',
      'retrieval.top_k': '2.5',
    });
    // The council goes on with the defaults…
    expect(s.number('queue.max_attempts')).toBe(3);
    expect(s.get('memory.enabled')).toBe(true);
    expect(s.get('phase.max_seconds')['2']).toBe(300);
    expect(s.get('actions.allow_list')).toContain('SKILL_TRAINING');
    expect(s.number('retrieval.top_k')).toBe(5);
    // …while good rows are used as written.
    expect(s.number('limits.discussion_timeout_hours')).toBe(12);
    // …and every bad row is recorded, in the order of DEFAULT_SETTINGS.
    const problems = s.problems();
    expect(problems.map((p) => p.key)).toEqual([
      'phase.max_seconds',
      'queue.max_attempts',
      'memory.enabled',
      'retrieval.top_k',
      'actions.allow_list',
    ]);
    expect(problems[1]).toEqual({
      key: 'queue.max_attempts',
      type: 'integer',
      value: 'three',
      error: 'not a number',
      fallback: '3',
    });
    expect(problems.find((p) => p.key === 'memory.enabled')?.error).toBe('not true or false');
    expect(problems.find((p) => p.key === 'phase.max_seconds')?.error).toMatch(/^not valid JSON/);
    expect(problems.find((p) => p.key === 'actions.allow_list')?.error).toBe(
      'a JSON object where a JSON array belongs',
    );
    expect(problems.find((p) => p.key === 'retrieval.top_k')?.error).toBe('not a whole number');
  });

  it('clears a problem once the value is fixed', () => {
    expect(new Settings({ 'queue.max_attempts': '' }).problems().length).toBe(1);
    expect(new Settings({ 'queue.max_attempts': '5' }).problems()).toEqual([]);
  });

  it('reads booleans strictly, in the spellings a sheet produces', () => {
    for (const t of ['true', 'TRUE', '1', 'yes']) expect(parseSetting('boolean', t)).toBe(true);
    for (const f of ['false', 'FALSE', '0', 'no']) expect(parseSetting('boolean', f)).toBe(false);
    expect(() => parseSetting('boolean', 'ture')).toThrow('not true or false');
  });
});

describe('the web API envelope', () => {
  it('matches path patterns with {params}', () => {
    expect(matchPath('/status', '/status/')).toEqual({});
    expect(matchPath('/tasks/{id}/result', '/tasks/DISC-1/result')).toEqual({ id: 'DISC-1' });
    expect(matchPath('/tasks/{id}', '/tasks/')).toBeNull();
    expect(matchPath('/tasks/{id}', '/tasks/a/b')).toBeNull();
  });

  it('maps the KaigiError hierarchy to statuses and codes', () => {
    expect(errorToApi(new ValidationError('bad'))).toEqual({
      error: { code: 'invalid_input', message: 'bad' },
      status: 400,
    });
    expect(errorToApi(new NotFoundError('gone')).status).toBe(404);
    expect(errorToApi(new ConfigError('broken', 'KAIGI_X'))).toEqual({
      error: { code: 'invalid_configuration', message: 'broken', details: { key: 'KAIGI_X' } },
      status: 500,
    });
    expect(errorToApi(new Error('boom'))).toEqual({
      error: { code: 'internal', message: 'Internal error: boom' },
      status: 500,
    });
  });

  it('reads the token list or names the property without quoting it', () => {
    const hash = 'a'.repeat(64);
    expect(parseTokenList(null, 'P')).toEqual([]);
    expect(parseTokenList(JSON.stringify([{ hash, role: 'viewer', name: 'v' }]), 'P')).toEqual([
      { hash, role: 'viewer', name: 'v' },
    ]);
    for (const raw of ['{secret-ish', JSON.stringify({ hash }), JSON.stringify([{ hash, role: 'root', name: 'x' }])]) {
      let err: unknown;
      try {
        parseTokenList(raw, 'KAIGI_API_TOKENS');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).key).toBe('KAIGI_API_TOKENS');
      expect((err as Error).message).toMatch(/KAIGI_API_TOKENS/);
      expect((err as Error).message).not.toContain('secret');
      expect((err as Error).message).not.toContain(hash);
    }
  });
});
