// kaigi eval: the project's judgment scenarios pass on the rules provider, a bad scenario file is named by file and
// field (exit 2), and a pass rate below --min-pass exits 1 with each failure said.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kaigi } from './serve-process.js';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-eval-'));
const write = (d: string, name: string, content: unknown) =>
  fs.writeFileSync(path.join(d, name), typeof content === 'string' ? content : JSON.stringify(content));

describe('kaigi eval', () => {
  it("passes at least 95 % of the project's at least 40 scenarios, in both languages", () => {
    const r = kaigi(['eval', '--json', '--min-pass', '0.95']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.scenarios).toBeGreaterThanOrEqual(40);
    expect(report.pass_rate).toBeGreaterThanOrEqual(0.95);
    expect(report.failures).toEqual([]);
    const files = fs.readdirSync(path.join(process.cwd(), 'eval', 'scenarios'));
    const scenarios = files.map((f) => JSON.parse(fs.readFileSync(path.join('eval', 'scenarios', f), 'utf8')));
    expect(new Set(scenarios.map((s) => s.locale))).toEqual(new Set(['ja', 'en']));
    // At least five whose effect and forecast disagree, measured on `after` days.
    const disagree = scenarios.filter((s) => {
      const e = s.expect;
      const said = { worked: 'confirmed', no_effect: 'rejected', worse: 'rejected' } as Record<string, string>;
      return s.after && e.effect && e.forecast && said[e.effect] !== e.forecast;
    });
    expect(disagree.length).toBeGreaterThanOrEqual(5);
    // docs/judgment.md lists every scenario file, and no other.
    const listed = [...fs.readFileSync(path.join('docs', 'judgment.md'), 'utf8').matchAll(/\[`([\w-]+\.json)`\]/g)].map(
      (m) => m[1],
    );
    expect(listed).toEqual([...files].sort());
  }, 180_000);

  it('names the file and field of a bad scenario (exit 2)', () => {
    const d = dir();
    write(d, 'a.json', { name: 'x', trigger: { type: 'kpi_decline', target_user_id: 'tanaka' }, expect: {} });
    let r = kaigi(['eval', '--scenarios', d]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/a\.json: expect: must expect something/);
    write(d, 'a.json', {
      name: 'x',
      kpi: [{ date: '2026-01-01', member_id: 'tanaka', metric: 'contacts', value: 1 }],
      trigger: { type: 'kpi_decline', target_user_id: 'tanaka' },
      expect: { status: 'DECIDED' },
    });
    r = kaigi(['eval', '--scenarios', d]);
    expect(r.stderr).toMatch(/a\.json: kpi\.0\.date: must be D or D-n/);
    write(d, 'a.json', '{not json');
    expect(kaigi(['eval', '--scenarios', d]).stderr).toMatch(/a\.json: not JSON/);
    write(d, 'a.json', {
      name: 'x',
      trigger: { type: 'kpi_decline', target_user_id: 'tanaka' },
      expect: { status: 'DECIDED' },
      colour: 'red',
    });
    expect(kaigi(['eval', '--scenarios', d]).stderr).toMatch(/a\.json: \(root\) colour: /);
    expect(kaigi(['eval', '--scenarios', path.join(d, 'nowhere')]).status).toBe(2);
  }, 60_000);

  it('exits 1 below --min-pass and says what failed', () => {
    const d = dir();
    const base = { trigger: { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' } } };
    write(d, 'a.json', { ...base, name: 'right', expect: { status: 'DECIDED' } });
    write(d, 'b.json', { ...base, name: 'wrong on purpose', expect: { status: 'REFUSED' } });
    const r = kaigi(['eval', '--scenarios', d, '--json', '--min-pass', '0.9']);
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ scenarios: 2, passed: 1, pass_rate: 0.5 });
    expect(report.failures).toEqual([
      { name: 'wrong on purpose', file: 'b.json', expectation: 'status', want: 'REFUSED', got: 'DECIDED' },
    ]);
    const text = kaigi(['eval', '--scenarios', d]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/FAIL {2}wrong on purpose/);
    expect(text.stdout).toMatch(/1 of 2 scenarios passed \(pass rate 0\.5\)/);
  }, 120_000);
});
