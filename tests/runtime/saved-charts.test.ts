// Embedded charts are part of the workbook: their specs survive rt.save() and Runtime.open(), so a restarted
// `kaigi serve` still draws them; a range on another sheet keeps naming that sheet.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Runtime } from '../../runtime/runtime.js';
import { gas, newRuntime } from '../helpers.js';

const READ = `
  const sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dashboard');
  return sh.getCharts().map((c) => ({
    id: c.getChartId(), type: c.getType(), title: c.getOptions().get('title'),
    ranges: c.getRanges().map((r) => r.getSheet().getName() + '!' + r.getA1Notation()),
  }));
`;

describe('saved charts', () => {
  it('keeps chart specs through save and open, twice', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-charts-')), 'c.xlsx');
    const rt = newRuntime();
    await gas(
      rt,
      `const ss = SpreadsheetApp.getActiveSpreadsheet();
       const data = ss.insertSheet('Data');
       data.getRange('A1:B3').setValues([['day', 'n'], ['a', 1], ['b', 2]]);
       const sh = ss.insertSheet('Dashboard');
       sh.getRange('A1:B2').setValues([['k', 'v'], ['x', 3]]);
       sh.insertChart(sh.newChart().asLineChart().addRange(data.getRange('A1:B3')).setOption('title', 'Per day')
         .setPosition(2, 3, 0, 0).build());
       sh.insertChart(sh.newChart().asPieChart().addRange(sh.getRange('A1:B2')).build());`,
    );
    // The typed builders' setters are recorded as options.
    await gas(
      rt,
      `const sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Dashboard');
       const c = sh.getCharts()[1];
       sh.updateChart(c.modify().asPieChart().setTitle('Share').setLegendPosition(Charts.Position.BOTTOM).setNumHeaders(1).build());`,
    );
    const before = await gas(rt, READ);
    expect(before).toEqual([
      { id: expect.any(Number), type: 'LINE', title: 'Per day', ranges: ['Data!A1:B3'] },
      { id: expect.any(Number), type: 'PIE', title: 'Share', ranges: ['Dashboard!A1:B2'] },
    ]);
    await rt.save(file);
    const again = await Runtime.open(file);
    try {
      expect(await gas(again, READ)).toEqual(before);
      expect(again.workbook.sheetByName('Dashboard')!.charts[0].position).toEqual({
        row: 2,
        col: 3,
        offsetX: 0,
        offsetY: 0,
      });
      expect(again.workbook.sheetByName('Dashboard')!.charts[1].options).toEqual({
        title: 'Share',
        'legend.position': 'bottom',
        numHeaders: 1,
      });
      await again.save(file);
    } finally {
      await again.close();
    }
    const third = await Runtime.open(file);
    try {
      expect(await gas(third, READ)).toEqual(before);
    } finally {
      await third.close();
    }
  });
});
