// Who may do what: every server function, run as five people, against the role table in docs/access.md.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult, Runtime } from '../../../runtime/runtime.js';
import { ok, setSetting, START } from '../../council-helpers.js';
import { newRuntime, records } from '../../helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const ADMIN = 'lead@example.com';
const COORDINATOR = 'coord@example.com';
const EDITOR = 'editor@example.com';
// An editor outside the owner's domain: Apps Script hides the email. Listed as an admin, to show that a listing
// cannot lend a hidden email the role.
const HIDDEN = 'outsider@gmail.example';

type Person = 'owner' | 'listed admin' | 'coordinator' | 'plain editor' | 'editor with no email';
const PEOPLE: Person[] = ['owner', 'listed admin', 'coordinator', 'plain editor', 'editor with no email'];

// docs/access.md's table: function → allowed (✓) or refused (—) for each person, in PEOPLE's order.
function roleTable(): Map<string, boolean[]> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'access.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Who may do what'));
  const table = new Map<string, boolean[]>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) {
      if (table.size) break;
      continue;
    }
    const cells = line.split('|').map((c) => c.trim());
    const marks = cells.slice(2, 7).map((c) => {
      if (c !== '✓' && c !== '—') throw new Error(`docs/access.md role table: "${c}" is neither ✓ nor — in ${line}`);
      return c === '✓';
    });
    for (const fn of cells[1].split(',')) table.set(fn.trim().replace(/`/g, ''), marks);
  }
  return table;
}

// Arguments that make an allowed call stop early (a missing field, an unknown name) where the function takes any:
// only whether the role check let it through matters here.
const ARGS: Record<string, unknown[]> = {
  exportTab: ['settings'],
  getDiscussion: ['DISC-2026-01-01-999'],
  include: ['sidebar-css'],
  saveApiKey: ['no-such-vendor', ''],
  revokeApiClient: ['nobody'],
  cancelDirective: ['DIR-none'],
  createApiClient: [{ name: '', role: '' }],
  searchLearnings: [{ query: '' }],
  tickSoon: [{}],
  onConfigEdit: [{}],
  doGet: [{ parameter: {} }],
  doPost: [{ parameter: {}, postData: { contents: '{}', type: 'application/json' } }],
};
const NO_ARGS = new Set([
  'setup',
  'teardown',
  'handOverWorkers',
  'takeOverWorkers',
  'seedDemoData',
  'dailyReview',
  'dailyWatch',
  'tick',
  'runQueueNow',
  'onOpen',
  'verifyAudit',
  'refreshDashboard',
  'getSidebarData',
  'getStartOptions',
  'getApiKeyStatus',
  'listApiClients',
  'getSettingsRows',
  'listAgents',
  'listInbox',
  'listDirectives',
  'openSidebar',
  'showStartDialog',
  'showSettings',
  'showApiClients',
  'showHelp',
]);

function argsOf(fn: string): unknown[] {
  return ARGS[fn] ?? (NO_ARGS.has(fn) ? [] : [{}]);
}

function userOf(rt: Runtime, who: Person): string {
  return {
    owner: rt.owner,
    'listed admin': ADMIN,
    coordinator: COORDINATOR,
    'plain editor': EDITOR,
    'editor with no email': HIDDEN,
  }[who];
}

const refused = (r: ExecutionResult) => !r.ok && r.error?.name === 'ForbiddenError';

describe('who may do what', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = newRuntime({
      startAt: START,
      users: [
        { email: ADMIN, sameDomain: true },
        { email: COORDINATOR, sameDomain: true },
        { email: EDITOR, sameDomain: true },
        { email: HIDDEN },
      ],
    });
    ok(await rt.run('setup', [], { kind: 'menu' }));
    // Listed in another case than they sign in with: emails compare without case.
    await setSetting(rt, 'access.admins', JSON.stringify(['Lead@Example.com', HIDDEN]));
    await setSetting(rt, 'access.coordinators', JSON.stringify([COORDINATOR.toUpperCase()]));
  }, 60_000);

  it('runs every server function as each person and matches the table in docs/access.md, every refusal audited', async () => {
    const table = roleTable();
    const entries: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist/gas/entry-points.json'), 'utf8'));
    // A person can call every entry point but the private ones (google.script.run refuses a name ending in `_`).
    const callable = entries.filter((fn) => !fn.endsWith('_'));
    expect(
      callable.filter((fn) => !table.has(fn)),
      'server functions without a row in the table of docs/access.md',
    ).toEqual([]);
    expect(
      [...table.keys()].filter((fn) => callable.indexOf(fn) < 0),
      'rows for no server function',
    ).toEqual([]);
    const got: string[] = [];
    const want: string[] = [];
    let refusals = 0;
    for (const fn of callable) {
      for (const [i, who] of PEOPLE.entries()) {
        const r = await rt.run(fn, argsOf(fn), { kind: 'server', user: userOf(rt, who) });
        if (refused(r)) refusals++;
        got.push(`${fn} as ${who}: ${refused(r) ? 'refused' : 'allowed'}`);
        want.push(`${fn} as ${who}: ${table.get(fn)![i] ? 'allowed' : 'refused'}`);
      }
    }
    expect(got).toEqual(want);
    // Each refusal is an Audit row naming who was refused and what they asked; the chain still verifies.
    const audited = records(rt, 'audit').filter((a) => a.event === 'access_refused');
    expect(audited.length).toBe(refusals);
    expect(new Set(audited.map((a) => String(a.actor).split(' ')[0]))).toEqual(
      new Set([COORDINATOR, EDITOR, 'unknown']),
    );
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  }, 600_000);

  it("tells a refusal in the caller's language, naming the function and the role it needs", async () => {
    const ja = await rt.run('teardown', [], { kind: 'server', user: EDITOR });
    expect(ja.error?.message).toMatch(/^teardown には admin の権限が必要です（あなたの権限: editor）/);
    const en = await rt.run('createApiClient', [{ name: 'x', role: 'admin' }], {
      kind: 'server',
      user: EDITOR,
      locale: 'en_US',
    });
    expect(en.error?.message).toMatch(/^createApiClient needs the admin role \(yours: editor\)\. Ask /);
    // google.script.run hands the browser the same message (the sidebar shows it without the error's name).
    await expect(rt.callServer('getSettingsRows')).resolves.toBeInstanceOf(Array);
  });

  it('keeps the private agent objection out of reach of google.script.run', async () => {
    await expect(rt.callServer('fileAgentObjection_', 'analyst', {})).rejects.toThrow(/Script function not found/);
  });
});

describe('a spreadsheet with no owner (a shared drive)', () => {
  it('is owned by the account of its first setup; later, another account is not its admin', async () => {
    const rt = newRuntime({ startAt: START, sharedDrive: true, users: [{ email: EDITOR, sameDomain: true }] });
    ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(rt.scriptProperties.get('KAIGI_OWNER')).toBe(rt.owner);
    const r = await rt.run('setup', [], { kind: 'menu', user: EDITOR });
    expect(r.error?.name).toBe('ForbiddenError');
    ok(await rt.run('listApiClients', [], { kind: 'server' }));
  }, 60_000);
});
