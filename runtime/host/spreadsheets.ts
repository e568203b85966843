// Spreadsheets other than the bound one (SpreadsheetApp.create / openById): who owns each, and which workbook a call means.
import crypto from 'node:crypto';
import { SheetsError } from './sheet-model.js';
import { Workbook } from './workbook.js';

// One spreadsheet a user created: its cells and the account it belongs to (only that account may open it here; the
// runtime models no Drive sharing).
export interface OwnedSpreadsheet {
  workbook: Workbook;
  owner: string;
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
    this.files.set(id, { workbook, owner });
    return workbook;
  }

  // Adds a spreadsheet loaded from a saved project.
  adopt(workbook: Workbook, owner: string): void {
    this.files.set(workbook.id, { workbook, owner });
  }

  ownerOf(id: string): string | null {
    return this.files.get(id)?.owner ?? null;
  }

  // The workbook `id` names for an execution running as `user`, refused as Apps Script refuses it.
  open(id: string, user: string): Workbook {
    const f = this.files.get(id);
    if (!f) throw new SheetsError(OPEN_FAILED);
    if (f.owner !== user) throw new SheetsError(NO_ACCESS);
    return f.workbook;
  }

  clone(): SpreadsheetFiles {
    const copy = new SpreadsheetFiles();
    for (const [id, f] of this.files) copy.files.set(id, { workbook: f.workbook.clone(), owner: f.owner });
    return copy;
  }

  replaceWith(other: SpreadsheetFiles): void {
    this.files.clear();
    for (const [id, f] of other.files) this.files.set(id, f);
  }
}
