// Errors for files the runtime persists (the project sidecar, the workbook's metadata sheet) that it cannot read.

// The file names a format version this runtime does not know: most likely it was written by a newer Kaigi.
// Loading it anyway, or starting over, would lose or reset the project, so the load stops here.
export class FormatVersionError extends Error {
  constructor(
    readonly file: string,
    readonly what: string,
    readonly version: unknown,
    readonly supported: number,
  ) {
    super(
      `${file}: ${what} has format version ${JSON.stringify(version)}, which this runtime cannot read ` +
        `(it reads versions 1 to ${supported}). It may have been written by a newer Kaigi; ` +
        'open it with that version instead of overwriting it.',
    );
    this.name = 'FormatVersionError';
  }
}

// The file is there but is not what the runtime wrote: not JSON, or a field of the wrong kind.
export class FormatError extends Error {
  constructor(
    readonly file: string,
    readonly what: string,
    readonly problem: string,
  ) {
    super(`${file}: ${what} cannot be read: ${problem}`);
    this.name = 'FormatError';
  }
}

// The version a persisted blob declares: absent means the first, unversioned format; anything else must be known.
export function formatVersion(
  blob: Record<string, unknown>,
  key: string,
  current: number,
  file: string,
  what: string,
): number {
  if (!(key in blob)) return 1;
  const v = blob[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > current)
    throw new FormatVersionError(file, what, v, current);
  return v;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
