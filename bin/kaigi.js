#!/usr/bin/env node
// Runs the built command line; `npm run build` produces dist/node/cli.js.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'node', 'cli.js');
if (!fs.existsSync(cli)) {
  console.error('kaigi: not built yet — run `npm run build` first');
  process.exit(2);
}
await import(pathToFileURL(cli).href);
