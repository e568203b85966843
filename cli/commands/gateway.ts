// kaigi gateway: standard HTTP in front of the web app for clients that expect paths, Bearer tokens, real
// status codes and no redirects, with MCP Streamable HTTP at /mcp. Prints `listening on http://HOST:PORT`, never a
// token; stops on SIGINT/SIGTERM. The design: docs/gateway.md.
import { Gateway } from '../gateway/server.js';
import { parseAllowHosts, parseListen } from '../gateway/host-check.js';
import { execUrl } from '../gateway/upstream.js';
import { defaultSetting } from '../../src/core/settings.js';
import { KaigiError } from '../../src/core/errors.js';
import { type Command, InputError, need, type Opts, print, UsageError, warn } from '../shared.js';

// The web app's own default (Settings api.max_body_bytes); a deployment that raised it says so with --max-body-bytes.
const DEFAULT_MAX_BODY = Number(defaultSetting('api.max_body_bytes').value);

function maxBody(opts: Opts): number {
  if (opts['max-body-bytes'] === undefined) return DEFAULT_MAX_BODY;
  const n = Number(opts['max-body-bytes']);
  if (!Number.isInteger(n) || n < 1 || n > 50 * 1024 * 1024)
    throw new UsageError('--max-body-bytes must be a whole number from 1 to 52428800');
  return n;
}

// A whole number from `min` to `max`, or the option's default when it is not given.
function whole(opts: Opts, name: string, fallback: number, min: number, max: number): number {
  if (opts[name] === undefined) return fallback;
  const n = Number(opts[name]);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

// How long the web app may take to answer: Apps Script's 6-minute execution, and the way back.
function timeoutMs(opts: Opts): number | undefined {
  if (opts.timeout === undefined) return undefined;
  const n = Number(opts.timeout);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new UsageError('--timeout must be seconds, from 0 to 3600');
  return Math.round(n * 1000);
}

async function gateway(opts: Opts): Promise<number> {
  let exec: URL;
  let listen: ReturnType<typeof parseListen>;
  let allowHost: ReturnType<typeof parseAllowHosts>;
  try {
    exec = execUrl(need(opts, 'url'));
    listen = parseListen(need(opts, 'listen'));
    allowHost = parseAllowHosts(typeof opts['allow-host'] === 'string' ? opts['allow-host'] : '');
  } catch (e) {
    if (e instanceof KaigiError) throw new UsageError(e.message);
    throw e;
  }
  const gw = new Gateway({
    exec,
    listen,
    allowHost,
    maxBodyBytes: maxBody(opts),
    timeoutMs: timeoutMs(opts),
    // Defaults: ten messages a batch, four calls in flight, a refused token refused here for a minute (docs/gateway.md).
    maxBatch: whole(opts, 'max-batch', 10, 1, 100),
    maxUpstream: whole(opts, 'max-upstream', 4, 1, 30),
    refusedTokenMs: whole(opts, 'refused-token-seconds', 60, 0, 86_400) * 1000,
    defaultToken: process.env.KAIGI_TOKEN || undefined,
    log: (text) => void warn(`kaigi gateway: ${text}`),
  });
  // Listened for before the address is printed, so a supervisor's signal right after it is not lost.
  const signal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  let url: string;
  try {
    url = await gw.start();
  } catch (e) {
    throw new InputError(`cannot listen on ${opts.listen}: ${(e as Error).message}`);
  }
  await print(`listening on ${url}`);
  await warn(`kaigi gateway: ${await signal}: stopping`);
  await gw.stop();
  return 0;
}

export const gatewayCommand: Command = {
  name: 'gateway',
  options: [
    'url',
    'listen',
    'allow-host',
    'max-body-bytes',
    'timeout',
    'max-batch',
    'max-upstream',
    'refused-token-seconds',
  ],
  run: ({ opts }) => gateway(opts),
};
