// The project sidecar (<workbook>.xlsx.project.json): state Apps Script keeps outside the spreadsheet, versioned.
import fs from 'node:fs';
import { FormatError, formatVersion, isRecord } from './host/format-errors.js';
import type { TriggerModel } from './host/triggers.js';

// Version 1 is the first format, which had no version field; version 2 names its version and always has every field;
// version 3 adds the spreadsheets a script created (SpreadsheetApp.create), each saved as its own .xlsx beside the
// workbook. A runtime that reads only version 2 refuses a version 3 sidecar rather than dropping those spreadsheets.
// Version 4 adds the number of the last journal record the saved state holds (host/journal.ts): a runtime that knew no
// journal would open the snapshot without the changes journaled since, so it refuses version 4. A created
// spreadsheet's `editors` (whom its owner shared it with) is optional: a runtime that ignores it opens the file to
// fewer people, never to more.
export const PROJECT_VERSION = 4;
export const PROJECT_VERSION_KEY = 'kaigi_project_version';
const WHAT = 'the project sidecar';

export interface ProjectState {
  [PROJECT_VERSION_KEY]: typeof PROJECT_VERSION;
  // Added to the host's wall clock to give the runtime's "now".
  clockOffset: number;
  scriptProperties: Record<string, string>;
  documentProperties: Record<string, string>;
  userProperties: Record<string, Record<string, string>>;
  triggers: TriggerModel[];
  // Spreadsheets other than the workbook: their id, the account that created them (only it may open them) and the
  // .xlsx file, named relative to the workbook's folder (spreadsheetFile).
  spreadsheets: SavedSpreadsheet[];
  // The last journal record this snapshot holds: replay starts after it (0 when nothing was ever journaled).
  journalSeq: number;
}

interface SavedSpreadsheet {
  id: string;
  owner: string;
  file: string;
  // Whom its owner shared it with as editors; absent when nobody (and in sidecars from before sharing was kept).
  editors?: string[];
}

export type ProjectContent = Omit<ProjectState, typeof PROJECT_VERSION_KEY>;

export function projectFile(workbookFile: string): string {
  return `${workbookFile}.project.json`;
}

// Where a spreadsheet the script created is saved: beside the workbook, `<workbook>.<id>.xlsx`
// (kaigi.xlsx → kaigi.1AbC….xlsx), so the workbook's folder holds the whole project and a spreadsheet program opens each.
export function spreadsheetFile(workbookFile: string, id: string): string {
  return `${workbookFile.replace(/\.xlsx$/i, '')}.${id}.xlsx`;
}

// The sidecar's text; workbook-files.ts writes it with the rest of a save, readable by its owner only.
export function projectText(content: ProjectContent): string {
  const state: ProjectState = { [PROJECT_VERSION_KEY]: PROJECT_VERSION, ...content };
  return JSON.stringify(state, null, 2);
}

// The sidecar next to a workbook, brought up to the current version; null when there is none.
export function readProject(workbookFile: string): ProjectState | null {
  const file = projectFile(workbookFile);
  if (!fs.existsSync(file)) return null;
  return parseProject(fs.readFileSync(file, 'utf8'), file);
}

function parseProject(text: string, file: string): ProjectState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new FormatError(file, WHAT, `not JSON (${(e as Error).message})`);
  }
  if (!isRecord(raw)) throw new FormatError(file, WHAT, 'not a JSON object');
  const version = formatVersion(raw, PROJECT_VERSION_KEY, PROJECT_VERSION, file, WHAT);
  const v2 = version === 1 ? fromVersion1(raw) : raw;
  const v3 = version < 3 ? fromVersion2(v2) : v2;
  const v4 = version < 4 ? { ...v3, [PROJECT_VERSION_KEY]: 4, journalSeq: 0 } : v3;
  return checked(v4, file);
}

// Version 1 left out what was empty; the loader read every field with a default, so version 2 fills the same defaults.
function fromVersion1(v1: Record<string, unknown>): Record<string, unknown> {
  return {
    ...v1,
    [PROJECT_VERSION_KEY]: 2,
    clockOffset: v1.clockOffset ?? 0,
    scriptProperties: v1.scriptProperties ?? {},
    documentProperties: v1.documentProperties ?? {},
    userProperties: v1.userProperties ?? {},
    triggers: v1.triggers ?? [],
  };
}

// Version 2 had no spreadsheets besides the workbook.
function fromVersion2(v2: Record<string, unknown>): Record<string, unknown> {
  return { ...v2, [PROJECT_VERSION_KEY]: 3, spreadsheets: [] };
}

function stringMap(v: unknown): v is Record<string, string> {
  return isRecord(v) && Object.values(v).every((x) => typeof x === 'string');
}

// A field of the wrong kind is reported, never replaced by an empty default: that would reset the project.
function checked(p: Record<string, unknown>, file: string): ProjectState {
  const bad = (field: string, want: string) => new FormatError(file, WHAT, `"${field}" should be ${want}`);
  if (typeof p.clockOffset !== 'number' || !Number.isFinite(p.clockOffset)) throw bad('clockOffset', 'a number');
  if (!stringMap(p.scriptProperties)) throw bad('scriptProperties', 'an object of strings');
  if (!stringMap(p.documentProperties)) throw bad('documentProperties', 'an object of strings');
  if (!isRecord(p.userProperties) || !Object.values(p.userProperties).every(stringMap))
    throw bad('userProperties', 'an object of objects of strings');
  if (!Array.isArray(p.triggers) || !p.triggers.every((t) => isRecord(t) && typeof t.uid === 'string'))
    throw bad('triggers', 'a list of triggers');
  const editors = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((e) => typeof e === 'string'));
  const saved = (v: unknown) =>
    isRecord(v) &&
    typeof v.id === 'string' &&
    typeof v.owner === 'string' &&
    typeof v.file === 'string' &&
    editors(v.editors);
  if (!Array.isArray(p.spreadsheets) || !p.spreadsheets.every(saved))
    throw bad('spreadsheets', 'a list of { id, owner, file, editors? }');
  if (typeof p.journalSeq !== 'number' || !Number.isSafeInteger(p.journalSeq) || p.journalSeq < 0)
    throw bad('journalSeq', 'a whole number');
  return p as unknown as ProjectState;
}
