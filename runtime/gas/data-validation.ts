// Data validation rules and their builder: plain values a script builds and the host stores per cell.
import type { RuleWire } from '../service-calls.js';
import { enumOf, GasError } from './bridge.js';

export const DataValidationCriteria = enumOf([
  'VALUE_IN_LIST',
  'VALUE_IN_RANGE',
  'NUMBER_BETWEEN',
  'NUMBER_GREATER_THAN',
  'NUMBER_GREATER_THAN_OR_EQUAL_TO',
  'NUMBER_LESS_THAN',
  'NUMBER_EQUAL_TO',
  'CHECKBOX',
  'DATE_IS_VALID_DATE',
  'TEXT_IS_VALID_EMAIL',
  'CUSTOM_FORMULA',
]);

export class DataValidation {
  constructor(private readonly w: RuleWire) {}
  getCriteriaType(): string {
    return this.w.criteria;
  }
  getCriteriaValues(): unknown[] {
    return this.w.args.slice();
  }
  getAllowInvalid(): boolean {
    return this.w.allowInvalid;
  }
  getHelpText(): string {
    return this.w.helpText;
  }
  copy(): DataValidationBuilder {
    return new DataValidationBuilder(this.w);
  }
  wire(): RuleWire {
    return this.w;
  }
}

export class DataValidationBuilder {
  private w: RuleWire;
  constructor(from?: RuleWire) {
    this.w = from ? { ...from, args: from.args.slice() } : { criteria: '', args: [], allowInvalid: true, helpText: '' };
  }
  requireValueInList(values: string[], showDropdown = true) {
    this.w.criteria = 'VALUE_IN_LIST';
    this.w.args = [values.map(String), showDropdown];
    return this;
  }
  requireCheckbox() {
    this.w.criteria = 'CHECKBOX';
    this.w.args = [];
    return this;
  }
  requireNumberBetween(a: number, b: number) {
    this.w.criteria = 'NUMBER_BETWEEN';
    this.w.args = [a, b];
    return this;
  }
  requireNumberGreaterThanOrEqualTo(a: number) {
    this.w.criteria = 'NUMBER_GREATER_THAN_OR_EQUAL_TO';
    this.w.args = [a];
    return this;
  }
  requireDate() {
    this.w.criteria = 'DATE_IS_VALID_DATE';
    this.w.args = [];
    return this;
  }
  requireFormulaSatisfied(f: string) {
    this.w.criteria = 'CUSTOM_FORMULA';
    this.w.args = [f];
    return this;
  }
  setAllowInvalid(b: boolean) {
    this.w.allowInvalid = b;
    return this;
  }
  setHelpText(t: string) {
    this.w.helpText = t;
    return this;
  }
  build(): DataValidation {
    if (!this.w.criteria) throw new GasError('You must set a criteria type before building the data validation rule.');
    return new DataValidation(this.w);
  }
}
