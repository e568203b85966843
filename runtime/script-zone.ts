// Makes the process's local time the script's time zone (appsscript.json), as Apps Script gives a script's Date.
import { FormatError } from './host/format-errors.js';

// On Apps Script a script's `new Date(2026, 0, 1)`, getHours() and toString() are in the manifest's zone, whatever
// the caller's machine says. Node keeps one local zone per process: assigning process.env.TZ on the main thread
// resets it for the whole process (a worker thread's process.env is its own copy, and assigning there changes
// nothing), and each worker thread's V8 reads it once, when the thread starts. So the runtime sets it here, before its
// pool starts a thread. The host's own code keeps no local-time dates (it names a zone wherever it needs one).
export function useScriptZone(zone: unknown, manifestFile: string): string {
  if (typeof zone !== 'string' || !knownZone(zone))
    throw new FormatError(
      manifestFile,
      'the manifest',
      `"timeZone" should be a time zone name, not ${JSON.stringify(zone)}`,
    );
  if (process.env.TZ !== zone) process.env.TZ = zone;
  return zone;
}

function knownZone(zone: string): boolean {
  if (zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
