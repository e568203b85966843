// docs/api.md's MCP tool table is what tools/list gives an admin, so it is written from the routes registry as the
// built script serves it (KAIGI_UPDATE_DOCS=1 npx vitest run tests/src/app/mcp-docs.test.ts rewrites it).
import { describe, it } from 'vitest';
import { council } from '../../council-helpers.js';
import { cell, checkGenerated } from '../../docs-block.js';

const BEGIN = '<!-- mcp tools: generated from src/app/routes/registry.ts -->';
const END = '<!-- end of mcp tools -->';

interface ListedTool {
  name: string;
  description: string;
  _meta: { 'kaigi/roles': string[] };
}

describe('docs/api.md', () => {
  it('lists every MCP tool with its roles and description, as tools/list does', async () => {
    const rt = await council();
    const { token } = (await rt.callServer('createApiClient', { name: 'docs', role: 'admin' })) as { token: string };
    const reply = await rt.doPost(
      { path: '/mcp' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', token }),
    );
    const tools = (JSON.parse(reply.body) as { result: { tools: ListedTool[] } }).result.tools;
    const rows = tools.map((t) => `| \`${t.name}\` | ${t._meta['kaigi/roles'].join(', ')} | ${cell(t.description)} |`);
    checkGenerated(
      'docs/api.md',
      BEGIN,
      END,
      [BEGIN, '| tool | roles | does |', '|---|---|---|', ...rows, END].join('\n'),
    );
  });
});
