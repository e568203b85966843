// What every kaigi command shares: the command shape, usage and input errors, output that survives a pipe, and
// opening a workbook in the local runtime with the API keys from the environment.
import fs from 'node:fs';
import path from 'node:path';
import { isLocalUrl, originOf, Runtime, type ExecutionResult, type RuntimeOptions } from '../runtime/runtime.js';
import { registry as vendors } from '../src/core/providers/vendor-registry.js';

// Bad usage (exit 2, with the usage), and bad input that the usage would not help with (exit 2, one line).
// A command line that cannot run as typed; `command` names the command it was for, so the error can point at its help.
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command = '',
  ) {
    super(message);
  }
}
export class InputError extends UsageError {}

// A server function's refusal of what a command passed it, said with the flags the user typed: `fields` maps each
// input field, as the function's messages name it (`discussion_id`, `urgency`), to its flag (`discussion`). A message
// that names no field is put after `otherwise` (`--tab Nope`), the flag and value it most likely concerns.
export function refusedAs(message: string, fields: Record<string, string>, otherwise = ''): InputError {
  let said = message;
  for (const [field, flag] of Object.entries(fields))
    said = said.replace(new RegExp(`(^|[\\s(])${field}(?![\\w-])`, 'g'), `$1--${flag}`);
  if (said !== message || !otherwise) return new InputError(said);
  // A message that names the value as "order DEC-…" says it with the flag instead: "--order DEC-… was not found".
  const [flag, ...rest] = otherwise.split(' ');
  const value = rest.join(' ');
  const at = value ? message.indexOf(` ${value}`) : -1;
  const word = flag.replace(/^--/, '');
  if (
    at >= word.length &&
    message.slice(at - word.length, at) === word &&
    !/\w/.test(message[at - word.length - 1] ?? '')
  )
    return new InputError(`${message.slice(0, at - word.length)}${flag} ${message.slice(at + 1)}`);
  return new InputError(`${otherwise}: ${message}`);
}

export type Opts = Record<string, string | boolean>;

export interface Args {
  // Words after the command that are not options (`kaigi token revoke NAME`).
  positionals: string[];
  opts: Opts;
}

// One command of the command line: kaigi.ts lists them, so adding one is a module and one line there.
export interface Command {
  name: string;
  // Options that take a value (`--workbook FILE`); any other option is refused (exit 2), so a misspelt one
  // (`--workbok`) never silently falls back to a default.
  options: readonly string[];
  // Options that take no value.
  flags?: readonly string[];
  // How many words may follow the command besides options (0 when absent).
  positionals?: number;
  // Options that may be given more than once; their values are joined with commas.
  repeatable?: readonly string[];
  // The exit status: 0 done, 1 ended otherwise, 2 bad usage or input.
  run(args: Args): Promise<number>;
}

// Output is written before the process exits, to a pipe too: a pipe takes 64 KB at a time, and process.exit()
// would drop the rest. Each write resolves once the stream has handed it on; the reader having gone (EPIPE,
// `| head`) is not an error of ours.
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) =>
    stream.write(text, (e) => (e && (e as NodeJS.ErrnoException).code !== 'EPIPE' ? reject(e) : resolve())),
  );
}
export const print = (text: string) => write(process.stdout, `${text}\n`);
export const warn = (text: string) => write(process.stderr, `${text}\n`);
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });

export function need(opts: Opts, key: string): string {
  const v = opts[key];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${key} is required`);
  return v;
}

export async function call(
  rt: Runtime,
  fn: string,
  args: unknown[] = [],
  kind: 'editor' | 'trigger' | 'server' = 'editor',
): Promise<any> {
  const r: ExecutionResult = await rt.run(fn, args, { kind });
  if (!r.ok) throw new Error(`${fn} failed: ${r.error?.message}`);
  return r.value;
}

// Environment variable → Script Property, one per registered vendor.
const ENV_KEYS = vendors.envKeys();

// Keys come from the environment only; they reach the script as properties that are never saved.
export function keysFromEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [env, prop] of Object.entries(ENV_KEYS)) if (process.env[env]) out[prop] = String(process.env[env]);
  return out;
}

// The model choice `kaigi run --provider` keeps with the workbook's project state (no secret in it).
export const PROVIDER_OVERRIDE = 'KAIGI_PROVIDER_OVERRIDE';

// UrlFetchApp cannot reach this machine or a private network from Google's servers, and neither can the runtime,
// except for the one local model server the user named (`--base-url`); said once, since a deployed Kaigi cannot
// reach it. The origins to allow: none, or that server's.
export async function allowLocalModel(baseUrl: string): Promise<string[]> {
  const allow = baseUrl && (await isLocalUrl(baseUrl)) ? [originOf(baseUrl)] : [];
  if (allow.length)
    await warn(
      `kaigi: allowing UrlFetchApp to reach ${allow[0]} (local model server): a deployed Kaigi cannot reach it`,
    );
  return allow;
}

// The workbook can be written where it is named: its folder exists and is writable, and it is not a folder itself.
// Checked before anything runs, so a typo in the path does not cost a whole discussion and end in a raw ENOENT.
export function writableWorkbook(file: string): void {
  const dir = path.dirname(file);
  let folder: fs.Stats;
  try {
    folder = fs.statSync(dir);
  } catch {
    throw new InputError(`--workbook ${file}: cannot write the workbook: the folder ${dir} does not exist`);
  }
  if (!folder.isDirectory())
    throw new InputError(`--workbook ${file}: cannot write the workbook: ${dir} is not a folder`);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new InputError(`--workbook ${file}: cannot write the workbook: the folder ${dir} is not writable`);
  }
  if (fs.existsSync(file) && !fs.statSync(file).isFile())
    throw new InputError(`--workbook ${file}: cannot write the workbook: it is not a file`);
}

// Only `kaigi run` runs on the simulated clock the project saves, continuing its simulation (and moving it on to the
// review date with --until closed); every other command acts now, on real time, and leaves that clock's offset as
// it was saved (runtime/saved-clock.ts).
const REAL_TIME = { clock: 'real' } as const;

// A workbook, set up first when the file does not exist yet; on real time unless `more` asks for simulated time.
export async function openWorkbook(
  file: string,
  secrets: Record<string, string> = {},
  allowLocalFetch: string[] = [],
  more: RuntimeOptions = {},
): Promise<{ rt: Runtime; fresh: boolean }> {
  const fresh = !fs.existsSync(file);
  const rt = await Runtime.open(file, {
    ...REAL_TIME,
    ...more,
    echoLogs: process.env.KAIGI_DEBUG === '1',
    secrets,
    allowLocalFetch,
  });
  if (fresh) await call(rt, 'setup');
  return { rt, fresh };
}

// `kaigi serve` keeps the workbook in memory and saves it over whatever another process wrote meanwhile, so while
// it runs, a marker beside the workbook names its process and commands that would change the workbook refuse.
const serveMarker = (file: string) => `${file}.serving`;

function servingPid(file: string): number | null {
  let pid = 0;
  try {
    pid = Number(fs.readFileSync(serveMarker(file), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    // EPERM: the process exists, run by someone else. ESRCH: a marker left by a serve that was killed.
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export function refuseWhileServed(file: string): void {
  const pid = servingPid(file);
  if (pid !== null)
    throw new InputError(
      `kaigi serve (process ${pid}) is serving ${file}; stop it first, or its next save undoes this`,
    );
}

// Marks the workbook as served by this process; the function returned removes the mark.
export function markServed(file: string): () => void {
  refuseWhileServed(file);
  fs.writeFileSync(serveMarker(file), `${process.pid}\n`);
  return () => fs.rmSync(serveMarker(file), { force: true });
}

// A workbook that must exist already (`--workbook` is required); `writes` when the command saves it.
async function existing(opts: Opts, writes = false): Promise<{ rt: Runtime; file: string }> {
  const file = path.resolve(need(opts, 'workbook'));
  if (!fs.existsSync(file)) throw new InputError(`--workbook ${file}: no workbook there`);
  if (writes) refuseWhileServed(file);
  // Beside a running `kaigi serve`, a reader leaves its files alone and waits for a save under way to end.
  const recover = servingPid(file) === null;
  return { rt: await Runtime.open(file, { ...REAL_TIME, secrets: keysFromEnv(), recover }), file };
}

// Runs `body` on an existing workbook and closes its runtime whatever happens; `writes` when it saves the workbook.
export async function withExisting(
  opts: Opts,
  body: (rt: Runtime, file: string) => Promise<number>,
  writes = false,
): Promise<number> {
  const { rt, file } = await existing(opts, writes);
  try {
    return await body(rt, file);
  } finally {
    await rt.close();
  }
}
