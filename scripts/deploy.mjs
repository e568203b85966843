// One-command deploy over clasp: a new spreadsheet with its bound script (--create), an existing script (--script-id),
// a versioned web-app deployment (--web-app). .clasp.json is generated here, git-ignored, never edited by hand.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = process.cwd();
const CLASP_JSON = path.join(ROOT, '.clasp.json');
const ROOT_DIR = 'dist/gas';
// The deployment this script keeps updating: found again by its description, so each run moves the same /exec URL
// to the new version instead of adding a URL per run.
const WEB_APP = 'kaigi web app';
const USAGE =
  'usage: npm run deploy -- --create "TITLE" | --script-id ID  [--web-app]\n' +
  '       npm run deploy -- --web-app          (the script in .clasp.json)\n' +
  '       npm run deploy                       (push to the script in .clasp.json)';

class DeployError extends Error {}

function parseArgs(argv) {
  const out = { create: null, scriptId: null, webApp: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--create' || a === '--script-id') {
      const v = argv[++i];
      if (!v || v.startsWith('--')) throw new DeployError(`${a} needs a value.\n${USAGE}`);
      if (a === '--create') out.create = v;
      else out.scriptId = v;
    } else if (a === '--web-app') out.webApp = true;
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new DeployError(`unknown argument ${a}\n${USAGE}`);
  }
  if (out.create && out.scriptId) throw new DeployError(`--create and --script-id are one or the other.\n${USAGE}`);
  if (out.scriptId && !/^[A-Za-z0-9_-]{10,}$/.test(out.scriptId))
    throw new DeployError(`${out.scriptId} is not a script id (Apps Script → Project Settings → Script ID).`);
  return out;
}

// What clasp's failures mean for the person running this, in one line with the fix; anything else is quoted.
function explain(step, text) {
  if (/No credentials found|not logged in|invalid_grant|Could not read API credentials|unauthorized_client/i.test(text))
    return 'clasp is not logged in to Google: run `npx clasp login`, then run this again.';
  if (/Apps Script API|has not been used in project|usersettings/i.test(text))
    return 'The Apps Script API is off for this Google account: turn it on at https://script.google.com/home/usersettings, then run this again.';
  if (/Project file already exists/i.test(text))
    return '.clasp.json already names a script: deploy to it with `npm run deploy`, or delete .clasp.json to create another.';
  const first = text.split('\n').find((l) => l.trim()) ?? 'no message';
  return `clasp ${step} failed: ${first.trim()}`;
}

// Runs clasp (the one on PATH: npm run puts the project's own first) and returns its stdout; a failure is thrown
// as the one line explain() gives.
function clasp(args, step = args.find((a) => !a.startsWith('-')) ?? 'clasp') {
  const r = spawnSync('clasp', args, { cwd: ROOT, encoding: 'utf8' });
  if (r.error && r.error.code === 'ENOENT')
    throw new DeployError('clasp was not found: run `npm ci` (it is a devDependency), then run this again.');
  if (r.error) throw r.error;
  const text = `${r.stderr ?? ''}\n${r.stdout ?? ''}`;
  if (r.status !== 0) throw new DeployError(explain(step, text));
  return r.stdout ?? '';
}

// clasp --json prints one JSON value, possibly after a spinner's text.
function jsonOf(stdout, step) {
  const at = stdout.search(/[[{]/);
  try {
    return JSON.parse(stdout.slice(at));
  } catch {
    throw new DeployError(`clasp ${step} answered something other than JSON: ${stdout.trim().slice(0, 200)}`);
  }
}

function readClaspJson() {
  if (!fs.existsSync(CLASP_JSON)) return null;
  return JSON.parse(fs.readFileSync(CLASP_JSON, 'utf8'));
}

function writeClaspJson(settings) {
  fs.writeFileSync(CLASP_JSON, `${JSON.stringify({ ...settings, rootDir: ROOT_DIR }, null, 2)}\n`);
}

function requireBuild() {
  if (!fs.existsSync(path.join(ROOT, ROOT_DIR, 'Code.js')))
    throw new DeployError(`${ROOT_DIR}/Code.js is missing: run \`npm run build\` (npm run deploy does it first).`);
}

// A new spreadsheet with its bound script. clasp pulls the new project's files into its rootDir, so it is given an
// empty folder of its own: the build in dist/gas is never overwritten by the empty project's Code.js.
function create(title) {
  if (readClaspJson()) throw new DeployError(explain('create-script', 'Project file already exists.'));
  const scratch = fs.mkdtempSync(path.join(ROOT, '.clasp-create-'));
  let made;
  try {
    const rel = path.relative(ROOT, scratch);
    made = jsonOf(clasp(['--json', 'create-script', '--type', 'sheets', '--title', title, '--rootDir', rel]), 'create');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const written = readClaspJson() ?? {};
  const scriptId = made.scriptId ?? written.scriptId;
  const parentId = made.parentId ?? (Array.isArray(written.parentId) ? written.parentId[0] : written.parentId);
  if (!scriptId) throw new DeployError('clasp create-script named no script id.');
  writeClaspJson({ ...written, scriptId, ...(parentId ? { parentId: [parentId] } : {}) });
  return { scriptId, parentId };
}

function push() {
  // --force: the manifest (appsscript.json) is the build's, so clasp's "overwrite the manifest?" question is answered.
  clasp(['push', '--force'], 'push');
}

// A versioned web-app deployment: the one this script made before is moved to a new version (its /exec URL stays),
// else one is created.
function webApp() {
  const listed = jsonOf(clasp(['--json', 'list-deployments'], 'list-deployments'), 'list-deployments');
  const ours = (Array.isArray(listed) ? listed : []).find(
    (d) => d.versionNumber && String(d.description ?? '').startsWith(WEB_APP),
  );
  const description = `${WEB_APP} ${new Date().toISOString().slice(0, 10)}`;
  const args = ['--json', 'create-deployment', '--description', description];
  if (ours) args.push('--deploymentId', ours.deploymentId);
  const d = jsonOf(clasp(args, 'create-deployment'), 'create-deployment');
  return { url: `https://script.google.com/macros/s/${d.deploymentId}/exec`, version: d.versionNumber, again: !!ours };
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  requireBuild();
  if (o.create) {
    const { scriptId, parentId } = create(o.create);
    push();
    console.log(`Created the spreadsheet "${o.create}" with its script ${scriptId}, and pushed the build.`);
    if (parentId) console.log(`Spreadsheet: https://docs.google.com/spreadsheets/d/${parentId}/edit`);
    console.log('Next: open it, then Kaigi → Set up / repair (reload the page if the menu is not there yet).');
  } else if (o.scriptId) {
    writeClaspJson({ ...(readClaspJson() ?? {}), scriptId: o.scriptId });
    push();
    console.log(`Pushed the build to the script ${o.scriptId}: https://script.google.com/d/${o.scriptId}/edit`);
    console.log('Next: open the spreadsheet it is bound to, then Kaigi → Set up / repair.');
  } else {
    if (!readClaspJson())
      throw new DeployError(`There is no .clasp.json yet: deploy with --create "TITLE" or --script-id ID.\n${USAGE}`);
    push();
    console.log('Pushed the build to the script in .clasp.json.');
  }
  if (o.webApp) {
    const w = webApp();
    console.log(`Web app ${w.again ? 'moved to' : 'deployed at'} version ${w.version}: ${w.url}`);
    console.log(
      'Next: create an API client (Kaigi → API clients) and call it with its token, or put kaigi gateway in front.',
    );
  }
}

try {
  main();
} catch (e) {
  if (!(e instanceof DeployError)) throw e;
  console.error(e.message);
  process.exit(1);
}
