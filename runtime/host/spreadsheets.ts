// Spreadsheets other than the bound one (SpreadsheetApp.create / openById): who owns each, and which workbook a call means.
import crypto from 'node:crypto';
import { SheetsError } from './sheet-model.js';
import { Workbook } from './workbook.js';

// One spreadsheet a user created: its cells, the account it belongs to and the accounts it is shared with as
// editors (addEditors). Only they may open it; anyone else is refused as Apps Script refuses them.
export interface OwnedSpreadsheet {
  workbook: Workbook;
  owner: string;
  editors: string[];
}

// Apps Script's messages: an id nobody has is "not found" (the generic openById failure); a spreadsheet that exists
// but is not shared with the user says so.
const OPEN_FAILED = 'Unexpected error while getting the method or property openById on object SpreadsheetApp.';
const NO_ACCESS = 'You do not have permission to access the requested document.';

// A Drive file id as Google writes a spreadsheet's: 44 characters of base64url.
function newId(): string {
  return `1${crypto.randomBytes(33).toString('base64url').slice(0, 43)}`;
}

export class SpreadsheetFiles {
  private readonly files = new Map<string, OwnedSpreadsheet>();

  get size(): number {
    return this.files.size;
  }

  // In creation order (Map keeps insertion order), so a saved project lists them the same way every time.
  all(): [string, OwnedSpreadsheet][] {
    return [...this.files];
  }

  // A new spreadsheet as Sheets makes one: one empty sheet "Sheet1", the creator's time zone and locale.
  create(name: string, owner: string, timeZone: string, locale: string): Workbook {
    if (typeof name !== 'string' || name === '') throw new SheetsError('Invalid argument: name');
    let id = newId();
    while (this.files.has(id)) id = newId();
    const workbook = Workbook.create({ id, name, timeZone, locale });
    this.files.set(id, { workbook, owner, editors: [] });
    return workbook;
  }

  // Adds a spreadsheet loaded from a saved project.
  adopt(workbook: Workbook, owner: string, editors: readonly string[] = []): void {
    this.files.set(workbook.id, { workbook, owner, editors: editors.slice() });
  }

  ownerOf(id: string): string | null {
    return this.files.get(id)?.owner ?? null;
  }

  // Spreadsheet.getEditors(): those it is shared with as editors (its owner is not among them).
  editorsOf(id: string): string[] {
    return (this.files.get(id)?.editors ?? []).slice();
  }

  // Spreadsheet.addEditors(): shared with each (an email compared without case; the owner needs no sharing).
  share(id: string, emails: readonly string[]): void {
    const f = this.files.get(id);
    if (!f) throw new SheetsError(OPEN_FAILED);
    for (const raw of emails) {
      const email = String(raw).trim();
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new SheetsError(`Invalid email: ${email}`);
      const known = (e: string) => e.toLowerCase() === email.toLowerCase();
      if (!known(f.owner) && !f.editors.some(known)) f.editors.push(email);
    }
  }

  // Spreadsheet.removeEditor(): no longer shared with them.
  unshare(id: string, email: string): void {
    const f = this.files.get(id);
    if (!f) throw new SheetsError(OPEN_FAILED);
    f.editors = f.editors.filter((e) => e.toLowerCase() !== String(email).toLowerCase());
  }

  // The workbook `id` names for an execution running as `user`, refused as Apps Script refuses it: only its owner
  // and those it is shared with may open it.
  open(id: string, user: string): Workbook {
    const f = this.files.get(id);
    if (!f) throw new SheetsError(OPEN_FAILED);
    const may = (e: string) => e.toLowerCase() === user.toLowerCase();
    if (!may(f.owner) && !f.editors.some(may)) throw new SheetsError(NO_ACCESS);
    return f.workbook;
  }

  clone(): SpreadsheetFiles {
    const copy = new SpreadsheetFiles();
    for (const [id, f] of this.files)
      copy.files.set(id, { workbook: f.workbook.clone(), owner: f.owner, editors: f.editors.slice() });
    return copy;
  }

  replaceWith(other: SpreadsheetFiles): void {
    this.files.clear();
    for (const [id, f] of other.files) this.files.set(id, f);
  }
}
