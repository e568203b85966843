// postinstall: keeps npm scripts on the Node the project was installed with, not the devDependency node@22's.
// node@22 is here only for the MCP conformance suite (it needs Node 22: tests/cli/gateway.test.ts runs it
// with node_modules/node/bin/node); its package links node_modules/.bin/node, which npm puts first on a script's PATH,
// so `npm test` would otherwise run everything on Node 22. Only that link is removed.
import fs from 'node:fs';

for (const link of ['node_modules/.bin/node', 'node_modules/.bin/node.cmd', 'node_modules/.bin/node.ps1']) {
  let target = '';
  try {
    target = fs.readlinkSync(link);
  } catch (e) {
    // No link (ENOENT), or a shim file rather than a link on Windows (EINVAL): read it as text below.
    if (e.code === 'ENOENT') continue;
    if (e.code !== 'EINVAL') throw e;
    target = fs.readFileSync(link, 'utf8');
  }
  if (/node[\\/]bin[\\/]node/.test(target)) fs.unlinkSync(link);
}
