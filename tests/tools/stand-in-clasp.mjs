// A stand-in for clasp in the deploy script's tests (run as `clasp` from a PATH folder): records its arguments and
// writes what clasp would write (.clasp.json, the pulled files), from a state file; it never reaches Google.
import fs from 'node:fs';
import path from 'node:path';

const log = process.env.STAND_IN_CLASP_LOG;
const statePath = process.env.STAND_IN_CLASP_STATE;
const args = process.argv.slice(2);
fs.appendFileSync(log, `${JSON.stringify(args)}\n`);
const state = fs.existsSync(statePath)
  ? JSON.parse(fs.readFileSync(statePath, 'utf8'))
  : { deployments: [], version: 0 };
const save = () => fs.writeFileSync(statePath, JSON.stringify(state));
const json = args.includes('--json');
const rest = args.filter((a) => a !== '--json');
const opt = (name) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
const out = (v, text) => console.log(json ? JSON.stringify(v, null, 2) : text);

// What a person's machine may lack, as clasp 3.4 says it.
const fail = process.env.STAND_IN_CLASP_FAIL;
if (fail === 'login') {
  console.error('No credentials found.');
  process.exit(1);
}
if (fail === 'api') {
  console.error(
    'User has not enabled the Apps Script API. Enable it by visiting https://script.google.com/home/usersettings then retry.',
  );
  process.exit(1);
}

const claspJson = path.join(process.cwd(), '.clasp.json');
switch (rest[0]) {
  case 'create-script': {
    if (fs.existsSync(claspJson)) {
      console.error('Project file already exists.');
      process.exit(1);
    }
    const rootDir = opt('--rootDir') ?? '.';
    const scriptId = '1StandInScriptId_abcdefghijklmnopqrstuvwxyz0123';
    const parentId = '1StandInSheetId_abcdefghijklmnopqrstuvwxyz0123';
    // clasp pulls the new project's files into its rootDir and writes .clasp.json beside the command.
    fs.mkdirSync(rootDir, { recursive: true });
    fs.writeFileSync(path.join(rootDir, 'Code.js'), 'function myFunction() {}\n');
    fs.writeFileSync(path.join(rootDir, 'appsscript.json'), '{"timeZone":"America/New_York"}\n');
    fs.writeFileSync(claspJson, JSON.stringify({ scriptId, rootDir, parentId: [parentId] }));
    out({ scriptId, parentId, files: ['Code.js', 'appsscript.json'] }, `Created new script: ${scriptId}`);
    break;
  }
  case 'push': {
    const p = JSON.parse(fs.readFileSync(claspJson, 'utf8'));
    const files = fs.readdirSync(path.join(process.cwd(), p.rootDir)).sort();
    state.pushed = {
      scriptId: p.scriptId,
      rootDir: p.rootDir,
      files,
      code: fs.readFileSync(path.join(p.rootDir, 'Code.js'), 'utf8'),
    };
    save();
    out({ files }, `Pushed ${files.length} files.`);
    break;
  }
  case 'list-deployments':
    out(state.deployments, `Found ${state.deployments.length} deployments.`);
    break;
  case 'create-deployment': {
    state.version += 1;
    const id = opt('--deploymentId');
    const d = {
      deploymentId: id ?? `AKfyStandIn${state.deployments.length + 1}`,
      versionNumber: state.version,
      description: opt('--description') ?? '',
    };
    state.deployments = state.deployments.filter((x) => x.deploymentId !== d.deploymentId).concat([d]);
    save();
    out(d, `Deployed ${d.deploymentId} @${d.versionNumber}`);
    break;
  }
  default:
    console.error(`stand-in clasp: no ${rest[0]}`);
    process.exit(1);
}
