// Builds the Apps Script bundle (dist/gas) and the Node tools that run it locally (dist/node).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gasDir = path.join(root, 'dist', 'gas');
const nodeDir = path.join(root, 'dist', 'node');
const ENTRY = path.join(root, 'src', 'main.ts');
const GLOBAL = '__kaigi';

fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
fs.mkdirSync(gasDir, { recursive: true });
fs.mkdirSync(nodeDir, { recursive: true });

// zod re-exports its ~50 message locales as `z.locales` (and `z.core.locales`); `import { z }` keeps every one, about
// 385 KB that each execution would compile. Kaigi sets none (zod's schemas load English themselves): the namespace
// keeps `en` alone. bench's `bundle` part reports the bundle's size and load time.
const zodLocales = path.join(root, 'node_modules', 'zod', 'v4', 'locales');
const onlyEnglishZod = {
  name: 'only-english-zod',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'only-english-zod' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'only-english-zod' }, () => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: zodLocales,
    }));
  },
};

// The answers' JSON Schemas, made from zod here once (src/core/providers/answer-templates.ts) and defined into the
// bundle, so that no execution walks them with zod's toJSONSchema in its fresh context.
const templatesBuild = await build({
  stdin: {
    contents: "export { answerTemplates } from './src/core/providers/schema.ts';",
    resolveDir: root,
    sourcefile: 'answer-templates-entry.ts',
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  logLevel: 'warning',
});
const templatesFile = path.join(root, 'dist', 'answer-templates.mjs');
fs.writeFileSync(templatesFile, templatesBuild.outputFiles[0].text);
const { answerTemplates } = await import(pathToFileURL(templatesFile).href);
fs.rmSync(templatesFile);

// Apps Script's V8 is older than Node's: stay on ES2019 syntax so nothing newer reaches it.
const gasOptions = {
  plugins: [onlyEnglishZod],
  define: { KAIGI_ANSWER_TEMPLATES: JSON.stringify(answerTemplates()) },
  entryPoints: [ENTRY],
  bundle: true,
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2019',
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
};

// The entry's exports are the names Apps Script calls; read them from an ESM build's metafile.
const probe = await build({ ...gasOptions, format: 'esm', write: false, metafile: true, outfile: 'probe.js' });
// `__` names are the bundle's own hooks, which the wrappers call (src/main.ts), not functions Apps Script calls.
const exportsList = Object.values(probe.metafile.outputs)[0].exports.filter(
  (n) => n !== 'default' && !n.startsWith('__'),
);
if (exportsList.length === 0) throw new Error('src/main.ts exports nothing for Apps Script to call');

// Each wrapper first marks the execution's start (src/adapters/execution-start.ts), then calls the function.
const wrappers = exportsList
  .map((name) => `function ${name}() {\n  ${GLOBAL}.__enter();\n  return ${GLOBAL}.${name}.apply(this, arguments);\n}`)
  .join('\n');

await build({
  ...gasOptions,
  format: 'iife',
  globalName: GLOBAL,
  outfile: path.join(gasDir, 'Code.js'),
  banner: { js: '// Kaigi — built by scripts/build.mjs from src/. Do not edit; run `npm run build`.' },
  footer: { js: `// Entry points Apps Script calls by name.\n${wrappers}` },
});

const code = fs.readFileSync(path.join(gasDir, 'Code.js'), 'utf8');
if (/^\s*(import|export)\s/m.test(code))
  throw new Error('the Apps Script bundle must not contain import/export statements');
for (const name of exportsList) {
  if (!new RegExp(`^function ${name}\\(`, 'm').test(code))
    throw new Error(`entry point ${name} is not a top-level function`);
}

fs.copyFileSync(path.join(root, 'appsscript.json'), path.join(gasDir, 'appsscript.json'));
const htmlDir = path.join(root, 'src', 'html');
if (fs.existsSync(htmlDir)) {
  for (const f of fs.readdirSync(htmlDir))
    if (f.endsWith('.html')) fs.copyFileSync(path.join(htmlDir, f), path.join(gasDir, f));
}
fs.writeFileSync(path.join(gasDir, 'entry-points.json'), `${JSON.stringify(exportsList, null, 2)}\n`);

// The globals installed into each execution's V8 context: no Node APIs, only the bridge.
await build({
  entryPoints: [path.join(root, 'runtime', 'gas', 'install.ts')],
  bundle: true,
  platform: 'neutral',
  format: 'iife',
  globalName: '__gasGlobals',
  target: 'es2019',
  outfile: path.join(nodeDir, 'apps-script-globals.js'),
  logLevel: 'warning',
});

const nodeEntries = {
  worker: path.join(root, 'runtime', 'worker.ts'),
  cli: path.join(root, 'cli', 'kaigi.ts'),
  bench: path.join(root, 'bench', 'bench.ts'),
};
await build({
  entryPoints: Object.fromEntries(Object.entries(nodeEntries).filter(([, p]) => fs.existsSync(p))),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outdir: nodeDir,
  logLevel: 'warning',
});

console.log(
  `built dist/gas/Code.js (${(code.length / 1024).toFixed(0)} KB, entry points: ${exportsList.join(', ')}) and dist/node/`,
);
