// The workers (time and edit triggers) in-process, through the triggers port: one set, claimed by one account,
// installed once; another account installs none unless it takes them over; release removes them all.
import { describe, expect, it } from 'vitest';
import { releaseWorkers, takeOverWorkers } from '../../../src/app/surfaces/setup.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { kaigi } from './inproc.js';

describe('workers in-process', () => {
  it('installs each trigger once, hands them over, and releases them', () => {
    const k = kaigi();
    const ss = k.ports.spreadsheets.active()!;
    const first = takeOverWorkers(ss);
    expect(first.owner).toBe('owner@example.com');
    const installed = k.ports.triggers.list();
    expect(installed.length).toBe(first.triggersCreated);
    expect(installed.map((t) => t.handler)).toContain('tick');
    expect(installed.some((t) => t.eventType === 'ON_EDIT')).toBe(true);
    // Again: nothing to create, the claim is this account's.
    expect(takeOverWorkers(ss)).toMatchObject({
      triggersCreated: 0,
      triggersRemoved: 0,
      previousOwner: 'owner@example.com',
    });
    expect(k.ports.triggers.list()).toEqual(installed);
    // Another account takes them over: the claim names it.
    k.ports.host.effectiveEmail = 'other@example.com';
    expect(takeOverWorkers(ss)).toMatchObject({ owner: 'other@example.com', previousOwner: 'owner@example.com' });
    expect(JSON.parse(k.ports.properties.getProperty(PROPERTY_KEYS.workers)!).owner).toBe('other@example.com');
    const count = k.ports.triggers.installed.length;
    expect(releaseWorkers()).toEqual({ removed: count, released: true });
    expect(k.ports.triggers.list()).toEqual([]);
    expect(k.ports.properties.getProperty(PROPERTY_KEYS.workers)).toBeNull();
  });
});
