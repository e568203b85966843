// kaigi: the command line — runs the built Apps Script file in the local runtime on a workbook.
// This file parses arguments, finds the command in COMMANDS (commands/index.ts) and exits.
import { DEFAULT_TRIGGER_DELAYS, FormatError, FormatVersionError } from '../runtime/runtime.js';
import { ALL_ROLES } from '../src/core/api/api.js';
import { REPORT_STATUSES } from '../src/core/orders/order-status.js';
import { registry as vendors } from '../src/core/providers/vendor-registry.js';
import { COMMANDS } from './commands/index.js';
import { type Args, type Command, InputError, print, UsageError, warn } from './shared.js';

const USAGE = `usage:
  kaigi run [--demo] [--trigger FILE.json] [--workbook FILE.xlsx] [--provider ${['rules', ...vendors.names()].join('|')}]
            [--base-url URL] [--model NAME] [--until decided|closed|idle] [--locale ja|en] [--json] [--quiet]
  kaigi tick --workbook FILE.xlsx
  kaigi export --workbook FILE.xlsx --tab NAME [--format json|csv]
  kaigi verify-audit --workbook FILE.xlsx
  kaigi object --workbook FILE.xlsx --discussion ID --reason TEXT [--alternative TEXT] [--urgency LEVEL]
  kaigi resolve --workbook FILE.xlsx --discussion ID --action approve|return|reject [--guidance TEXT] [--order FILE.json]
  kaigi report --workbook FILE.xlsx (--order DEC-…-An | --discussion ID) --status ${REPORT_STATUSES.join('|')} [--report TEXT]
  kaigi serve [--workbook FILE.xlsx] [--demo] [--port P] [--host 127.0.0.1] [--after-max-ms N] [--locale ja|en]
              [--time-scale F] [--lock-order fifo|random[:SEED]]
  kaigi token create --workbook FILE.xlsx --role ROLE --name NAME
  kaigi token list --workbook FILE.xlsx [--json]
  kaigi token revoke --workbook FILE.xlsx --name NAME
  kaigi mcp --url EXEC_URL --token T
  kaigi gateway --url EXEC_URL --listen HOST:PORT [--allow-host NAME[,NAME…]] [--max-body-bytes N]
                [--timeout SECONDS] [--max-batch N] [--max-upstream N] [--refused-token-seconds S]
  kaigi queue --workbook FILE.xlsx [--type T] [--state queued|processing|done|failed|dead] [--json]
  kaigi kpi import --workbook FILE.xlsx [--replace] FILE.csv
  kaigi directive add --workbook FILE.xlsx --to AGENT|all --text TEXT [--ban ACTION]… [--prefer ACTION]…
                      [--member ID] [--priority low|normal|high|urgent]
  kaigi eval [--scenarios DIR] [--provider NAME] [--base-url URL] [--model NAME] [--json] [--min-pass R]
  kaigi help [COMMAND]            (or kaigi COMMAND --help): this usage, on stdout

  run:    --locale is the workbook's language (Settings locale): the agents' texts, the transcript and the Dashboard;
          a provider with no key is refused before anything runs (exit 2 naming its environment variable);
          each phase is said on stderr as it starts and ends (speakers, tokens so far, seconds), and with
          --until closed each day's review and the verdict; --quiet says none of it
  serve:  without --workbook, serves kaigi-demo.xlsx in the current folder (made if missing, with the demo team);
          --demo loads the demo team into a --workbook that has no team; http://HOST:PORT/ is an index of the
          preview pages, the API and MCP; --port 8080 by default (0 picks a free one); --after-max-ms N is how late
          one-shot (after) triggers may fire, in ms (default ${DEFAULT_TRIGGER_DELAYS.afterMaxMs}, Apps Script's
          pessimistic lateness); --locale is the language of a preview page (/sidebar, /dialog/NAME, /dashboard)
          whose URL names none (ja by default);
          --time-scale F (0 to 1, default 1) is the share of Apps Script's modelled time each service call takes, so
          the share of it each answer waits: less for a preview (or a test) that is not about Apps Script's pace
  token:  ROLE is ${ALL_ROLES.join(', ')}; the new token is printed once, on the last line
  kpi:    FILE.csv's first line names the KPI tab's columns (date, member_id, metric, value[, note]); the rows are
          recorded in one commit as POST /kpi records them, or none is (exit 2 naming the line and column);
          --replace overwrites a stored value that differs instead of refusing; prints {accepted, duplicates}
  directive: a directive as the sidebar gives one; --ban and --prefer (each repeatable) name allowed action types that
          code keeps out of, or weighs up in, the orders of the discussions it reaches (--member: only that member's);
          it stays active until a discussion applies it
  eval:   runs each judgment scenario (eval/scenarios/*.json by default) in a fresh workbook on the runtime's clock,
          rules unless --provider; --json prints {scenarios, passed, pass_rate, failures, ms}; exit 1 when the pass
          rate is below --min-pass, 2 naming the file and field of a bad scenario
  mcp:    EXEC_URL is the web app's …/exec URL (or http://HOST:PORT/exec of kaigi serve); the token may come from
          KAIGI_TOKEN in the environment instead, which other users cannot read the way they read a command line
  gateway: standard HTTP in front of the web app: REST by path with "Authorization: Bearer T" and real status
          codes, MCP Streamable HTTP at /mcp (a request without Authorization uses KAIGI_TOKEN, on a loopback
          --listen only); Host and Origin must name the listen address or an --allow-host (else 403);
          --max-body-bytes is the web app's api.max_body_bytes when raised from its default; --timeout (420 s by
          default) is how long the web app may take to answer before the client gets 504; --max-batch (10) is the
          most JSON-RPC messages one POST /mcp may hold (more: 400); --max-upstream (4) the most calls to the web
          app in flight, the others waiting their turn; a token the web app refused is refused here, unasked, for
          --refused-token-seconds (60)`;

// `kaigi --help`, `kaigi help [COMMAND]`, `kaigi COMMAND --help`: usage on stdout, exit 0.
class HelpRequest extends Error {
  constructor(readonly command?: string) {
    super('help');
  }
}

const isHelp = (a: string | undefined) => a === '--help' || a === '-h';

// The usage of one command (its lines of USAGE and its notes), or all of it.
function usageOf(command?: string): string {
  if (!command) return USAGE;
  const lines = USAGE.split('\n');
  const mine: string[] = ['usage:'];
  let inCommand = false;
  for (const line of lines.slice(1)) {
    if (/^ {2}kaigi /.test(line)) inCommand = line.startsWith(`  kaigi ${command} `) || line === `  kaigi ${command}`;
    else if (/^ {2}[a-z-]+: /.test(line)) inCommand = line.startsWith(`  ${command}: `);
    else if (!line.trim()) inCommand = false;
    if (inCommand) mine.push(line);
  }
  return mine.join('\n');
}

function parse(argv: string[]): { command: Command; args: Args } {
  const [name, ...rest] = argv;
  if (!name) throw new UsageError('');
  if (isHelp(name)) throw new HelpRequest();
  if (name === 'help') {
    if (rest[0] !== undefined && !COMMANDS.some((c) => c.name === rest[0]))
      throw new UsageError(`unknown command "${rest[0]}"`);
    throw new HelpRequest(rest[0]);
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"`);
  if (rest.some(isHelp)) throw new HelpRequest(command.name);
  const flags = new Set(command.flags ?? []);
  const options = new Set(command.options);
  const opts: Args['opts'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) {
      if (positionals.length >= (command.positionals ?? 0))
        throw new UsageError(`unexpected argument "${a}"`, command.name);
      positionals.push(a);
      continue;
    }
    const key = a.slice(2);
    if (flags.has(key)) opts[key] = true;
    else if (options.has(key)) {
      const v = rest[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`--${key} needs a value`, command.name);
      opts[key] = typeof opts[key] === 'string' && command.repeatable?.includes(key) ? `${opts[key]},${v}` : v;
    } else {
      const known = [...command.options, ...(command.flags ?? [])].map((o) => `--${o}`).join(', ');
      throw new UsageError(`unknown option ${a} for kaigi ${command.name} (it takes ${known})`, command.name);
    }
  }
  return { command, args: { positionals, opts } };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    if (!(e instanceof HelpRequest)) throw e;
    await print(usageOf(e.command));
    return 0;
  }
  try {
    return await parsed.command.run(parsed.args);
  } catch (e) {
    // A command's own usage error points at that command's help.
    if (e instanceof UsageError && !(e instanceof InputError) && !e.command)
      throw new UsageError(e.message, parsed.command.name);
    throw e;
  }
}

// Exits only once everything printed has been written; the runtime's workers are closed by then.
async function exit(code: number | Promise<number>): Promise<never> {
  process.exit(await code);
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (e) =>
    exit(
      // An unreadable workbook is bad input, not a broken audit.
      e instanceof InputError || e instanceof FormatError || e instanceof FormatVersionError
        ? warn(`kaigi: ${e.message.replace(/\s*\n\s*/g, ' ')}`).then(() => 2)
        : e instanceof UsageError
          ? // One line saying what was wrong, and where the usage is; the whole usage only when nothing was typed.
            warn(e.message ? `kaigi: ${e.message}\nsee \`kaigi help${e.command ? ` ${e.command}` : ''}\`` : USAGE).then(
              () => 2,
            )
          : warn(`kaigi: ${(e as Error).message}`).then(() => 1),
    ),
);
