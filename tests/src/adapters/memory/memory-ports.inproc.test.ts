// The in-memory ports hold to what the Apps Script services do where the use cases rely on it: dates formatted in a
// zone (with its DST offset), a grid that refuses writes past its edge, a cache whose values expire, triggers listed
// with ScriptApp's event types.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryPorts } from '../../../../src/adapters/memory/memory-ports.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the in-memory ports', () => {
  it('formats dates in a zone as Utilities.formatDate does', () => {
    const { host } = memoryPorts();
    const summer = new Date(Date.UTC(2026, 6, 1, 3, 4, 5));
    const winter = new Date(Date.UTC(2026, 0, 15, 15, 0, 0));
    expect(host.formatDate(summer, 'America/New_York', "yyyy-MM-dd'T'HH:mm:ssXXX")).toBe('2026-06-30T23:04:05-04:00');
    expect(host.formatDate(winter, 'America/New_York', 'Z')).toBe('-0500');
    expect(host.formatDate(winter, 'Asia/Tokyo', 'yyyy-MM-dd HH:mm')).toBe('2026-01-16 00:00');
    expect(host.formatDate(winter, 'UTC', "yyyy-MM-dd'T'HH:mm:ssXXX")).toBe('2026-01-15T15:00:00Z');
    expect(() => host.formatDate(winter, 'UTC', 'EEE')).toThrow(/not supported/);
  });

  it('keeps a grid of cells as Sheets does', () => {
    const { spreadsheet } = memoryPorts();
    const sheet = spreadsheet.getSheetByName('KPI')!;
    expect(sheet.getLastRow()).toBe(1);
    expect(() => sheet.getRange(1, 1, 1, sheet.getMaxColumns() + 1)).toThrow(/past the grid/);
    expect(() => sheet.getRange(2, 1, 1, 2).setValues([[1]])).toThrow(/range is 1 by 2/);
    sheet.getRange(3, 2, 1, 2).setValues([[null, new Date(0)]]);
    const [row] = sheet.getRange(3, 1, 1, 3).getValues();
    expect(row[0]).toBe('');
    expect(row[1]).toBe('');
    expect((row[2] as Date).getTime()).toBe(0);
    expect(sheet.getLastRow()).toBe(3);
    sheet.insertRowsAfter(1, 2);
    expect(sheet.getLastRow()).toBe(5);
    expect(sheet.getRange(3, 1, 1, 1).getA1Notation()).toBe('A3');
    const header = String(sheet.getRange(1, 1).getValues()[0][0]);
    const find = (text: string) => sheet.getRange(1, 1, 5, 1).createTextFinder(text).matchEntireCell(true);
    expect(
      find(header.toUpperCase())
        .findAll()
        .map((r) => r.getRow()),
    ).toEqual([1]);
    expect(find(header.toUpperCase()).matchCase(true).findAll()).toEqual([]);
  });

  it('lets cache values expire and lists triggers with their event types', () => {
    vi.useFakeTimers({ now: 0, toFake: ['Date'] });
    const { cache, triggers } = memoryPorts();
    cache.put('k', 'v', 60);
    expect(cache.getAll(['k', 'x'])).toEqual({ k: 'v' });
    vi.setSystemTime(61_000);
    expect(cache.get('k')).toBeNull();
    triggers.create({ handler: 'tickSoon', kind: 'after', value: 1000 });
    triggers.create({ handler: 'onConfigEdit', kind: 'onEdit', value: 0 });
    expect(triggers.list().map((t) => [t.handler, t.eventType])).toEqual([
      ['tickSoon', 'CLOCK'],
      ['onConfigEdit', 'ON_EDIT'],
    ]);
    triggers.remove([triggers.list()[0].id]);
    expect(triggers.list().map((t) => t.handler)).toEqual(['onConfigEdit']);
  });
});
