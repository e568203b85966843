// The saved workbook opens on the Dashboard: the runtime writes the spreadsheet's active sheet as the file's active tab,
// setup makes the Dashboard active and drops the new spreadsheet's empty Sheet1, and LibreOffice Calc agrees.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { XlsxPackage } from '../../../runtime/host/xlsx-zip.js';
import { council } from '../../council-helpers.js';

// The tabs of a saved file in order, and the name of the one it opens on.
function opensOn(file: string): { tabs: string[]; active: string } {
  const book = new XlsxPackage(fs.readFileSync(file), file).text('xl/workbook.xml');
  const tabs = [...book.matchAll(/<sheet [^>]*name="([^"]+)"/g)].map((m) => m[1]);
  const active = Number(/activeTab="(\d+)"/.exec(book)?.[1] ?? 0);
  return { tabs, active: tabs[active] };
}

function findSoffice(): string | null {
  for (const d of (process.env.PATH ?? '').split(path.delimiter)) {
    const f = path.join(d, 'soffice');
    if (d && fs.existsSync(f)) return f;
  }
  return null;
}
const soffice = findSoffice();

describe('a saved workbook', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-opens-on-'));

  it('opens on the Dashboard, in the file and in LibreOffice Calc', async () => {
    const rt = await council();
    const file = path.join(dir, 'k.xlsx');
    try {
      await rt.save(file);
    } finally {
      await rt.close();
    }
    const saved = opensOn(file);
    expect(saved.active).toBe('Dashboard');
    expect(saved.tabs).not.toContain('Sheet1');
    expect(saved.tabs[0]).toBe('Discussion Log');
    if (!soffice && process.env.KAIGI_SKIP_LIBREOFFICE === '1') return;
    expect(soffice, 'LibreOffice (soffice) is not installed: install libreoffice-calc-nogui').not.toBeNull();
    // LibreOffice opens the file and saves it again: the tab it opened on is the one its copy marks active.
    const out = path.join(dir, 'lo');
    const r = spawnSync(
      soffice!,
      [
        `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
        '--headless',
        '--convert-to',
        'xlsx',
        '--outdir',
        out,
        file,
      ],
      { encoding: 'utf8', timeout: 180_000 },
    );
    expect(r.error, `soffice did not run: ${r.error?.message}`).toBeUndefined();
    expect(opensOn(path.join(out, 'k.xlsx')).active).toBe('Dashboard');
  }, 240_000);
});
