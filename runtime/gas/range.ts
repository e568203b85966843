// Range and TextFinder: every read or write of cells is one call to the host.
import { toA1 } from '../host/a1.js';
import { call, GasError } from './bridge.js';
import { DataValidation } from './data-validation.js';
import { Protection } from './protection.js';
import { intArguments } from './signature.js';
import type { ProtectionWire, SheetArgs } from '../service-calls.js';

// What a range needs of its sheet (Sheet, sheet.ts, is one): how calls address it and how a protection is tagged.
// A range is typed by the sheet it carries, so getSheet() gives back a Sheet while sheet.ts, which makes ranges,
// stays the only one of the two modules that imports the other.
export interface RangeSheet {
  target(): SheetArgs;
  own(w: ProtectionWire): ProtectionWire;
}

export class TextFinder<S extends RangeSheet = RangeSheet> {
  private opts = { matchCase: false, matchEntireCell: false, useRegularExpression: false, matchFormulaText: false };
  private cursor = -1;
  private hits: { row: number; col: number }[] | null = null;
  constructor(
    private readonly range: Range<S>,
    private readonly text: string,
  ) {}
  matchCase(b: boolean) {
    this.opts.matchCase = b;
    this.hits = null;
    return this;
  }
  matchEntireCell(b: boolean) {
    this.opts.matchEntireCell = b;
    this.hits = null;
    return this;
  }
  useRegularExpression(b: boolean) {
    this.opts.useRegularExpression = b;
    this.hits = null;
    return this;
  }
  matchFormulaText(b: boolean) {
    this.opts.matchFormulaText = b;
    this.hits = null;
    return this;
  }
  ignoreDiacritics(_b: boolean) {
    return this;
  }
  private search() {
    if (!this.hits) {
      const r = this.range;
      this.hits = call('rg.find', { ...r.coords(), opts: { text: this.text, ...this.opts } });
      this.cursor = -1;
    }
    return this.hits!;
  }
  findAll(): Range<S>[] {
    return this.search().map((h) => new Range(this.range.getSheet(), h.row, h.col, 1, 1));
  }
  findNext(): Range<S> | null {
    const hits = this.search();
    if (this.cursor + 1 >= hits.length) return null;
    const h = hits[++this.cursor];
    return new Range(this.range.getSheet(), h.row, h.col, 1, 1);
  }
  findPrevious(): Range<S> | null {
    const hits = this.search();
    if (this.cursor - 1 < 0) return null;
    const h = hits[--this.cursor];
    return new Range(this.range.getSheet(), h.row, h.col, 1, 1);
  }
  replaceAllWith(_t: string): number {
    throw new GasError('TextFinder.replaceAllWith is not used by Kaigi and not provided by the local runtime.');
  }
}

function grid<T>(nr: number, nc: number, v: T): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < nr; i++) {
    const row: T[] = [];
    for (let j = 0; j < nc; j++) row.push(v);
    out.push(row);
  }
  return out;
}

export class Range<S extends RangeSheet = RangeSheet> {
  constructor(
    private readonly sheet: S,
    private readonly row: number,
    private readonly col: number,
    private readonly nr: number,
    private readonly nc: number,
  ) {}
  coords() {
    return { ...this.sheet.target(), r: this.row, c: this.col, nr: this.nr, nc: this.nc };
  }
  getSheet(): S {
    return this.sheet;
  }
  getRow(): number {
    return this.row;
  }
  getRowIndex(): number {
    return this.row;
  }
  getColumn(): number {
    return this.col;
  }
  getLastRow(): number {
    return this.row + this.nr - 1;
  }
  getLastColumn(): number {
    return this.col + this.nc - 1;
  }
  getNumRows(): number {
    return this.nr;
  }
  getNumColumns(): number {
    return this.nc;
  }
  getHeight(): number {
    return this.nr;
  }
  getWidth(): number {
    return this.nc;
  }
  getA1Notation(): string {
    return toA1(this.row, this.col, this.nr, this.nc);
  }
  getCell(r: number, c: number): Range<S> {
    intArguments('SpreadsheetApp.Range.getCell', Array.from(arguments), [2]);
    if (r < 1 || c < 1 || r > this.nr || c > this.nc) throw new GasError('Cell reference out of range');
    return new Range(this.sheet, this.row + r - 1, this.col + c - 1, 1, 1);
  }
  offset(dr: number, dc: number, nr = this.nr, nc = this.nc): Range<S> {
    intArguments('SpreadsheetApp.Range.offset', Array.from(arguments), [2, 3, 4]);
    return new Range(this.sheet, this.row + dr, this.col + dc, nr, nc);
  }
  getValues(): unknown[][] {
    return call('rg.getValues', this.coords());
  }
  getValue(): unknown {
    return call('rg.getValues', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  getDisplayValues(): string[][] {
    return call('rg.getDisplayValues', this.coords());
  }
  getDisplayValue(): string {
    return call('rg.getDisplayValues', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  getFormulas(): string[][] {
    return call('rg.getFormulas', this.coords());
  }
  getFormula(): string {
    return call('rg.getFormulas', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  setValues(values: unknown[][]): Range<S> {
    call('rg.setValues', { ...this.coords(), values });
    return this;
  }
  setValue(value: unknown): Range<S> {
    // setValue on a multi-cell range writes the value into every cell.
    call('rg.setValues', { ...this.coords(), values: grid(this.nr, this.nc, value) });
    return this;
  }
  setFormula(f: string): Range<S> {
    call('rg.setFormulas', { ...this.coords(), values: grid(this.nr, this.nc, f) });
    return this;
  }
  setFormulas(fs: string[][]): Range<S> {
    call('rg.setFormulas', { ...this.coords(), values: fs });
    return this;
  }
  getNumberFormats(): string[][] {
    return call('rg.getNumberFormats', this.coords());
  }
  getNumberFormat(): string {
    return call('rg.getNumberFormats', { ...this.coords(), nr: 1, nc: 1 })[0][0];
  }
  setNumberFormat(f: string): Range<S> {
    call('rg.setNumberFormats', { ...this.coords(), formats: grid(this.nr, this.nc, String(f)) });
    return this;
  }
  setNumberFormats(fs: string[][]): Range<S> {
    call('rg.setNumberFormats', { ...this.coords(), formats: fs });
    return this;
  }
  setDataValidation(rule: DataValidation | null): Range<S> {
    call('rg.setValidation', { ...this.coords(), rule: rule ? rule.wire() : null });
    return this;
  }
  getDataValidation(): DataValidation | null {
    const w = call('rg.getValidations', { ...this.coords(), nr: 1, nc: 1 })[0][0];
    return w ? new DataValidation(w) : null;
  }
  getDataValidations(): (DataValidation | null)[][] {
    return call('rg.getValidations', this.coords()).map((row) => row.map((w) => (w ? new DataValidation(w) : null)));
  }
  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean; validationsOnly?: boolean }): Range<S> {
    const o = options ?? {};
    const only = o.contentsOnly || o.formatOnly || o.validationsOnly;
    call('rg.clear', {
      ...this.coords(),
      opts: {
        contents: !only || !!o.contentsOnly,
        formats: !only || !!o.formatOnly,
        validations: !only || !!o.validationsOnly,
      },
    });
    return this;
  }
  clearContent(): Range<S> {
    call('rg.clear', { ...this.coords(), opts: { contents: true } });
    return this;
  }
  clearFormat(): Range<S> {
    call('rg.clear', { ...this.coords(), opts: { formats: true } });
    return this;
  }
  clearDataValidations(): Range<S> {
    call('rg.clear', { ...this.coords(), opts: { validations: true } });
    return this;
  }
  private style(key: string, value: unknown): Range<S> {
    call('rg.setStyle', { ...this.coords(), key, value });
    return this;
  }
  setFontWeight(w: string | null): Range<S> {
    return this.style('fontWeight', w);
  }
  setFontColor(c: string | null): Range<S> {
    return this.style('fontColor', c);
  }
  setFontFamily(f: string | null): Range<S> {
    return this.style('fontFamily', f);
  }
  setFontSize(s: number): Range<S> {
    return this.style('fontSize', s);
  }
  setBackground(c: string | null): Range<S> {
    return this.style('background', c);
  }
  setWrap(b: boolean): Range<S> {
    return this.style('wrap', b);
  }
  setWrapStrategy(s: string): Range<S> {
    return this.style('wrapStrategy', s);
  }
  setHorizontalAlignment(a: string | null): Range<S> {
    return this.style('horizontalAlignment', a);
  }
  setVerticalAlignment(a: string | null): Range<S> {
    return this.style('verticalAlignment', a);
  }
  setNote(n: string | null): Range<S> {
    return this.style('note', n);
  }
  protect(): Protection {
    return new Protection(this.sheet.own(call('rg.protect', this.coords())));
  }
  createTextFinder(text: string): TextFinder<S> {
    return new TextFinder(this, String(text));
  }
  activate(): Range<S> {
    return this;
  }
}
