// The one-command deploy (scripts/deploy.mjs) against a stand-in clasp on PATH that records its arguments and writes
// what clasp would write: real Google cannot be reached from tests, so what is checked is what the script asks of
// clasp, the .clasp.json it leaves, and what it says, in a scratch project holding a build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const BUILD = '// Kaigi — the build\n';

function project() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-deploy-'));
  fs.mkdirSync(path.join(dir, 'dist', 'gas'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'dist', 'gas', 'Code.js'), BUILD);
  fs.copyFileSync(path.join(REPO, 'appsscript.json'), path.join(dir, 'dist', 'gas', 'appsscript.json'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const clasp = path.join(bin, 'clasp');
  fs.writeFileSync(
    clasp,
    `#!/usr/bin/env node\nimport ${JSON.stringify(path.join(REPO, 'tests/tools/stand-in-clasp.mjs'))};\n`,
  );
  fs.chmodSync(clasp, 0o755);
  const log = path.join(dir, 'clasp-calls.jsonl');
  const state = path.join(dir, 'clasp-state.json');
  const deploy = (args: string[], fail = '') => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'scripts/deploy.mjs'), ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${bin}${path.delimiter}${process.env.PATH}`,
        STAND_IN_CLASP_LOG: log,
        STAND_IN_CLASP_STATE: state,
        STAND_IN_CLASP_FAIL: fail,
      },
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const calls = (): string[][] =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  const claspJson = () => JSON.parse(fs.readFileSync(path.join(dir, '.clasp.json'), 'utf8'));
  const pushed = () => JSON.parse(fs.readFileSync(state, 'utf8')).pushed;
  return { dir, deploy, calls, claspJson, pushed };
}

describe('npm run deploy', () => {
  it('--create makes a spreadsheet with its bound script, writes .clasp.json on the build, pushes it and says what next', () => {
    const p = project();
    const r = p.deploy(['--create', 'Team Kaigi']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const [create, push] = p.calls();
    expect(create.slice(0, 6)).toEqual(['--json', 'create-script', '--type', 'sheets', '--title', 'Team Kaigi']);
    expect(push).toEqual(['push', '--force']);
    expect(p.calls()).toHaveLength(2);
    expect(p.claspJson()).toEqual({
      scriptId: '1StandInScriptId_abcdefghijklmnopqrstuvwxyz0123',
      rootDir: 'dist/gas',
      parentId: ['1StandInSheetId_abcdefghijklmnopqrstuvwxyz0123'],
    });
    // What clasp pulled went to a scratch folder, since removed: the build pushed is the build.
    expect(p.pushed()).toMatchObject({ rootDir: 'dist/gas', files: ['Code.js', 'appsscript.json'], code: BUILD });
    expect(fs.readdirSync(p.dir).filter((f) => f.startsWith('.clasp-create-'))).toEqual([]);
    expect(r.out).toContain(
      'https://docs.google.com/spreadsheets/d/1StandInSheetId_abcdefghijklmnopqrstuvwxyz0123/edit',
    );
    expect(r.out).toContain('Kaigi → Set up / repair');
    // A second --create would make another spreadsheet for the same folder: refused in one line.
    const again = p.deploy(['--create', 'Another']);
    expect(again.code).toBe(1);
    expect(again.err.trim().split('\n')).toHaveLength(1);
    expect(again.err).toContain('.clasp.json already names a script');
  });

  it('--web-app deploys a version and prints its /exec URL, then moves the same deployment on', () => {
    const p = project();
    expect(p.deploy(['--script-id', '1ExistingScript_abcdefghijklmnop']).code).toBe(0);
    expect(p.claspJson()).toEqual({ scriptId: '1ExistingScript_abcdefghijklmnop', rootDir: 'dist/gas' });
    const first = p.deploy(['--web-app']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/deployed at version 1: https:\/\/script\.google\.com\/macros\/s\/AKfyStandIn1\/exec/);
    const second = p.deploy(['--web-app']);
    expect(second.out).toMatch(/moved to version 2: https:\/\/script\.google\.com\/macros\/s\/AKfyStandIn1\/exec/);
    const deployments = p.calls().filter((c) => c.includes('create-deployment'));
    expect(deployments[0]).not.toContain('--deploymentId');
    expect(deployments[1]).toEqual(expect.arrayContaining(['--deploymentId', 'AKfyStandIn1']));
    // Each --web-app pushed the build first.
    expect(p.calls().filter((c) => c[0] === 'push')).toHaveLength(3);
  });

  it('says in one line, with the fix, when clasp is not logged in or the Apps Script API is off', () => {
    const p = project();
    const login = p.deploy(['--create', 'Team Kaigi'], 'login');
    expect(login.code).toBe(1);
    expect(login.err.trim()).toBe('clasp is not logged in to Google: run `npx clasp login`, then run this again.');
    const api = p.deploy(['--script-id', '1ExistingScript_abcdefghijklmnop'], 'api');
    expect(api.code).toBe(1);
    expect(api.err.trim().split('\n')).toHaveLength(1);
    expect(api.err).toContain('https://script.google.com/home/usersettings');
    const none = project().deploy([]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('--create "TITLE" or --script-id ID');
    expect(project().deploy(['--script-id', 'x']).err).toContain('is not a script id');
  });

  it('keeps .clasp.json out of git: generated, ignored, documented by an example file', () => {
    const tracked = spawnSync('git', ['ls-files', '.clasp.json', '.clasp.json.example'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(tracked.stdout.trim().split('\n')).toEqual(['.clasp.json.example']);
    expect(fs.readFileSync(path.join(REPO, '.gitignore'), 'utf8').split('\n')).toContain('.clasp.json');
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(pkg.scripts.deploy).toBe('npm run build && node scripts/deploy.mjs');
  });
});
