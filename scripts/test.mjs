// npm test after the build: vitest, with the type-check and lint beside it, and the run fails when any of them fails.
// The checks only read the sources, and vitest leaves about a third of the 2-core machine idle while its tests wait
// on worker threads, child processes and the browser: run one after the other, they added about 35 s to every run.
// Arguments go to vitest (`npm test -- tests/cli`). The checks' output is held and printed after vitest's, whole.
import { spawn } from 'node:child_process';

// At the lowest CPU priority where `nice` exists (Linux, macOS): the checks take the cores the tests leave idle and do
// not slow the tests that start with them.
const NICE = process.platform === 'win32' ? [] : ['nice', '-n', '19'];
const CHECKS = ['typecheck', 'lint'].map((script) => [...NICE, 'npm', 'run', '--silent', script]);

// Runs a command to its end; `held` keeps its output for later instead of printing it as it comes.
function run(cmd, args, held) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (held) {
      child.stdout.on('data', (d) => held.push(d));
      child.stderr.on('data', (d) => held.push(d));
    }
    child.on('error', (e) => {
      held?.push(Buffer.from(`${cmd} ${args.join(' ')} did not start: ${e.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// The checks one after the other (the machine has two cores, and vitest needs most of them).
async function checks() {
  const results = [];
  for (const [cmd, ...args] of CHECKS) {
    const held = [];
    const started = Date.now();
    const code = await run(cmd, args, held);
    results.push({ name: `${cmd} ${args.join(' ')}`, code, held, seconds: (Date.now() - started) / 1000 });
  }
  return results;
}

const [vitest, checked] = await Promise.all([run('npx', ['vitest', 'run', ...process.argv.slice(2)]), checks()]);
let failed = vitest !== 0;
for (const c of checked) {
  const output = Buffer.concat(c.held).toString().trimEnd();
  process.stdout.write(`\n${c.name}: ${c.code === 0 ? 'passed' : `FAILED (exit ${c.code})`} in ${c.seconds} s\n`);
  if (output) process.stdout.write(`${output}\n`);
  if (c.code !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
