// Test helpers for the command line as a process: `kaigi …` to completion, and `kaigi serve` (or `kaigi gateway`)
// running in the background with its printed address, its output so far, and a way to wait for a line and to stop it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { findRoot } from '../../runtime/runtime.js';

export const root = findRoot();
export const KAIGI = path.join(root, 'bin', 'kaigi.js');

export const kaigi = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [KAIGI, ...args], {
    encoding: 'utf8',
    cwd: root,
    timeout: 120_000,
    env: { ...process.env, ...env },
  });

export interface Served {
  // `http://127.0.0.1:PORT`, as printed.
  url: string;
  proc: ChildProcess;
  out(): string;
  err(): string;
  // Resolves with the first stderr line that matches; rejects if the process ends first.
  waitForLog(re: RegExp): Promise<string>;
  // Sends the signal and resolves with the exit code.
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function serve(book: string, ...more: string[]): Promise<Served> {
  return listening(['serve', '--workbook', book, '--port', '0', ...more]);
}

// `kaigi serve` started in the folder `cwd` with only the options given (and --port 0), as `npx kaigi serve` there.
export function serveIn(cwd: string, ...more: string[]): Promise<Served> {
  return listening(['serve', '--port', '0', ...more], {}, cwd);
}

// `kaigi gateway` in front of EXEC_URL on a free loopback port; `env` adds to the environment (KAIGI_TOKEN).
export function gateway(execUrl: string, more: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  return listening(['gateway', '--url', execUrl, '--listen', '127.0.0.1:0', ...more], env);
}

function listening(args: string[], env: Record<string, string> = {}, cwd = root): Promise<Served> {
  const proc = spawn(process.execPath, [KAIGI, ...args], { cwd, env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const waiters: { re: RegExp; resolve: (line: string) => void }[] = [];
  const check = () => {
    for (const w of waiters.slice()) {
      const line = err.split('\n').find((l) => w.re.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  proc.stderr!.on('data', (d) => {
    err += d;
    check();
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m)
        resolve({
          url: m[1],
          proc,
          out: () => out,
          err: () => err,
          waitForLog: (re) =>
            Promise.race([
              new Promise<string>((ok) => {
                waiters.push({ re, resolve: ok });
                check();
              }),
              exited.then((code) => Promise.reject(new Error(`kaigi ${args[0]} exited (${code}) first:\n${err}`))),
            ]),
          stop: (signal = 'SIGTERM') => {
            if (proc.exitCode === null) proc.kill(signal);
            return exited;
          },
        });
    });
    exited.then((code) => reject(new Error(`kaigi ${args[0]} exited (${code}) before listening:\n${err}`)));
  });
}
