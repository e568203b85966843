// formatInZone and zoneLabel: a stored UTC instant shown as the spreadsheet's wall clock, the zone named, whatever
// zone the process itself runs in.
import { describe, expect, it } from 'vitest';
import { formatInZone, zoneLabel } from '../../../src/core/time-display.js';

// 02:27 UTC is 11:27 in Tokyo, 21:27 the evening before in New York (EST in January).
const AT = '2026-01-15T02:27:41.000Z';

describe('formatInZone', () => {
  it('shows the wall clock of the zone it is given, with its short name in the language', () => {
    expect(formatInZone(AT, 'Asia/Tokyo', 'ja')).toBe('2026-01-15 11:27 JST');
    expect(formatInZone(AT, 'Asia/Tokyo', 'en')).toBe('2026-01-15 11:27 GMT+9');
    expect(formatInZone(AT, 'America/New_York', 'en')).toBe('2026-01-14 21:27 EST');
    expect(formatInZone(AT, 'UTC', 'en')).toBe('2026-01-15 02:27 UTC');
  });

  it('takes a Date or epoch ms as well as an ISO string, and shapes the text as asked', () => {
    expect(formatInZone(new Date(AT), 'Asia/Tokyo', 'ja', { seconds: true })).toBe('2026-01-15 11:27:41 JST');
    expect(formatInZone(Date.parse(AT), 'Asia/Tokyo', 'en', { date: false, zone: false })).toBe('11:27');
    // Midnight is 00, never 24.
    expect(formatInZone('2026-01-14T15:00:00Z', 'Asia/Tokyo', 'ja', { zone: false })).toBe('2026-01-15 00:00');
  });

  it('follows daylight saving', () => {
    expect(formatInZone('2026-07-15T02:27:00Z', 'America/New_York', 'en')).toBe('2026-07-14 22:27 EDT');
  });

  it('shows a value that names no instant as it is, and a zone it does not know as UTC, named UTC', () => {
    expect(formatInZone('', 'Asia/Tokyo', 'en')).toBe('');
    expect(formatInZone(undefined, 'Asia/Tokyo', 'en')).toBe('');
    expect(formatInZone('soon', 'Asia/Tokyo', 'en')).toBe('soon');
    expect(formatInZone(AT, 'Mars/Olympus', 'en')).toBe('2026-01-15 02:27 UTC');
  });
});

describe('zoneLabel', () => {
  it('names the zone and its short name at the instant', () => {
    expect(zoneLabel('Asia/Tokyo', 'ja')).toBe('Asia/Tokyo (JST)');
    expect(zoneLabel('Asia/Tokyo', 'en')).toBe('Asia/Tokyo (GMT+9)');
    expect(zoneLabel('America/New_York', 'en', Date.parse('2026-07-01T00:00:00Z'))).toBe('America/New_York (EDT)');
    expect(zoneLabel('UTC', 'en')).toBe('UTC');
  });
});
