// Every command's refusal of a bad value names the flag the user typed (never the internal field it fills): one
// line, exit 2, for each command and flag in the table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kaigi } from './serve-process.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-flags-'));
const book = path.join(dir, 'flags.xlsx');
const none = path.join(dir, 'none.xlsx');
let id = '';
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  const r = kaigi(['run', '--demo', '--workbook', book, '--json', '--quiet']);
  if (r.status !== 0) throw new Error(r.stderr);
  id = JSON.parse(r.stdout).discussion_id;
}, 120_000);

const gw = ['gateway', '--url', 'http://127.0.0.1:1/exec', '--listen', '127.0.0.1:0'];
// [the flag the message must name, the command line], the workbook and the discussion filled in when run.
const CASES: [string, () => string[]][] = [
  ['--until', () => ['run', '--demo', '--workbook', none, '--until', 'bogus']],
  ['--provider', () => ['run', '--demo', '--workbook', none, '--provider', 'bogus']],
  ['--base-url', () => ['run', '--demo', '--workbook', none, '--provider', 'openai-compatible']],
  ['--locale', () => ['run', '--demo', '--workbook', none, '--locale', 'xx']],
  ['--trigger', () => ['run', '--workbook', none, '--trigger', path.join(dir, 'no-trigger.json')]],
  ['--workbook', () => ['run', '--demo', '--workbook', path.join(dir, 'no-folder', 'x.xlsx')]],
  ['--workbook', () => ['tick', '--workbook', none]],
  ['--workbook', () => ['verify-audit', '--workbook', none]],
  ['--tab', () => ['export', '--workbook', book, '--tab', 'Nope']],
  ['--format', () => ['export', '--workbook', book, '--tab', 'KPI', '--format', 'xml']],
  ['--discussion', () => ['object', '--workbook', book, '--discussion', 'NOPE', '--reason', 'r']],
  ['--urgency', () => ['object', '--workbook', book, '--discussion', id, '--reason', 'r', '--urgency', 'SOON']],
  ['--action', () => ['resolve', '--workbook', book, '--discussion', id, '--action', 'nope']],
  ['--order', () => ['resolve', '--workbook', book, '--discussion', id, '--action', 'approve', '--order', none]],
  ['--status', () => ['report', '--workbook', book, '--discussion', id, '--status', 'BAD']],
  ['--order', () => ['report', '--workbook', book, '--order', 'NOPE', '--status', 'DONE']],
  ['--discussion', () => ['report', '--workbook', book, '--discussion', 'NOPE', '--status', 'DONE']],
  ['--port', () => ['serve', '--workbook', book, '--port', 'abc']],
  ['--after-max-ms', () => ['serve', '--workbook', book, '--after-max-ms', 'x']],
  ['--time-scale', () => ['serve', '--workbook', book, '--time-scale', '5']],
  ['--role', () => ['token', 'create', '--workbook', book, '--role', 'bogus', '--name', 'n']],
  ['--name', () => ['token', 'revoke', '--workbook', book, '--name', 'nobody']],
  ['--state', () => ['queue', '--workbook', book, '--state', 'bogus']],
  ['--to', () => ['directive', 'add', '--workbook', book, '--to', 'nobody', '--text', 't']],
  ['--ban', () => ['directive', 'add', '--workbook', book, '--text', 't', '--ban', 'NOT_AN_ACTION']],
  ['--prefer', () => ['directive', 'add', '--workbook', book, '--text', 't', '--prefer', 'NOT_AN_ACTION']],
  ['--priority', () => ['directive', 'add', '--workbook', book, '--text', 't', '--priority', 'x']],
  ['--min-pass', () => ['eval', '--min-pass', '2']],
  ['--provider', () => ['eval', '--provider', 'bogus']],
  ['--scenarios', () => ['eval', '--scenarios', path.join(dir, 'no-scenarios')]],
  ['--url', () => ['mcp', '--url', 'notaurl', '--token', 't']],
  ['--url', () => ['gateway', '--url', 'notaurl', '--listen', '127.0.0.1:0']],
  ['--listen', () => ['gateway', '--url', 'http://127.0.0.1:1/exec', '--listen', 'bad']],
  ['--max-body-bytes', () => [...gw, '--max-body-bytes', 'x']],
  ['--timeout', () => [...gw, '--timeout', 'x']],
  ['--max-batch', () => [...gw, '--max-batch', 'x']],
  ['--max-upstream', () => [...gw, '--max-upstream', 'x']],
  ['--refused-token-seconds', () => [...gw, '--refused-token-seconds', 'x']],
];

describe('a bad value is refused naming its flag', () => {
  const named = CASES.map(([flag, line]) => ({ flag, line, command: line().slice(0, 2).join(' ') }));
  it.each(named)('$flag in kaigi $command', ({ flag, line }) => {
    const args = line();
    const r = kaigi(args);
    expect(r.status, r.stderr).toBe(2);
    // One line saying what was wrong, naming the flag as typed (then, for a usage error, where the help is).
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^kaigi: /);
    expect(lines[0]).toMatch(new RegExp(`(^|[\\s(])${flag}(?![\\w-])`));
    expect(
      lines.slice(1).every((l) => /^see `kaigi help [a-z-]+`$/.test(l)),
      r.stderr,
    ).toBe(true);
    // Not the internal name of what it fills.
    expect(lines[0]).not.toMatch(/\b(discussion_id|order_id|target_agents|member_id)\b/);
    if (flag === '--urgency') expect(lines[0]).not.toMatch(/priority/);
    expect(r.stdout).toBe('');
    // Nothing written for a workbook that did not exist.
    expect(fs.existsSync(none)).toBe(false);
  });
});
