// The command line's door: help on stdout with exit 0, and every input that would stop a run refused before anything
// runs (exit 2, one line): a misspelt option, a workbook in a missing folder, a provider with no key.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRoot } from '../../runtime/runtime.js';

const root = findRoot();
const kaigi = (args: string[], env: NodeJS.ProcessEnv = process.env, cwd = root) =>
  spawnSync(process.execPath, [path.join(root, 'bin', 'kaigi.js'), ...args], {
    encoding: 'utf8',
    cwd,
    env,
    timeout: 120_000,
  });

describe('kaigi usage and refusals', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-usage-'));

  it('prints usage on stdout and exits 0 for --help, help and COMMAND --help', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = kaigi(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^usage:/);
      expect(r.stdout).toMatch(/kaigi run /);
      expect(r.stdout).toMatch(/kaigi serve /);
      expect(r.stderr).toBe('');
    }
    for (const args of [
      ['run', '--help'],
      ['help', 'run'],
    ]) {
      const r = kaigi(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^usage:\n {2}kaigi run /);
      expect(r.stdout).not.toMatch(/kaigi serve /);
    }
    // Help wins over anything else on the line, even an option that would need a value.
    expect(kaigi(['export', '--tab', '--help']).status).toBe(0);
    expect(kaigi(['help', 'frobnicate']).status).toBe(2);
    // No command at all is bad usage.
    expect(kaigi([]).status).toBe(2);
  });

  it('refuses a misspelt option before anything runs, naming it and the options the command takes', () => {
    const r = kaigi(['run', '--demo', '--workbok', 'x.xlsx'], process.env, dir);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'kaigi: unknown option --workbok for kaigi run (it takes --workbook, --trigger, --provider, --base-url, --model, --until, --locale, --demo, --json, --quiet)',
    );
    // Nothing ran: neither the misspelt name nor the default workbook was written.
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(kaigi(['tick', '--workbook', path.join(dir, 'a.xlsx'), '--verbose']).status).toBe(2);
  });

  it('refuses a workbook in a folder that does not exist, before the discussion runs', () => {
    const book = path.join(dir, 'no-such-folder', 'k.xlsx');
    const r = kaigi(['run', '--demo', '--workbook', book]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      `kaigi: --workbook ${book}: cannot write the workbook: the folder ${path.dirname(book)} does not exist`,
    );
    expect(r.stdout).toBe('');
    const notFolder = path.join(dir, 'plain-file');
    fs.writeFileSync(notFolder, 'x');
    expect(kaigi(['run', '--demo', '--workbook', path.join(notFolder, 'k.xlsx')]).status).toBe(2);
  });

  it('refuses a provider that needs a key when none is set, naming the environment variable', () => {
    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    const book = path.join(dir, 'keyless.xlsx');
    const r = kaigi(['run', '--demo', '--provider', 'openai', '--workbook', book], env);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^kaigi: --provider openai needs an API key: set OPENAI_API_KEY/);
    expect(fs.existsSync(book)).toBe(false);
  });

  it('refuses a trigger file for a member not in Members, or with a misspelt key, with exit 2 and nothing saved', () => {
    const book = path.join(dir, 'door.xlsx');
    for (const [trigger, field] of [
      [{ type: 'kpi_decline', target_user_id: 'yamada' }, 'target_user_id'],
      [{ type: 'kpi_declne', target_user_id: 'tanaka' }, 'type'],
      [{ type: 'kpi_decline', target_user_id: 'tanaka', prority: 'CRITICAL' }, 'prority'],
    ] as const) {
      const file = path.join(dir, 'door.json');
      fs.writeFileSync(file, JSON.stringify(trigger));
      const r = kaigi(['run', '--demo', '--trigger', file, '--workbook', book]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(field);
      expect(fs.existsSync(book)).toBe(false);
    }
  });
});
