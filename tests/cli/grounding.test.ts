// kaigi run --trigger about a metric the member has no data for: exit 2, one line naming the metric and the metrics
// that exist, and no discussion.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kaigi } from './serve-process.js';

describe('kaigi run --trigger on data the council does not have', () => {
  it('is refused at the door, naming the metric and the metrics with data', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-grounding-'));
    const trigger = path.join(dir, 'revenue.json');
    fs.writeFileSync(
      trigger,
      JSON.stringify({ type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'revenue_yen' } }),
    );
    const r = kaigi(['run', '--demo', '--trigger', trigger, '--workbook', path.join(dir, 'g.xlsx')]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/context\.metric: "revenue_yen" is not in the metric table/);
    expect(r.stderr).toMatch(
      /tanaka has data for: contacts, appointments, login_streak, praise_count_last_7d, overtime_hours/,
    );
    expect(r.stdout).toBe('');
  }, 60_000);
});
