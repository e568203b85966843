// Protection of a sheet or a range: every change is written through to the host at once.
import type { ProtectionPatch, ProtectionWire } from '../service-calls.js';
import { call, enumOf } from './bridge.js';

export const ProtectionType = enumOf(['RANGE', 'SHEET']);

export class Protection {
  constructor(private w: ProtectionWire) {}
  // The sheet it is on, and that sheet's spreadsheet when it is not the bound one.
  private where(): { sheet: number; ss?: string } {
    return this.w.ss === undefined ? { sheet: this.w.sheet } : { sheet: this.w.sheet, ss: this.w.ss };
  }
  private update(patch: ProtectionPatch): Protection {
    const ss = this.w.ss;
    const w = call('pr.update', { ...this.where(), id: this.w.id, patch });
    this.w = ss === undefined ? w : { ...w, ss };
    return this;
  }
  getProtectionType(): string {
    return this.w.type;
  }
  getDescription(): string {
    return this.w.description;
  }
  setDescription(d: string): Protection {
    return this.update({ description: String(d) });
  }
  isWarningOnly(): boolean {
    return this.w.warningOnly;
  }
  setWarningOnly(b: boolean): Protection {
    return this.update({ warningOnly: !!b });
  }
  getEditors() {
    return this.w.editors.map((e) => ({ getEmail: () => e }));
  }
  addEditor(e: string): Protection {
    return this.update({ editors: this.w.editors.concat([String(e)]) });
  }
  addEditors(es: string[]): Protection {
    return this.update({ editors: this.w.editors.concat(es.map(String)) });
  }
  removeEditor(e: string): Protection {
    return this.update({ editors: this.w.editors.filter((x) => x !== String(e)) });
  }
  removeEditors(es: unknown[]): Protection {
    const drop = es.map((x) => (typeof x === 'string' ? x : (x as { getEmail(): string }).getEmail()));
    return this.update({ editors: this.w.editors.filter((x) => drop.indexOf(x) < 0) });
  }
  canDomainEdit(): boolean {
    return this.w.domainEdit;
  }
  setDomainEdit(b: boolean): Protection {
    return this.update({ domainEdit: !!b });
  }
  canEdit(): boolean {
    return true;
  }
  remove(): void {
    call('pr.remove', { ...this.where(), id: this.w.id });
  }
  getRangeName(): string | null {
    return this.w.range ?? null;
  }
}
