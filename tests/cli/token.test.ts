// kaigi token create|list|revoke: the token is printed once, alone on the last line, and found nowhere else
// (not in the list, not in the saved workbook or its sidecar); bad input exits 2 with one line.
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kaigi } from './serve-process.js';

// Every text cell of the workbook, the sidecar and every other file of the project beside it.
async function everythingSaved(dir: string): Promise<string> {
  let all = '';
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    if (!f.endsWith('.xlsx')) {
      all += fs.readFileSync(file, 'utf8');
      continue;
    }
    const x = new ExcelJS.Workbook();
    await x.xlsx.readFile(file);
    x.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => (all += `${JSON.stringify(cell.value)}\n`))));
  }
  return all;
}

const oneLine = (r: ReturnType<typeof kaigi>) => {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  return r.stderr.trim();
};

describe('kaigi token', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-token-'));
  const book = path.join(dir, 'k.xlsx');
  let token = '';

  it('create prints the token once, alone on the last line of stdout', () => {
    const run = kaigi(['run', '--demo', '--workbook', book]);
    expect(run.status, run.stderr).toBe(0);
    const r = kaigi(['token', 'create', '--workbook', book, '--role', 'coordinator', '--name', 'crm']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe('');
    token = lines.pop()!;
    expect(token).toMatch(/^kaigi_[0-9a-f]{64}$/);
    expect(lines.join('\n')).not.toContain(token);
    expect(r.stderr).toMatch(/crm \(coordinator\).*shown once/);
    expect(r.stderr).not.toContain(token);
  });

  it('list shows name, role and creation time, never a token or its hash; nothing saved holds the token', async () => {
    kaigi(['token', 'create', '--workbook', book, '--role', 'viewer', '--name', 'dash.board']);
    const r = kaigi(['token', 'list', '--workbook', book]);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^NAME\s+ROLE\s+CREATED$/);
    expect(rows.slice(1).map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ['crm', 'coordinator'],
      ['dash.board', 'viewer'],
    ]);
    const json = JSON.parse(kaigi(['token', 'list', '--workbook', book, '--json']).stdout);
    expect(json.map((c: { name: string }) => c.name)).toEqual(['crm', 'dash.board']);
    for (const c of json) expect(Object.keys(c).sort()).toEqual(['created_at', 'name', 'role']);
    const hash = (await import('node:crypto')).createHash('sha256').update(token).digest('hex');
    // The hash lives in the Script Properties of the project (the sidecar), as Apps Script keeps it; the list never
    // shows it, and nothing anywhere holds the token itself.
    expect(r.stdout + JSON.stringify(json)).not.toContain(hash);
    const saved = await everythingSaved(dir);
    expect(saved).toContain('api_client_created');
    expect(saved).not.toContain(token);
    expect(saved).not.toContain(token.slice('kaigi_'.length));
  });

  it('the token opens the web app until it is revoked, by NAME or --name', async () => {
    const { Runtime } = await import('../../runtime/runtime.js');
    const status = async () => {
      const rt = await Runtime.open(book);
      try {
        return JSON.parse((await rt.doGet({ path: '/status', token })).body).status;
      } finally {
        await rt.close();
      }
    };
    expect(await status()).toBe(200);
    const r = kaigi(['token', 'revoke', 'crm', '--workbook', book]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('revoked crm');
    expect(await status()).toBe(401);
    expect(kaigi(['token', 'revoke', '--workbook', book, '--name', 'dash.board']).status).toBe(0);
    expect(kaigi(['token', 'list', '--workbook', book]).stdout.trim()).toBe('no API clients');
    expect(oneLine(kaigi(['token', 'revoke', '--workbook', book, '--name', 'crm']))).toMatch(/^kaigi: .*crm/);
  });

  it('a bad role or name, a name taken or no workbook exits 2 with one line', () => {
    const create = (...more: string[]) => kaigi(['token', 'create', '--workbook', book, ...more]);
    expect(oneLine(create('--role', 'root', '--name', 'x'))).toMatch(
      /^kaigi: .*role.*viewer, worker, coordinator, admin/,
    );
    expect(oneLine(create('--role', 'viewer', '--name', 'has space'))).toMatch(/^kaigi: A client name is/);
    expect(create('--role', 'admin', '--name', 'ops').status).toBe(0);
    expect(oneLine(create('--role', 'viewer', '--name', 'ops'))).toMatch(/^kaigi: .*ops exists already/);
    // A name that would read as someone else: an agent, Kaigi itself, or a client in another case.
    expect(oneLine(create('--role', 'admin', '--name', 'decider'))).toMatch(/^kaigi: decider is a council agent's id/);
    expect(oneLine(create('--role', 'admin', '--name', 'System'))).toMatch(/^kaigi: System is reserved/);
    expect(oneLine(create('--role', 'viewer', '--name', 'OPS'))).toMatch(/^kaigi: .*ops exists already.*only in case/);
    expect(
      oneLine(kaigi(['token', 'create', '--workbook', path.join(dir, 'none.xlsx'), '--role', 'admin', '--name', 'a'])),
    ).toMatch(/^kaigi: --workbook \S+none\.xlsx: no workbook there$/);
    expect(kaigi(['token', 'frob', '--workbook', book]).status).toBe(2);
    expect(kaigi(['token', 'create', '--workbook', book, '--name', 'y']).stderr).toMatch(/--role is required/);
    // Only the admin client made above is left: nothing refused was created.
    expect(JSON.parse(kaigi(['token', 'list', '--workbook', book, '--json']).stdout)).toEqual([
      expect.objectContaining({ name: 'ops', role: 'admin' }),
    ]);
  });
});
