// A person's role from what Apps Script says of them, the names no API client may take, and inputs that name an actor.
import { describe, expect, it } from 'vitest';
import {
  allows,
  clientNameProblem,
  type Person,
  refuseActorFields,
  roleOf,
  sameEmail,
} from '../../../../src/core/api/access.js';

const OWNER = 'owner@example.com';
const LISTS = { admins: ['Lead@Example.com '], coordinators: ['coord@example.com'] };
const person = (p: Partial<Person>): Person => ({ active: '', effective: '', owner: OWNER, workersOwner: '', ...p });

describe('roleOf', () => {
  it('makes the owner admin, then the lists decide, compared without case; everyone else is an editor', () => {
    expect(roleOf(person({ active: 'OWNER@example.com', effective: 'OWNER@example.com' }), LISTS)).toBe('admin');
    expect(roleOf(person({ active: 'lead@example.com', effective: 'lead@example.com' }), LISTS)).toBe('admin');
    expect(roleOf(person({ active: 'Coord@example.com', effective: 'coord@example.com' }), LISTS)).toBe('coordinator');
    expect(roleOf(person({ active: 'someone@example.com', effective: 'someone@example.com' }), LISTS)).toBe('editor');
  });

  it('without an email, counts only executions that run as the owner as admin, listed or not', () => {
    expect(roleOf(person({ effective: OWNER }), LISTS)).toBe('admin');
    expect(roleOf(person({ effective: 'lead@example.com' }), LISTS)).toBe('editor');
    expect(roleOf(person({ effective: '' }), LISTS)).toBe('editor');
    // No known owner: nobody is admin by being the owner (and '' never equals '').
    expect(roleOf(person({ owner: '', effective: '' }), LISTS)).toBe('editor');
    expect(roleOf(person({ owner: '', active: '', effective: '' }), { admins: [''], coordinators: [] })).toBe('editor');
  });

  it('lets trigger-only work run for an admin or as the workers’ owner', () => {
    const trigger = person({ effective: 'lead@example.com', workersOwner: 'lead@example.com' });
    expect(allows('workers', roleOf(trigger, LISTS), trigger)).toBe(true);
    const editor = person({ active: 'x@example.com', effective: 'x@example.com', workersOwner: 'lead@example.com' });
    expect(allows('workers', 'editor', editor)).toBe(false);
    expect(allows('coordinator', 'admin', editor)).toBe(true);
    expect(allows('admin', 'coordinator', editor)).toBe(false);
    expect(sameEmail('', '')).toBe(false);
  });
});

describe('clientNameProblem', () => {
  const agents = ['analyst', 'decider', 'custom_agent'];
  it('refuses agent ids, reserved names and names differing only in case', () => {
    expect(clientNameProblem('analyst', agents, [])).toMatch(/council agent's id/);
    expect(clientNameProblem('Custom_Agent', agents, [])).toMatch(/council agent's id/);
    for (const name of ['system', 'Kaigi', 'HUMAN', 'buddy'])
      expect(clientNameProblem(name, agents, [])).toMatch(/reserved/);
    expect(clientNameProblem('crm', agents, ['crm'])).toBe('An API client named crm exists already.');
    expect(clientNameProblem('CRM', agents, ['crm'])).toMatch(/crm exists already; names may not differ only in case/);
    expect(clientNameProblem('crm-2', agents, ['crm'])).toBe('');
  });
});

describe('refuseActorFields', () => {
  it('refuses by, objector and any source but human; leaves other fields alone', () => {
    expect(() => refuseActorFields({ by: 'manager@example.com' }, 'reportOrder')).toThrow(
      /reportOrder does not take by/,
    );
    expect(() => refuseActorFields({ objector: 'analyst' }, 'fileObjection')).toThrow(/does not take objector/);
    expect(() => refuseActorFields({ source: 'agent' }, 'fileObjection')).toThrow(/does not take source/);
    expect(() => refuseActorFields({ source: 'human', by: undefined, kind: 'data_error' }, 'x')).not.toThrow();
    expect(() => refuseActorFields(null, 'x')).not.toThrow();
  });
});
